import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Read counts ("Mais lidas"): one row per news item and hour (`hour` is the ISO-8601 UTC start of the hour,
 * `2026-11-25T14:00:00.000Z`), upserted as reads come in. No reader data at all: no address, no cookie, no user
 * agent. Deleting a news item deletes its counts (foreign key, ON DELETE CASCADE). See docs/decisions/006-read-counts.md.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("news_reads")
    .addColumn("news_id", "text", (col) => col.notNull().references("news.id").onDelete("cascade"))
    .addColumn("hour", "text", (col) => col.notNull())
    .addColumn("reads", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("news_reads_pk", ["news_id", "hour"])
    .execute();
  // The windows ("last 24 h", "last 7 days") are ranges of hours, summed per news item.
  await db.schema.createIndex("news_reads_hour_idx").on("news_reads").columns(["hour", "news_id", "reads"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("news_reads").execute();
}
