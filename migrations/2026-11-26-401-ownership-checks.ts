import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `npm run admin -- create` for an address that already has an account: the account becomes admin only once the
 * address's owner has set a new password through the link the command mails. One row per such account: when the
 * link went (`requested_at`) and when a password was reset after it (`proven_at`, null until then). ISO-8601 UTC.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ownership_checks")
    .addColumn("user_id", "text", (col) => col.primaryKey())
    .addColumn("requested_at", "text", (col) => col.notNull())
    .addColumn("proven_at", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ownership_checks").execute();
}
