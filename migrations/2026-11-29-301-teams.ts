import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Clubs as tags the desk keeps (/times). `teams.slug` is the address of the club's page (/time/{slug}) and never
 * changes; `name` is how it is written and `name_key` the name folded (accents, case and punctuation: "São Paulo",
 * "sao paulo" and "SAO-PAULO" are one), unique, so the list has no two spellings of one club however it is renamed.
 * `news_teams`: which clubs a story is about; removing a story for good or a club from the list takes its tags with
 * it. Read by club (`news_teams_team_idx`): a club's page joins its stories by id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("teams")
    .addColumn("slug", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("created_by", "text")
    .execute();
  await db.schema
    .createTable("news_teams")
    .addColumn("news_id", "text", (col) => col.notNull().references("news.id").onDelete("cascade"))
    .addColumn("team_slug", "text", (col) => col.notNull().references("teams.slug").onDelete("cascade"))
    .addPrimaryKeyConstraint("news_teams_pk", ["news_id", "team_slug"])
    .execute();
  await db.schema.createIndex("news_teams_team_idx").on("news_teams").columns(["team_slug", "news_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("news_teams").execute();
  await db.schema.dropTable("teams").execute();
}
