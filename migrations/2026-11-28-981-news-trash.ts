import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * The newsroom's Lixeira: a deleted story stays 30 days before it goes for good.
 *
 * - `news.deleted_at`: when it was moved to the trash (ISO-8601 UTC), or null for a story that is not there. A
 *   trashed story is a draft (readers lose it at once) that the newsroom's lists, forms and queues leave out; the
 *   Lixeira lists them, "Restaurar" clears the column (same id, same links) and the scheduler erases those older
 *   than 30 days. A partial index holds the trashed rows alone: the purge and the Lixeira look them up by it.
 * - `news.deleted_by`: the account that moved it (no foreign key: the account may go before the story).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news").addColumn("deleted_at", "text").execute();
  await db.schema.alterTable("news").addColumn("deleted_by", "text").execute();
  // Partial: only the trashed rows are in it, so the lists' `deleted_at is null` keeps its own indexes.
  await db.schema.createIndex("news_trash_idx").on("news").column("deleted_at").where("deleted_at", "is not", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("news_trash_idx").execute();
  await db.schema.alterTable("news").dropColumn("deleted_by").execute();
  await db.schema.alterTable("news").dropColumn("deleted_at").execute();
}
