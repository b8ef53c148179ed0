import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * A live update tells the match (issue 33): at which minute, and what happened.
 *
 * On `news_live_updates`, all three null for an ordinary update (and for every update posted before this migration):
 * - `minute`: the match minute, 0–130 (extra time included);
 * - `added_time`: the added time after that minute ("45+2" is minute 45, added 2), 1–30, only with a minute;
 * - `event_type`: what happened, one of 'goal', 'yellow_card', 'red_card', 'substitution', 'kickoff', 'half_time',
 *   'full_time'.
 * The application checks the values (app/.server/news/live/live-input.server.ts); the columns carry no CHECK, so a new kind
 * of event needs no table rebuild on SQLite. The summary of key events reads at most a few dozen rows of one story
 * through the (news_id, created_at, id) index and orders them in the application: no index of their own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news_live_updates").addColumn("minute", "integer").execute();
  await db.schema.alterTable("news_live_updates").addColumn("added_time", "integer").execute();
  await db.schema.alterTable("news_live_updates").addColumn("event_type", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news_live_updates").dropColumn("event_type").execute();
  await db.schema.alterTable("news_live_updates").dropColumn("added_time").execute();
  await db.schema.alterTable("news_live_updates").dropColumn("minute").execute();
}
