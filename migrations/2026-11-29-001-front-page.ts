import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `front_page_picks`: the stories an editor placed at the top of the home (/capa). `position` 1 is the manchete (the
 * lead), 2 and 3 the stories beside it; a position without a row is filled by the default order. `until` (ISO-8601
 * UTC) is when the choice stops holding, or null (until someone changes it). A story is in one position at most;
 * deleting it for good takes its pick with it. `picked_by` is the member's user id (no foreign key, as elsewhere).
 *
 * `news_live_now_idx`: the stories under live coverage, newest first (a partial index: only those rows), so the
 * home's default lead (a live match) is found without walking the published stories.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("front_page_picks")
    .addColumn("position", "integer", (col) => col.primaryKey())
    .addColumn("news_id", "text", (col) => col.notNull().unique().references("news.id").onDelete("cascade"))
    .addColumn("until", "text")
    .addColumn("picked_at", "text", (col) => col.notNull())
    .addColumn("picked_by", "text")
    .execute();
  await db.schema
    .createIndex("news_live_now_idx")
    .on("news")
    .columns(["status", "published_at", "id"])
    .where(sql.ref("live_coverage"), "=", "live")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_live_now_idx").execute();
  await db.schema.dropTable("front_page_picks").execute();
}
