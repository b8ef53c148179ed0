import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Drafts, scheduling, a version per news item and its revisions.
 *
 * - `status`: 'draft', 'scheduled' or 'published'. Readers only ever see 'published'.
 * - `published_at`: the publication date, what readers see and what lists are ordered by. For a scheduled item it is
 *   the planned time (the scheduler flips the status when it comes); for a draft, when it became a draft (so the
 *   admin list has one order for everything). Existing rows are published, on their creation date.
 * - `version`: starts at 1 and goes up on every save; a save that names an older version is refused (no lost edits).
 * - `updated_by`: who saved the current version (a user id; null for rows written by imports, seeds and scripts).
 * - `news_revisions`: every save keeps the version it replaces (texts, category, author, highlight, media reference,
 *   who saved it and when). Deleting an item deletes its revisions (the editor does, with the item); a media record
 *   a revision still refers to is not swept.
 *
 * The list indexes move from created_at to (status, published_at): readers' queries are `status = 'published'`
 * ordered by publication date, so the index gives both the filter and the order; the scheduler's "scheduled items
 * due by now" is a range on the same index. (published_at, id) alone serves the admin list of every status.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("news")
    .addColumn("status", "text", (col) => col.notNull().defaultTo("published").check(sql`status in ('draft', 'scheduled', 'published')`))
    .execute();
  await db.schema.alterTable("news").addColumn("published_at", "text").execute();
  await db.schema
    .alterTable("news")
    .addColumn("version", "integer", (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("news").addColumn("updated_by", "text").execute();
  await db.updateTable("news").set({ published_at: sql`created_at` }).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table news alter column published_at set not null`.execute(db);
  }
  await db.schema.dropIndex("news_created_at_idx").execute();
  await db.schema.dropIndex("news_highlight_created_at_idx").execute();
  await db.schema.createIndex("news_status_published_at_idx").on("news").columns(["status", "published_at", "id"]).execute();
  await db.schema
    .createIndex("news_status_highlight_published_at_idx")
    .on("news")
    .columns(["status", "is_highlighted", "published_at", "id"])
    .execute();
  await db.schema.createIndex("news_published_at_idx").on("news").columns(["published_at", "id"]).execute();

  await db.schema
    .createTable("news_revisions")
    .addColumn("id", "text", (col) => col.primaryKey())
    // No foreign key to news: the editor deletes an item's revisions with it (in one transaction), and the news table
    // stays free of dependants (operators and tests can drop or rebuild it as before).
    .addColumn("news_id", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("subtitle", "text", (col) => col.notNull())
    .addColumn("full_content", "text", (col) => col.notNull())
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("author", "text", (col) => col.notNull())
    .addColumn("is_highlighted", "integer", (col) => col.notNull())
    .addColumn("media_id", "text", (col) => col.references("media.id").onDelete("set null"))
    .addColumn("saved_by", "text")
    .addColumn("saved_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("news_revisions_news_version_idx").on("news_revisions").columns(["news_id", "version"]).unique().execute();
  await db.schema.createIndex("news_revisions_media_id_idx").on("news_revisions").column("media_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("news_revisions").execute();
  await db.schema.alterTable("news").dropColumn("updated_by").execute();
  await db.schema.dropIndex("news_published_at_idx").execute();
  await db.schema.dropIndex("news_status_highlight_published_at_idx").execute();
  await db.schema.dropIndex("news_status_published_at_idx").execute();
  await db.schema.createIndex("news_created_at_idx").on("news").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("news_highlight_created_at_idx").on("news").columns(["is_highlighted", "created_at", "id"]).execute();
  await db.schema.alterTable("news").dropColumn("version").execute();
  await db.schema.alterTable("news").dropColumn("published_at").execute();
  await db.schema.alterTable("news").dropColumn("status").execute();
}
