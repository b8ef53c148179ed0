import type { Kysely } from "kysely";
import type { Database, NewNewsRow } from "../db/schema.ts";

/** The media columns every listing joins (aliased as JoinedMediaColumns expects). */
export const JOINED_MEDIA_COLUMNS = [
  "media.store as media_store",
  "media.kind as media_kind",
  "media.key as media_key",
  "media.mime_type as media_mime_type",
  "media.width as media_width",
  "media.height as media_height",
  "media.variants as media_variants",
  "media.description as media_description",
  "media.caption as media_caption",
  "media.credit as media_credit",
] as const;

function selectNewsWithMedia(db: Kysely<Database>) {
  return db
    .selectFrom("news")
    .leftJoin("media", "media.id", "news.media_id")
    .select([
      "news.id",
      "news.title",
      "news.subtitle",
      "news.category",
      "news.author",
      "news.category_slug",
      "news.author_slug",
      "news.is_highlighted",
      "news.created_at",
      "news.updated_at",
      ...JOINED_MEDIA_COLUMNS,
    ]);
}

export type NewsWithMediaRow = Awaited<ReturnType<typeof findRecentNews>>[number];

/** Where a page of the list starts: just after (older than) this item. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** Only the news of one category or one author (by slug). */
export interface ListFilter {
  categorySlug?: string | null;
  authorSlug?: string | null;
}

/**
 * One page of the list, newest first (ties broken by id so the order is stable), optionally only the highlighted
 * news, or only one category's or author's. Keyset paging on (created_at, id): a page costs the same whether it is the
 * first or the thousandth, served by the (created_at, id), (is_highlighted, created_at, id), (category_slug,
 * created_at, id) and (author_slug, created_at, id) indexes on both databases.
 */
export function findNewsPage(
  db: Kysely<Database>,
  { after, highlightedOnly, limit, categorySlug, authorSlug }: { after: ListCursor | null; highlightedOnly: boolean; limit: number } & ListFilter,
) {
  let query = selectNewsWithMedia(db);
  if (highlightedOnly) query = query.where("news.is_highlighted", "=", 1);
  if (categorySlug) query = query.where("news.category_slug", "=", categorySlug);
  if (authorSlug) query = query.where("news.author_slug", "=", authorSlug);
  if (after) {
    // A row-value comparison: both databases turn it into a range on the index, so no row before the cursor is read.
    query = query.where((eb) => eb(eb.refTuple("news.created_at", "news.id"), "<", eb.tuple(after.createdAt, after.id)));
  }
  return query.orderBy("news.created_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

/** The newest `limit` news. */
export function findRecentNews(db: Kysely<Database>, limit: number) {
  return selectNewsWithMedia(db)
    .orderBy("news.created_at", "desc")
    .orderBy("news.id", "desc")
    .limit(limit)
    .execute();
}

/**
 * Highlighted news first (newest first), then the other news in list order: exactly the home's rule
 * "up to N highlights, filled with other news not already chosen", in one query.
 */
export function findHighlightsFilled(db: Kysely<Database>, limit: number) {
  return selectNewsWithMedia(db)
    .orderBy("news.is_highlighted", "desc")
    .orderBy("news.created_at", "desc")
    .orderBy("news.id", "desc")
    .limit(limit)
    .execute();
}

/** The news with these ids, with their media and full text, in no particular order. */
export function findNewsWithTextByIds(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectNewsWithMedia(db).select("news.full_content").where("news.id", "in", ids).execute();
}

export function findNewsById(db: Kysely<Database>, id: string) {
  return selectNewsWithMedia(db).select("news.full_content").where("news.id", "=", id).executeTakeFirst();
}

export function insertNews(db: Kysely<Database>, row: NewNewsRow) {
  return db.insertInto("news").values(row).execute();
}
