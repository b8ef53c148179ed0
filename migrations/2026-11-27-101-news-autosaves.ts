import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `news_autosaves`: what an editor had typed in a story's form and not saved yet, kept by the form's autosave (one
 * row per story per user, overwritten by each autosave: an upsert on the primary key). Readers never see it: the
 * story itself (and its version, revisions and events) is untouched until a real save, which deletes the row. The
 * form's fields as typed: texts, the structured body (ProseMirror JSON), the highlight, the schedule field's value,
 * and the version the form was opened on. Deleting the story deletes its autosaves (foreign key, cascade); the
 * editor also deletes them in the same transaction as the story.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("news_autosaves")
    .addColumn("news_id", "text", (col) => col.notNull().references("news.id").onDelete("cascade"))
    // No foreign key to Better Auth's user table (its own migrations own it), as `admins`.
    .addColumn("user_id", "text", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("subtitle", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("author", "text", (col) => col.notNull())
    .addColumn("media_description", "text", (col) => col.notNull())
    .addColumn("media_caption", "text", (col) => col.notNull())
    .addColumn("media_credit", "text", (col) => col.notNull())
    .addColumn("is_highlighted", "integer", (col) => col.notNull())
    .addColumn("publish_at", "text", (col) => col.notNull())
    .addColumn("base_version", "integer", (col) => col.notNull())
    .addColumn("saved_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("news_autosaves_pk", ["news_id", "user_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("news_autosaves").execute();
}
