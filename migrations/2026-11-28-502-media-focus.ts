import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `media.focus`: where the subject of an image is, when the editor said so (a keyword of app/lib/media-focus.ts:
 * 'topo', 'base-esquerda'…); null is the centre. Cards crop a photo to their box around it (CSS object-position).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").addColumn("focus", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").dropColumn("focus").execute();
}
