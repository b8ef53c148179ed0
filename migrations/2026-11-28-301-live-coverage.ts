import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Live coverage of a story ("AO VIVO"): its state on the story's row and its updates in `news_live_updates`.
 *
 * On `news`: `live_coverage` is null (no coverage), 'live' or 'ended'; `live_started_at` / `live_ended_at` when it
 * started and ended (kept when it ends or is turned off); `live_scoreboard` the match's scoreboard as JSON text (home,
 * away, homeScore, awayScore, period) or null; `live_updated_at` the last change of the coverage (an update posted,
 * edited or deleted, the scoreboard), which feeds and sitemaps read as the story's last change.
 *
 * `news_live_updates`: one row per update: `body` the rich content (ProseMirror JSON text, like `news.body`), `text`
 * its plain text (JSON-LD, summaries), `key_event` / `pinned` (0/1), `author_id` who posted it (no foreign key to
 * Better Auth's user table, as `admins`). Readers page them newest first on (news_id, created_at, id). Deleting the
 * story deletes its updates (foreign key, cascade).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ["live_coverage", "live_started_at", "live_ended_at", "live_scoreboard", "live_updated_at"]) {
    await db.schema.alterTable("news").addColumn(column, "text").execute();
  }
  await db.schema
    .createTable("news_live_updates")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("news_id", "text", (col) => col.notNull().references("news.id").onDelete("cascade"))
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("text", "text", (col) => col.notNull())
    .addColumn("key_event", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("pinned", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("author_id", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("news_live_updates_page").on("news_live_updates").columns(["news_id", "created_at", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("news_live_updates").execute();
  for (const column of ["live_updated_at", "live_scoreboard", "live_ended_at", "live_started_at", "live_coverage"]) {
    await db.schema.alterTable("news").dropColumn(column).execute();
  }
}
