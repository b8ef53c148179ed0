import { sql, type Kysely } from "kysely";

// Frozen: migrations take Kysely<any> and never import app code. Portable SQL only (SQLite and PostgreSQL).

/**
 * A story's history stays true when it goes offline and back.
 *
 * - `news.first_published_at`: when the story first went out (ISO-8601 UTC), or null for one never published. A story
 *   published again (unpublished then published, in bulk, or by the scheduler) takes this date back as its
 *   `published_at`: it returns to its place in lists, feeds and sitemaps instead of jumping to the top as new.
 *   Backfilled: a published story's own date; an unpublished or scheduled one that has a published revision, the
 *   earliest date it was published with.
 * - `news.text_updated_at`: the last save that changed what readers read (title, subtitle or body), or null. The
 *   article says "Atualizado em …" when it is after the publication; a save that changes nothing readers read (the
 *   highlight, the category) does not. Backfilled from `updated_at` for published stories whose text changed after
 *   their publication (their revisions say so), so a corrected story keeps saying so.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news").addColumn("first_published_at", "text").execute();
  await db.schema.alterTable("news").addColumn("text_updated_at", "text").execute();
  await sql`update news set first_published_at = published_at where status = 'published'`.execute(db);
  await sql`update news set first_published_at = (
      select min(r.published_at) from news_revisions r where r.news_id = news.id and r.status = 'published' and r.published_at is not null
    ) where status <> 'published'`.execute(db);
  await sql`update news set first_published_at = (
      select min(r.published_at) from news_revisions r where r.news_id = news.id and r.status = 'published' and r.published_at is not null
    ) where status = 'published' and exists (
      select 1 from news_revisions r where r.news_id = news.id and r.status = 'published' and r.published_at < news.published_at
    )`.execute(db);
  await sql`update news set text_updated_at = updated_at where status = 'published' and exists (
      select 1 from news_revisions r where r.news_id = news.id and r.saved_at > news.published_at
        and (r.title <> news.title or r.subtitle <> news.subtitle or r.full_content <> news.full_content)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("news").dropColumn("text_updated_at").execute();
  await db.schema.alterTable("news").dropColumn("first_published_at").execute();
}
