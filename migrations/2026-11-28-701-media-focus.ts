import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * The point of an image a crop must keep (the face, the ball), set by the newsroom: `focus_x` and `focus_y` in
 * percent of its width and height (0–100), both null for the centre (every existing image). Pages draw the image in
 * boxes of other shapes with `object-position` at that point.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").addColumn("focus_x", "integer").execute();
  await db.schema.alterTable("media").addColumn("focus_y", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("media").dropColumn("focus_y").execute();
  await db.schema.alterTable("media").dropColumn("focus_x").execute();
}
