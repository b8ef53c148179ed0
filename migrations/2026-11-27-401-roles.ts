import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Roles in the newsroom, and who owns a story.
 *
 * - `admins.role`: 'reporter', 'editor' or 'admin'. The table keeps its name (a row is still "this account may sign
 *   in to the newsroom"); every account that was an admin before stays one (the default). An account with no row has
 *   no role, as before.
 * - `news.owner_id`: the account that created the story (a user id). Existing stories, and those written by imports,
 *   seeds and scripts, have none (null): only editors and admins may change them.
 * - `news.review_requested_at`: when a reporter sent the draft for review ("Enviar para revisão"); null otherwise.
 *   A story in review is stored as a draft (`status` stays 'draft', so every reader query, which asks for
 *   'published', never sees it, and the status column's check constraint is unchanged) and shown to the newsroom as
 *   `review`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("admins")
    .addColumn("role", "text", (col) => col.notNull().defaultTo("admin"))
    .execute();
  await db.schema.alterTable("news").addColumn("owner_id", "text").execute();
  await db.schema.alterTable("news").addColumn("review_requested_at", "text").execute();
  await db.schema.createIndex("news_owner_idx").on("news").column("owner_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_owner_idx").execute();
  await db.schema.alterTable("news").dropColumn("review_requested_at").execute();
  await db.schema.alterTable("news").dropColumn("owner_id").execute();
  await db.schema.alterTable("admins").dropColumn("role").execute();
}
