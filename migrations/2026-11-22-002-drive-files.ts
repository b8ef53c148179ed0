import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * The Google Drive store (MEDIA_STORE=gdrive) names files by Drive id, not by path: this table maps each of our
 * media keys to the Drive file holding it. Unused by the other stores.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("drive_files")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("file_id", "text", (col) => col.notNull())
    .addColumn("size", "bigint", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("drive_files").execute();
}
