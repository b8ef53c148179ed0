import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `news_matches_idx`: the stories covering a match (a live coverage with a scoreboard), by when the coverage started
 * — a partial index, only those rows — so the "Jogos de hoje" strip of the home and of each section reads the day's
 * matches without walking the published stories.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("news_matches_idx")
    .on("news")
    .columns(["live_started_at", "id"])
    .where(sql.ref("live_scoreboard"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_matches_idx").execute();
}
