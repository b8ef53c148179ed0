import { randomBytes } from "node:crypto";
import { passwordProblems, type PasswordPolicy } from "#app/lib/password-policy.ts";
import type { Kysely } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import type { LazyBetterAuth } from "./auth.server.ts";

export class PasswordPolicyError extends Error {
  override name = "PasswordPolicyError";
}

/**
 * Creates an e-mail + password account whose address counts as verified, without a session and without the
 * confirmation mail self-registration sends: for accounts an operator vouches for (the admin command, the demo
 * admin). Refuses a password outside the policy (the pt-BR rules, one per line). Returns the new user's id.
 */
export async function createVerifiedAccount(
  auth: LazyBetterAuth,
  policy: PasswordPolicy,
  input: { email: string; name: string; password: string },
): Promise<string> {
  const problems = passwordProblems(input.password, policy);
  if (problems.length) throw new PasswordPolicyError(problems.join("\n"));
  const context = await (await auth.get()).$context;
  const hash = await context.password.hash(input.password);
  const user = await context.internalAdapter.createUser(
    { email: input.email.toLowerCase(), name: input.name, emailVerified: true },
    { method: "email-password" },
  );
  await context.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
  return user.id;
}

/** A password nobody knows (the owner sets theirs through a set-password link). */
export function unknowablePassword(): string {
  return randomBytes(32).toString("base64url");
}

/** Removes an account and everything Better Auth keeps for it (sessions, credentials). */
export async function deleteAccount(auth: LazyBetterAuth, userId: string): Promise<void> {
  const context = await (await auth.get()).$context;
  await context.internalAdapter.deleteUserSessions(userId);
  await context.internalAdapter.deleteAccounts(userId);
  await context.internalAdapter.deleteUser(userId);
}

/**
 * Removes the accounts that registered and were never made admins, created before `olderThan` (sessions and
 * credentials with them): the newsroom has no use for them, and each is a row anyone could have made. Returns how
 * many went. Accounts that were admins once and were revoked are removed the same way once old enough.
 */
export async function removeStaleAccounts(auth: LazyBetterAuth, db: Kysely<Database>, olderThan: Date): Promise<number> {
  const stale = await db
    .selectFrom("user")
    .select("id")
    .where("createdAt", "<", olderThan.toISOString() as never)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("admins").select("admins.user_id").whereRef("admins.user_id", "=", "user.id"))))
    // An account waiting on an invitation from the team page stays until the invitation expires.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("member_invites")
            .select("member_invites.user_id")
            .whereRef("member_invites.user_id", "=", "user.id")
            .where("member_invites.expires_at", ">", new Date().toISOString()),
        ),
      ),
    )
    .execute();
  for (const { id } of stale) {
    await deleteAccount(auth, id);
    // An expired invitation of the team page goes with its account.
    await db.deleteFrom("member_invites").where("user_id", "=", id).execute();
  }
  return stale.length;
}
