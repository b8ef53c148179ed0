import { z } from "./zod.ts";
import { t } from "#app/i18n/newsroom.ts";
import { isPlainEmailAddress } from "./email-address.ts";
import { passwordSchema, type PasswordPolicy } from "./password-policy.ts";

/**
 * An e-mail address as registration takes it (trimmed, one plain address: app/lib/email-address.ts, lower-cased):
 * sign-in, registration, reset, the import.
 */
export const emailSchema = z
  .string({ error: t.auth.emailRequired })
  .trim()
  .min(1, { error: t.auth.emailRequired })
  .refine(isPlainEmailAddress, { error: t.auth.emailInvalid })
  .transform((value) => value.toLowerCase());
const email = emailSchema;

/** Sign-in: e-mail and password required (the policy is not checked here: old passwords stay valid). */
export const loginSchema = z.object({
  email,
  password: z.string({ error: t.auth.passwordRequired }).min(1, { error: t.auth.passwordRequired }),
});

export const forgotSchema = z.object({ email });

export function registerSchema(policy: PasswordPolicy) {
  return z
    .object({ email, password: passwordSchema(policy), confirmPassword: z.string() })
    .refine((value) => value.password === value.confirmPassword, {
      error: t.auth.passwordsDiffer,
      path: ["confirmPassword"],
    });
}

export function resetSchema(policy: PasswordPolicy) {
  return z
    .object({ token: z.string().min(1), password: passwordSchema(policy), confirmPassword: z.string() })
    .refine((value) => value.password === value.confirmPassword, {
      error: t.auth.passwordsDiffer,
      path: ["confirmPassword"],
    });
}

export { type FieldErrors, fieldErrorsOf } from "./zod.ts";
