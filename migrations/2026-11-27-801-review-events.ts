import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `news_review_events`: the review queue's steps of a story, for its history and the reporter's form. `kind` is
 * 'submitted' (sent for review), 'approved' (a story in review published or scheduled) or 'returned' (sent back to
 * the reporter, with `note`). `version` is the story's version the step created (the history shows the step on that
 * version); `actor_id` who did it (no foreign key to Better Auth's user table, as `admins`). Deleting the story
 * deletes its events (foreign key, cascade; the editor also deletes them in the same transaction).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("news_review_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("news_id", "text", (col) => col.notNull().references("news.id").onDelete("cascade"))
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("actor_id", "text")
    .addColumn("note", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("news_review_events_news").on("news_review_events").columns(["news_id", "version"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("news_review_events").execute();
}
