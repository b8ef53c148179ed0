import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";

/**
 * Proof that the owner of an address controls an account that already existed when `npm run admin -- create`
 * was run for it (someone else may have registered the newsroom's address first, and the owner may even have
 * clicked the confirmation mail). The command mails a reset link and records the request; following that link
 * (setting a new password, which ends every session) records the proof. Only then may the account be granted.
 */
export type OwnershipState = { state: "none" } | { state: "pending"; requestedAt: string } | { state: "proven"; provenAt: string };

export async function ownershipOf(db: Kysely<Database>, userId: string): Promise<OwnershipState> {
  const row = await db.selectFrom("ownership_checks").selectAll().where("user_id", "=", userId).executeTakeFirst();
  if (!row) return { state: "none" };
  return row.proven_at ? { state: "proven", provenAt: row.proven_at } : { state: "pending", requestedAt: row.requested_at };
}

/** Records that a link was mailed now; an earlier proof no longer counts (a new link must be followed). */
export async function requestOwnershipProof(db: Kysely<Database>, userId: string, now = new Date()): Promise<void> {
  await db
    .insertInto("ownership_checks")
    .values({ user_id: userId, requested_at: now.toISOString(), proven_at: null })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ requested_at: now.toISOString(), proven_at: null }))
    .execute();
}

/** Called when a password is reset through a mailed link: a pending request becomes proven. */
export async function markOwnershipProven(db: Kysely<Database>, userId: string, now = new Date()): Promise<void> {
  await db
    .updateTable("ownership_checks")
    .set({ proven_at: now.toISOString() })
    .where("user_id", "=", userId)
    .where("proven_at", "is", null)
    .execute();
}

/** Forgets the check (once the account is granted). */
export async function clearOwnershipCheck(db: Kysely<Database> | Transaction<Database>, userId: string): Promise<void> {
  await db.deleteFrom("ownership_checks").where("user_id", "=", userId).execute();
}
