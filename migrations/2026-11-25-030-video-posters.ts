import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Videos get a poster frame (its variants go in `variants`, like an image's), their width and height (the existing
 * columns) and their duration, read with ffmpeg when uploaded. Videos stored before keep null: no poster, unknown
 * duration, as they were shown until now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").addColumn("duration_ms", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").dropColumn("duration_ms").execute();
}
