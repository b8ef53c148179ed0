import type { Kysely } from "kysely";
import { lastReaderChange } from "#app/lib/article-dates.ts";
import type { Database } from "#app/.server/db/schema.ts";

/** Which stories a feed carries: all, the highlights, one category's or one club's. */
export interface FeedFilter {
  highlightedOnly?: boolean;
  categorySlug?: string;
  teamSlug?: string;
}

/** The newest `limit` news with their full text and original media file: what a feed item carries. */
export function findNewsForFeed(db: Kysely<Database>, { limit, highlightedOnly, categorySlug, teamSlug }: { limit: number } & FeedFilter) {
  let query = db
    .selectFrom("news")
    .leftJoin("media", "media.id", "news.media_id")
    .select([
      "news.id",
      "news.title",
      "news.subtitle",
      "news.full_content",
      "news.body",
      "news.category",
      "news.author",
      "news.created_at",
      "news.published_at",
      "news.text_updated_at",
      "news.live_updated_at",
      "media.store as media_store",
      "media.key as media_key",
      "media.mime_type as media_mime_type",
      "media.size_bytes as media_size_bytes",
    ]);
  query = query.where("news.status", "=", "published");
  if (highlightedOnly) query = query.where("news.is_highlighted", "=", 1);
  if (categorySlug) query = query.where("news.category_slug", "=", categorySlug);
  if (teamSlug) {
    query = query.where("news.id", "in", db.selectFrom("news_teams").select("news_teams.news_id").where("news_teams.team_slug", "=", teamSlug));
  }
  return query.orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

export type FeedNewsRow = Awaited<ReturnType<typeof findNewsForFeed>>[number];

export function countNews(db: Kysely<Database>): Promise<number> {
  return db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("status", "=", "published")
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

/**
 * The (published_at, id) of the published news item at `offset` in the sitemap's order (oldest first): where a sitemap part
 * starts. Read from the index alone.
 */
export function findSitemapBoundary(db: Kysely<Database>, offset: number) {
  return db
    .selectFrom("news")
    .select(["published_at", "id"])
    .where("status", "=", "published")
    .orderBy("published_at", "asc")
    .orderBy("id", "asc")
    .limit(1)
    .offset(offset)
    .executeTakeFirst();
}

/** Up to `limit` published news from `from` on (inclusive), oldest first: a batch of a sitemap part. */
export function findSitemapBatch(db: Kysely<Database>, from: { publishedAt: string; id: string }, inclusive: boolean, limit: number) {
  return db
    .selectFrom("news")
    .select(["id", "title", "published_at", "text_updated_at", "live_updated_at"])
    .where("status", "=", "published")
    .where((eb) => eb(eb.refTuple("published_at", "id"), inclusive ? ">=" : ">", eb.tuple(from.publishedAt, from.id)))
    .orderBy("published_at", "asc")
    .orderBy("id", "asc")
    .limit(limit)
    .execute();
}

/** News published at or after `since`, newest first, at most `limit` (Google News reads up to 1 000). */
export function findNewsSince(db: Kysely<Database>, since: string, limit: number) {
  return db
    .selectFrom("news")
    .select(["id", "title", "published_at", "text_updated_at", "live_updated_at"])
    .where("status", "=", "published")
    .where("published_at", ">=", since)
    .orderBy("published_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** A story's last change for feeds and sitemaps: what readers read last changed (lastReaderChange). */
export function lastChangeOf(row: { published_at: string; text_updated_at: string | null; live_updated_at: string | null }): string {
  return lastReaderChange({ publishedAt: row.published_at, textUpdatedAt: row.text_updated_at, liveUpdatedAt: row.live_updated_at });
}
