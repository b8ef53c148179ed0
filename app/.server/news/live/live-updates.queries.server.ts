import type { Insertable, Kysely, Updateable } from "kysely";
import type { Database, NewsLiveUpdatesTable, NewsTable } from "#app/.server/db/schema.ts";
import type { ListCursor } from "#app/.server/news/news.queries.server.ts";

/** A live story's row as the coverage needs it: who may change it, whether readers see it, where it is shown. */
export function findCoverageRow(db: Kysely<Database>, newsId: string) {
  return (
    db
      .selectFrom("news")
      .select([
        "id",
        "title",
        "status",
        "owner_id",
        "category_slug",
        "author_slug",
        "live_coverage",
        "live_started_at",
        "live_ended_at",
        "live_scoreboard",
        "live_updated_at",
        "live_kickoff_at",
        "live_competition",
      ])
      .where("id", "=", newsId)
      // In the Lixeira: no coverage to read or post to until it is restored.
      .where("deleted_at", "is", null)
      .executeTakeFirst()
  );
}

export type CoverageRow = NonNullable<Awaited<ReturnType<typeof findCoverageRow>>>;

export function updateCoverageRow(
  db: Kysely<Database>,
  newsId: string,
  set: Pick<
    Updateable<NewsTable>,
    "live_coverage" | "live_started_at" | "live_ended_at" | "live_scoreboard" | "live_updated_at" | "live_kickoff_at" | "live_competition"
  >,
) {
  return db.updateTable("news").set(set).where("id", "=", newsId).executeTakeFirst();
}

/** When the story's newest update was posted (ISO text), or null before the first. */
export async function findLatestUpdateTime(db: Kysely<Database>, newsId: string): Promise<string | null> {
  const row = await db
    .selectFrom("news_live_updates")
    .select("created_at")
    .where("news_id", "=", newsId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

export function insertLiveUpdate(db: Kysely<Database>, row: Insertable<NewsLiveUpdatesTable>) {
  return db.insertInto("news_live_updates").values(row).execute();
}

export function findLiveUpdate(db: Kysely<Database>, newsId: string, updateId: string) {
  return db.selectFrom("news_live_updates").selectAll().where("news_id", "=", newsId).where("id", "=", updateId).executeTakeFirst();
}

export type LiveUpdateRow = NonNullable<Awaited<ReturnType<typeof findLiveUpdate>>>;

export function updateLiveUpdate(
  db: Kysely<Database>,
  newsId: string,
  updateId: string,
  set: Pick<Updateable<NewsLiveUpdatesTable>, "body" | "text" | "key_event" | "pinned" | "minute" | "added_time" | "event_type" | "updated_at">,
) {
  return db.updateTable("news_live_updates").set(set).where("news_id", "=", newsId).where("id", "=", updateId).executeTakeFirst();
}

export async function deleteLiveUpdate(db: Kysely<Database>, newsId: string, updateId: string): Promise<boolean> {
  const result = await db.deleteFrom("news_live_updates").where("news_id", "=", newsId).where("id", "=", updateId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * One page of a story's updates that are not pinned, newest first (ties broken by id), after `cursor` (older than
 * it): keyset paging on (created_at, id), served by the (news_id, created_at, id) index. One row more than `limit`
 * says whether there is a next page.
 */
export function findLiveUpdatesPage(db: Kysely<Database>, newsId: string, cursor: ListCursor | null, limit: number) {
  let query = db.selectFrom("news_live_updates").selectAll().where("news_id", "=", newsId).where("pinned", "=", 0);
  if (cursor) query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(cursor.publishedAt, cursor.id)));
  return query
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
}

/** The pinned updates, newest first. */
export function findPinnedUpdates(db: Kysely<Database>, newsId: string, limit: number) {
  return db
    .selectFrom("news_live_updates")
    .selectAll()
    .where("news_id", "=", newsId)
    .where("pinned", "=", 1)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * The key events (the "Lances importantes" summary): the updates with an event type or marked as a key event, the
 * newest `limit` posted (the service orders them by the match minute: orderKeyEvents).
 */
export function findKeyEvents(db: Kysely<Database>, newsId: string, limit: number) {
  return db
    .selectFrom("news_live_updates")
    .select(["id", "text", "created_at", "minute", "added_time", "event_type"])
    .where("news_id", "=", newsId)
    .where((eb) => eb.or([eb("key_event", "=", 1), eb("event_type", "is not", null)]))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** The newest updates, pinned or not (JSON-LD's `liveBlogUpdate`). */
export function findLatestUpdates(db: Kysely<Database>, newsId: string, limit: number) {
  return db
    .selectFrom("news_live_updates")
    .selectAll()
    .where("news_id", "=", newsId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
