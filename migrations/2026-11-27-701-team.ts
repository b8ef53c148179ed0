import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * The team page (/equipe).
 *
 * - `member_invites`: an invitation an admin sent, one per account: the role it gives once the address's owner
 *   sets a password through the mailed link (`role`), who sent it (`invited_by`, a user id), when, and until when
 *   the link holds (`expires_at`). ISO-8601 UTC. The row goes when the invitation is accepted or cancelled.
 * - `member_changes`: the team's log, one row per change: when (`at`), who did it (`actor_id`, and `actor_email` as
 *   it was then, kept when the account goes), to whom (`target_id`, `target_email`), what (`action`: 'invite',
 *   'accept', 'grant' (by the command line), 'role', 'revoke', 'cancel'; `actor_id` null: the command line) and the roles before and after (null where none).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("member_invites")
    .addColumn("user_id", "text", (col) => col.primaryKey())
    .addColumn("role", "text", (col) => col.notNull())
    .addColumn("invited_by", "text")
    .addColumn("invited_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createTable("member_changes")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("at", "text", (col) => col.notNull())
    .addColumn("actor_id", "text")
    .addColumn("actor_email", "text")
    .addColumn("target_id", "text", (col) => col.notNull())
    .addColumn("target_email", "text")
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("from_role", "text")
    .addColumn("to_role", "text")
    .execute();
  await db.schema.createIndex("member_changes_at_idx").on("member_changes").column("at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("member_changes_at_idx").execute();
  await db.schema.dropTable("member_changes").execute();
  await db.schema.dropTable("member_invites").execute();
}
