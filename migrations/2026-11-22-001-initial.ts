import { type Kysely, sql } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("media")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("kind", "text", (col) => col.notNull().check(sql`kind in ('image', 'video')`))
    .addColumn("store", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull().unique())
    .addColumn("mime_type", "text", (col) => col.notNull())
    .addColumn("size_bytes", "bigint", (col) => col.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("variants", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("original_name", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("media_created_at_idx").on("media").column("created_at").execute();

  await db.schema
    .createTable("news")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("subtitle", "text", (col) => col.notNull())
    .addColumn("full_content", "text", (col) => col.notNull())
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("author", "text", (col) => col.notNull())
    .addColumn("is_highlighted", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("media_id", "text", (col) => col.references("media.id").onDelete("set null"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  // "All news, newest first" and the home's "highlighted first, then newest".
  await db.schema.createIndex("news_created_at_idx").on("news").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("news_highlight_created_at_idx").on("news").columns(["is_highlighted", "created_at", "id"]).execute();
  await db.schema.createIndex("news_media_id_idx").on("news").column("media_id").execute();

  await db.schema
    .createTable("sponsors")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("media_id", "text", (col) => col.notNull().references("media.id"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sponsors_created_at_idx").on("sponsors").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("sponsors_media_id_idx").on("sponsors").column("media_id").execute();

  await db.schema
    .createTable("admins")
    .addColumn("user_id", "text", (col) => col.primaryKey())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();

  // Small key/value facts about this installation (e.g. when the demo content was created).
  await db.schema
    .createTable("app_settings")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("app_settings").execute();
  await db.schema.dropTable("admins").execute();
  await db.schema.dropTable("sponsors").execute();
  await db.schema.dropTable("news").execute();
  await db.schema.dropTable("media").execute();
}
