import type { Kysely } from "kysely";
import type { Database, NewNewsRow } from "../db/schema.ts";

/** The media columns every listing joins (aliased as JoinedMediaColumns expects). */
export const JOINED_MEDIA_COLUMNS = [
  "media.kind as media_kind",
  "media.key as media_key",
  "media.mime_type as media_mime_type",
  "media.width as media_width",
  "media.height as media_height",
  "media.variants as media_variants",
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
      "news.is_highlighted",
      "news.created_at",
      "news.updated_at",
      ...JOINED_MEDIA_COLUMNS,
    ]);
}

export type NewsWithMediaRow = Awaited<ReturnType<typeof findAllNews>>[number];

/** All news, newest first (ties broken by id so the order is stable). */
export function findAllNews(db: Kysely<Database>) {
  return selectNewsWithMedia(db).orderBy("news.created_at", "desc").orderBy("news.id", "desc").execute();
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

export function findNewsById(db: Kysely<Database>, id: string) {
  return selectNewsWithMedia(db).select("news.full_content").where("news.id", "=", id).executeTakeFirst();
}

export function insertNews(db: Kysely<Database>, row: NewNewsRow) {
  return db.insertInto("news").values(row).execute();
}
