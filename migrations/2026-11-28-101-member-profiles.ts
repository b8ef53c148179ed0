import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Authors as people.
 *
 * - `member_profiles`: a newsroom member's public profile, one row per account (written the first time the member,
 *   or an admin, saves it): the name shown (`display_name`) and its slug (`slug`, the /autor/{slug} of the stories
 *   they sign; unique), a short `bio`, a photo (`photo_media_id`, a media record) and links (`link_x`,
 *   `link_instagram`, `link_site`: http/https addresses or null). ISO-8601 UTC `updated_at`.
 * - `news.author_user_id`: the member a story's author is (a user id), or null: a free-text author (an agency, a
 *   guest writer) or a story from before profiles. `author` stays the name shown and `author_slug` the page's slug.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("member_profiles")
    .addColumn("user_id", "text", (col) => col.primaryKey())
    .addColumn("display_name", "text", (col) => col.notNull())
    .addColumn("slug", "text", (col) => col.notNull())
    .addColumn("bio", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("photo_media_id", "text")
    .addColumn("link_x", "text")
    .addColumn("link_instagram", "text")
    .addColumn("link_site", "text")
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("member_profiles_slug_idx").on("member_profiles").column("slug").unique().execute();
  await db.schema.createIndex("member_profiles_photo_idx").on("member_profiles").column("photo_media_id").execute();
  await db.schema.alterTable("news").addColumn("author_user_id", "text").execute();
  await db.schema.createIndex("news_author_user_idx").on("news").column("author_user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_author_user_idx").execute();
  await db.schema.alterTable("news").dropColumn("author_user_id").execute();
  await db.schema.dropIndex("member_profiles_photo_idx").execute();
  await db.schema.dropIndex("member_profiles_slug_idx").execute();
  await db.schema.dropTable("member_profiles").execute();
}
