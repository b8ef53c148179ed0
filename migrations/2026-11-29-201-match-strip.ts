import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * The match centre's "Jogos de hoje":
 * - `news_matches_idx`: the stories covering a match (a live coverage with a scoreboard), by status and when the
 *   coverage started — a partial index, only those rows — so the strip of the home and of each section reads the day's
 *   matches without walking the published stories;
 * - a match announced before it starts: `live_kickoff_at` (ISO-8601 UTC; the coverage turns live by itself then, and
 *   the column is emptied) and `live_competition` (free text, "Brasileirão"), with `news_kickoffs_idx` (partial: only
 *   the stories waiting for a kickoff) for the scheduler and the strip's next matches.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news").addColumn("live_kickoff_at", "text").execute();
  await db.schema.alterTable("news").addColumn("live_competition", "text").execute();
  await db.schema
    .createIndex("news_kickoffs_idx")
    .on("news")
    .columns(["status", "live_kickoff_at", "id"])
    .where(sql.ref("live_kickoff_at"), "is not", null)
    .execute();
  await db.schema
    .createIndex("news_matches_idx")
    .on("news")
    .columns(["status", "live_started_at", "id"])
    .where(sql.ref("live_scoreboard"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_matches_idx").execute();
  await db.schema.dropIndex("news_kickoffs_idx").execute();
  await db.schema.alterTable("news").dropColumn("live_competition").execute();
  await db.schema.alterTable("news").dropColumn("live_kickoff_at").execute();
}
