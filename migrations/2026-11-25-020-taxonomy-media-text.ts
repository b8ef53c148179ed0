import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Images carry a description for screen readers (their `alt`), a caption and a credit ("Foto: …"), shown under the
 * media. Null for media stored before: pages fall back to the news title for the `alt`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ["description", "caption", "credit"]) {
    await db.schema.alterTable("media").addColumn(column, "text").execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["credit", "caption", "description"]) {
    await db.schema.alterTable("media").dropColumn(column).execute();
  }
}
