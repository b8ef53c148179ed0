import { z } from "./zod.ts";
import { t } from "#app/i18n/newsroom.ts";

/** The password rules in force (from the server's configuration; the browser receives a copy). */
export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumber: boolean;
  requireSymbol: boolean;
}

/**
 * A zod schema for a new password under `policy`, one pt-BR message per rule broken. The same schema runs in the
 * browser (before sending) and on the server (authoritative).
 */
export function passwordSchema(policy: PasswordPolicy) {
  return z.string().superRefine((value, ctx) => {
    for (const message of passwordProblems(value, policy)) ctx.addIssue({ code: "custom", message });
  });
}

/** Every rule `password` breaks, as pt-BR messages (empty when it is acceptable). */
export function passwordProblems(password: string, policy: PasswordPolicy): string[] {
  const messages = t.auth.passwordRules;
  const problems: string[] = [];
  if (password.length < policy.minLength) problems.push(messages.tooShort(policy.minLength));
  if (password.length > policy.maxLength) problems.push(messages.tooLong(policy.maxLength));
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) problems.push(messages.lowercase);
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) problems.push(messages.uppercase);
  if (policy.requireNumber && !/\p{Nd}/u.test(password)) problems.push(messages.number);
  if (policy.requireSymbol && !/[^\p{L}\p{Nd}\s]/u.test(password)) problems.push(messages.symbol);
  return problems;
}
