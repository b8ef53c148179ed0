import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * `section_settings`: how an admin arranged the section menu (/secoes). One row per category slug the admin placed or
 * hid: `position` (1, 2, …: the menu's order, before the categories without one, which follow by volume; null: by
 * volume) and `hidden` (0/1: left out of the menu and of the home's section blocks). A category without a row is
 * shown, by volume. `updated_by` is the admin's user id (no foreign key to Better Auth's table, as `admins`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("section_settings")
    .addColumn("slug", "text", (col) => col.primaryKey())
    .addColumn("position", "integer")
    .addColumn("hidden", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("updated_by", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("section_settings").execute();
}
