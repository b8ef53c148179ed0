import type { Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * A revision keeps the publication of the version it was, not only its texts: `status` ('draft', 'scheduled',
 * 'published') and `published_at`, so the history can say who published, unpublished or scheduled a story, and
 * when (a version whose status differs from the one before it is a status change, made by whoever saved it).
 * Revisions written before this have neither (null): their status is unknown and the history says nothing of it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news_revisions").addColumn("status", "text").execute();
  await db.schema.alterTable("news_revisions").addColumn("published_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news_revisions").dropColumn("published_at").execute();
  await db.schema.alterTable("news_revisions").dropColumn("status").execute();
}
