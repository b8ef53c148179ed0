import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import { FRONT_PAGE_HOLDS, type FrontPageHold } from "#app/lib/front-page.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { HOME_RECENT_COUNT } from "#app/.server/news/news.service.server.ts";

/**
 * The top of the home as editors arrange it (/capa, migration 2026-11-29-001): a story placed at a position (1: the
 * manchete) for a while (FRONT_PAGE_HOLDS) or until changed. The home reads the picks (findFrontPage in
 * news.service.server.ts); each change reaches readers like a story's (`newsUpdated`: memos, page cache, CDN).
 */
export interface FrontPageDeps {
  db: Kysely<Database>;
  events: Pick<EventBus, "withCommit">;
  log: Pick<Logger, "info">;
}

/** A position as the editors' page shows it: its story and until when the choice holds (null: until changed). */
export interface FrontPagePick {
  position: number;
  newsId: string;
  title: string;
  until: string | null;
}

/** A story an editor may place: published, newest first (those under live coverage marked). */
export interface FrontPageCandidate {
  id: string;
  title: string;
  live: boolean;
}

const CANDIDATES = 40;
/** What a change to the top shows on: the home alone (its page is dropped at once from the page cache and the CDN). */
const HOME_PATHS = ["/"];

export function isFrontPagePosition(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= HOME_RECENT_COUNT;
}

/**
 * Places a published story at `position` for `hold` (replacing whoever was there; a story already elsewhere on top
 * moves). 400 for a position or a hold outside the lists, 404 for a story that is not published.
 */
export async function pickForFrontPage(
  { db, events, log }: FrontPageDeps,
  input: { newsId: string; position: number; hold: string },
  actorId: string | null,
  now = new Date(),
): Promise<void> {
  if (!isFrontPagePosition(input.position)) throw new AppError("front_page_position", t.frontPage.invalidPosition, 400);
  if (!Object.hasOwn(FRONT_PAGE_HOLDS, input.hold)) throw new AppError("front_page_hold", t.frontPage.invalidHold, 400);
  const hours = FRONT_PAGE_HOLDS[input.hold as FrontPageHold];
  const until = hours === null ? null : new Date(now.getTime() + hours * 3_600_000).toISOString();
  await events.withCommit(db, async (trx, send) => {
    const story = await trx
      .selectFrom("news")
      .select("id")
      .where("id", "=", input.newsId)
      .where("status", "=", "published")
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!story) throw new NotFoundError("news_not_found", t.frontPage.notPublished);
    await trx
      .deleteFrom("front_page_picks")
      .where((eb) => eb.or([eb("position", "=", input.position), eb("news_id", "=", input.newsId)]))
      .execute();
    await trx
      .insertInto("front_page_picks")
      .values({ position: input.position, news_id: input.newsId, until, picked_at: now.toISOString(), picked_by: actorId })
      .execute();
    await send("newsUpdated", { paths: HOME_PATHS });
  });
  log.info({ actor: actorId, newsId: input.newsId, position: input.position, until }, "front page arranged");
}

/** Gives `position` back to the default order (nothing there: nothing changes). */
export async function releaseFrontPage({ db, events, log }: FrontPageDeps, position: number, actorId: string | null): Promise<void> {
  if (!isFrontPagePosition(position)) throw new AppError("front_page_position", t.frontPage.invalidPosition, 400);
  await events.withCommit(db, async (trx, send) => {
    const removed = await trx.deleteFrom("front_page_picks").where("position", "=", position).executeTakeFirst();
    if (Number(removed.numDeletedRows) > 0) await send("newsUpdated", { paths: HOME_PATHS });
  });
  log.info({ actor: actorId, position }, "front page position released");
}

/** The picks that hold at `now`, by position (a story no longer published is not one), and the stories to choose from. */
export async function frontPageChoices(
  db: Kysely<Database>,
  now = new Date(),
): Promise<{ picks: FrontPagePick[]; candidates: FrontPageCandidate[] }> {
  const [picks, candidates] = await Promise.all([
    db
      .selectFrom("front_page_picks")
      .innerJoin("news", "news.id", "front_page_picks.news_id")
      .select(["front_page_picks.position", "front_page_picks.news_id", "front_page_picks.until", "news.title"])
      .where("news.status", "=", "published")
      .where((eb) => eb.or([eb("front_page_picks.until", "is", null), eb("front_page_picks.until", ">", now.toISOString())]))
      .orderBy("front_page_picks.position")
      .execute(),
    db
      .selectFrom("news")
      .select(["id", "title", "live_coverage"])
      .where("status", "=", "published")
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .limit(CANDIDATES)
      .execute(),
  ]);
  return {
    picks: picks.map((row) => ({ position: row.position, newsId: row.news_id, title: row.title, until: row.until })),
    candidates: candidates.map((row) => ({ id: row.id, title: row.title, live: row.live_coverage === "live" })),
  };
}
