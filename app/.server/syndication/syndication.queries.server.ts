import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The newest `limit` news with their full text and original media file: what a feed item carries. */
export function findNewsForFeed(db: Kysely<Database>, { limit, highlightedOnly }: { limit: number; highlightedOnly: boolean }) {
  let query = db
    .selectFrom("news")
    .leftJoin("media", "media.id", "news.media_id")
    .select([
      "news.id",
      "news.title",
      "news.subtitle",
      "news.full_content",
      "news.category",
      "news.author",
      "news.created_at",
      "news.updated_at",
      "media.store as media_store",
      "media.key as media_key",
      "media.mime_type as media_mime_type",
      "media.size_bytes as media_size_bytes",
    ]);
  if (highlightedOnly) query = query.where("news.is_highlighted", "=", 1);
  return query.orderBy("news.created_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

export type FeedNewsRow = Awaited<ReturnType<typeof findNewsForFeed>>[number];

export function countNews(db: Kysely<Database>): Promise<number> {
  return db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

/**
 * The (created_at, id) of the news item at `offset` in the sitemap's order (oldest first): where a sitemap part
 * starts. Read from the index alone.
 */
export function findSitemapBoundary(db: Kysely<Database>, offset: number) {
  return db
    .selectFrom("news")
    .select(["created_at", "id"])
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(1)
    .offset(offset)
    .executeTakeFirst();
}

/** Up to `limit` news from `from` on (inclusive), oldest first: a batch of a sitemap part. */
export function findSitemapBatch(db: Kysely<Database>, from: { createdAt: string; id: string }, inclusive: boolean, limit: number) {
  return db
    .selectFrom("news")
    .select(["id", "title", "created_at", "updated_at"])
    .where((eb) => eb(eb.refTuple("created_at", "id"), inclusive ? ">=" : ">", eb.tuple(from.createdAt, from.id)))
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(limit)
    .execute();
}

/** News created at or after `since`, newest first, at most `limit` (Google News reads up to 1 000). */
export function findNewsSince(db: Kysely<Database>, since: string, limit: number) {
  return db
    .selectFrom("news")
    .select(["id", "title", "created_at"])
    .where("created_at", ">=", since)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
