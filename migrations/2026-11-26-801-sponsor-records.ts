import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * Sponsors become records of their own: a name (required; existing sponsors get "Patrocinador N" in their current
 * order, oldest first, which the newsroom can edit), an optional link (https), a display order (`position`, 1 = first)
 * and an optional window in which readers see them (`active_from`, `active_until`: calendar dates YYYY-MM-DD in the
 * site's time zone, both included). `down` drops the columns: the order falls back to the creation time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("sponsors")
    .addColumn("name", "text", (col) => col.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("sponsors").addColumn("link", "text").execute();
  await db.schema
    .alterTable("sponsors")
    .addColumn("position", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("sponsors").addColumn("active_from", "text").execute();
  await db.schema.alterTable("sponsors").addColumn("active_until", "text").execute();
  const rows: Array<{ id: string }> = await db.selectFrom("sponsors").select("id").orderBy("created_at").orderBy("id").execute();
  let position = 0;
  for (const row of rows) {
    position++;
    await db
      .updateTable("sponsors")
      .set({ name: `Patrocinador ${position}`, position })
      .where("id", "=", row.id)
      .execute();
  }
  await db.schema.createIndex("sponsors_position").on("sponsors").columns(["position", "created_at", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("sponsors_position").execute();
  for (const column of ["active_until", "active_from", "position", "link", "name"]) {
    await db.schema.alterTable("sponsors").dropColumn(column).execute();
  }
}
