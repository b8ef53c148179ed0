import { randomUUID } from "node:crypto";
import { href } from "react-router";
import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { AnnouncedMatch, KeyEventView, LiveCoverageInfo, LiveUpdateView, LiveUpdatesPage } from "#app/lib/live-coverage.ts";
import {
  formatMatchMinute,
  keyEventOf,
  LIVE_EVENT_INLINE_BYTES,
  type MatchMinute,
  orderKeyEvents,
  storedScoreboard,
} from "#app/lib/live-coverage.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { articlePath } from "#app/lib/slug.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, FieldsError, NotFoundError } from "#app/.server/errors.ts";
import type { EventBus, LiveChange } from "#app/.server/events/event-bus.ts";
import type { RateLimiter } from "#app/.server/auth/rate-limiter.server.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { checkBodyMedia, loadBodyMedia } from "#app/.server/media/body-media.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { decodeListCursor, encodeListCursor } from "#app/.server/news/list-cursor.ts";
import type { LivePatch, LiveUpdateInput } from "./live-input.server.ts";
import {
  type CoverageRow,
  deleteLiveUpdate,
  findCoverageRow,
  findKeyEvents,
  findLatestUpdates,
  findLiveUpdate,
  findLiveUpdatesPage,
  findPinnedUpdates,
  findLatestUpdateTime,
  insertLiveUpdate,
  type LiveUpdateRow,
  updateCoverageRow,
  updateLiveUpdate,
} from "./live-updates.queries.server.ts";
import { type Actor, actorIdOf, requireMayCover } from "#app/.server/auth/permissions.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";
import { tagMatchTeams, teamPathsOf } from "#app/.server/news/taxonomy/teams.server.ts";

/**
 * Live coverage of a story (issue 20): its state ("AO VIVO", ended, off), the scoreboard, and the updates posted
 * minute by minute. Editors and admins cover any story; a reporter only their own (the story's owner). Each change is
 * one transaction with its event: an update (posted, edited, deleted) or a scoreboard change sends `liveUpdated` with
 * the story's article paths only (the page cache refreshes those pages and nothing else; open pages apply the change),
 * and what changed only when the story is published (readers hear nothing of an unpublished story's coverage);
 * starting, ending or turning off the coverage changes the "AO VIVO" badge on cards, so it sends `newsUpdated` with
 * the story's paths like any save of the story.
 */

/** Feeds and sitemaps whose dates follow a live story's updates. */
const LIVE_FEED_PATHS = [href("/rss.xml"), href("/rss/destaques.xml"), href("/sitemap.xml"), href("/sitemaps/:file", { file: "news.xml" })];

export interface LiveCoverageDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "name" | "publicUrl">;
  events: EventBus;
  log: Pick<Logger, "warn">;
  /** Counts each member's posts, at most `postsPerMinute` (LIVE_POSTS_PER_MINUTE); none: no limit (scripts). */
  limiter?: Pick<RateLimiter, "hit">;
  postsPerMinute?: number;
  now?: () => Date;
}

export function createLiveCoverage(deps: LiveCoverageDeps) {
  const { db, store, events } = deps;
  const nowIso = () => (deps.now?.() ?? new Date()).toISOString();

  async function storyFor(newsId: string, actor: Actor): Promise<CoverageRow> {
    const row = await findCoverageRow(db, newsId);
    if (!row) throw new NotFoundError("news_not_found", t.news.notFound);
    requireMayCover(actor, row);
    return row;
  }

  /**
   * The paths a live change refreshes: the story's article (every slug, its `.data`), its updates' API, and the feeds
   * and sitemaps that date a live story by its last change (RSS dcterms:modified, lastmod). The sitemap part listing
   * the story among all articles is left to the page cache's expiry (which part it is would cost a query per update).
   */
  const livePaths = (row: Pick<CoverageRow, "id" | "title">) => [
    href("/article/:id/:slug?", { id: row.id }),
    articlePath(row),
    href("/api/news/:id/updates", { id: row.id }),
    ...LIVE_FEED_PATHS,
  ];

  /**
   * Sends a live change with the transaction that makes it (`live`: the story's id, the update's). A story readers do
   * not see (a draft's, an in-review or a scheduled story's coverage) makes it `newsroomOnly`: the event streams
   * (server/event-streams.ts) carry it to signed-in members alone (their previews follow the coverage), and no
   * reader is told the story exists. The status is read in the transaction, as it commits.
   */
  async function sendLive(
    trx: Kysely<Database>,
    send: (event: "liveUpdated", detail: { paths: string[]; live: LiveChange; newsroomOnly?: true }) => Promise<void>,
    row: CoverageRow,
    live: LiveChange,
    update?: LiveUpdateView,
  ) {
    const current = await trx
      .selectFrom("news")
      .select(["status", "live_coverage", "live_started_at", "live_ended_at", "live_scoreboard", "live_updated_at"])
      .where("id", "=", row.id)
      .executeTakeFirst();
    // What the open pages show it with, so that ten thousand of them fetch nothing (too long: they fetch it).
    const content = update ? { update, media: await loadBodyMedia(trx, store, [update.body]) } : {};
    const inline = Buffer.byteLength(JSON.stringify(content)) <= LIVE_EVENT_INLINE_BYTES ? content : {};
    const coverage = current ? { coverage: coverageOf(current) } : {};
    return send("liveUpdated", { paths: livePaths(row), live: { ...live, ...inline, ...coverage }, ...audienceOf(current) });
  }

  return {
    /** Refuses (404, 403) before anything of a request is read: the story must exist and be the actor's to cover. */
    async authorize(newsId: string, actor: Actor): Promise<void> {
      await storyFor(newsId, actor);
    },

    /** PATCH /api/news/:id with `coverage` and/or `scoreboard`: the coverage as it is after the change. */
    async changeCoverage(newsId: string, patch: LivePatch, actor: Actor): Promise<LiveCoverageInfo | null> {
      const row = await storyFor(newsId, actor);
      const now = nowIso();
      const set: Parameters<typeof updateCoverageRow>[2] = {};
      if (patch.coverage !== undefined) {
        set.live_coverage = patch.coverage;
        if (patch.coverage === "live") {
          set.live_started_at = row.live_started_at ?? now;
          set.live_ended_at = null;
          // Started by hand before its announced kickoff: nothing left to start.
          set.live_kickoff_at = null;
        } else if (patch.coverage === "ended") {
          set.live_started_at = row.live_started_at ?? now;
          set.live_ended_at = row.live_coverage === "ended" ? row.live_ended_at : now;
        }
      }
      if (patch.scoreboard !== undefined) {
        set.live_scoreboard = patch.scoreboard ? JSON.stringify(patch.scoreboard) : null;
        set.live_updated_at = now;
      }
      if (patch.announcement !== undefined) {
        // The teams are the scoreboard's: an announced match without them would be "x" on the strip.
        const scoreboard = set.live_scoreboard === undefined ? row.live_scoreboard : set.live_scoreboard;
        if (patch.announcement && !scoreboard) {
          throw new FieldsError("announcement_needs_teams", { announcement: [t.liveNewsroom.announcementNeedsTeams] });
        }
        set.live_kickoff_at = patch.announcement?.kickoffAt ?? null;
        set.live_competition = patch.announcement?.competition ?? null;
      }
      const badgeChanged = patch.coverage !== undefined && patch.coverage !== row.live_coverage;
      // The score shows on cards too (while the coverage is on): a goal changes the home and the lists.
      const coverageAfter = set.live_coverage === undefined ? row.live_coverage : set.live_coverage;
      const scoreChanged = set.live_scoreboard !== undefined && set.live_scoreboard !== row.live_scoreboard && coverageAfter !== null;
      // An announcement shows on the strip of the home and of its section (the next matches).
      const announcementChanged =
        patch.announcement !== undefined && (set.live_kickoff_at !== row.live_kickoff_at || set.live_competition !== row.live_competition);
      await events.withCommit(db, async (trx, send) => {
        await updateCoverageRow(trx, newsId, set);
        // The clubs of the desk's list the match names tag the story (added to its own choice): its match shows on
        // their pages.
        const tagged = patch.scoreboard ? await tagMatchTeams(trx, newsId, [patch.scoreboard.home, patch.scoreboard.away]) : [];
        // The badge and the score show on cards (home, lists, the clubs' pages): the story's pages like any save of
        // it. Otherwise the article only.
        const reloads = badgeChanged || scoreChanged || announcementChanged || tagged.length > 0;
        if (reloads) {
          const current = await trx.selectFrom("news").select("status").where("id", "=", newsId).executeTakeFirst();
          const paths = [...storyPaths(row), ...livePaths(row), ...(await teamPathsOf(trx, [newsId]))];
          // Only the score changed: the story's open pages take it from `liveUpdated` below at once instead of all
          // reloading (the cards elsewhere reload as for any change).
          const scoreOnly = scoreChanged && !badgeChanged && !announcementChanged && tagged.length === 0;
          await send("newsUpdated", { paths, ...audienceOf(current), ...(scoreOnly ? { liveStory: newsId } : {}) });
        }
        if (!reloads || (set.live_scoreboard !== undefined && !badgeChanged)) await sendLive(trx, send, row, { newsId, change: "scoreboard" });
      });
      return coverageOf({ ...row, ...set });
    },

    /** The match the story announces (teams, kickoff, competition), or null: the edit page's announcement form. */
    async currentAnnouncement(newsId: string): Promise<AnnouncedMatch | null> {
      const row = await findCoverageRow(db, newsId);
      if (!row) throw new NotFoundError("news_not_found", t.news.notFound);
      const board = storedScoreboard(row.live_scoreboard);
      if (!row.live_kickoff_at || !board) return null;
      return { kickoffAt: row.live_kickoff_at, competition: row.live_competition, home: board.home, away: board.away };
    },

    /** The story's coverage as it is (the edit page's panel), or null when it has none; a missing story is a 404. */
    async currentCoverage(newsId: string): Promise<LiveCoverageInfo | null> {
      const row = await findCoverageRow(db, newsId);
      if (!row) throw new NotFoundError("news_not_found", t.news.notFound);
      return coverageOf(row);
    },

    /** POST /api/news/:id/updates: the new update. The coverage must be on (live or ended). */
    async postUpdate(newsId: string, input: LiveUpdateInput, actor: Actor): Promise<LiveUpdateView> {
      const row = await storyFor(newsId, actor);
      if (row.live_coverage === null) throw new AppError("coverage_off", t.liveNewsroom.coverageOff, 409);
      const poster = actorIdOf(actor);
      if (deps.limiter && poster) {
        const limit = await deps.limiter.hit(`live-post:${poster}`, deps.postsPerMinute ?? LIVE_LIMITS.postsPerMinute, 60);
        if (!limit.allowed) {
          throw new AppError("live_rate_limited", t.liveNewsroom.rateLimited(limit.retryAfterSeconds), 429, {
            retryAfterSeconds: limit.retryAfterSeconds,
          });
        }
      }
      await checkMedia(input.body);
      const now = nowIso();
      const update = {
        id: randomUUID(),
        news_id: newsId,
        body: JSON.stringify(input.body),
        text: input.text,
        key_event: input.keyEvent ? 1 : 0,
        pinned: input.pinned ? 1 : 0,
        ...matchColumns(input.match),
        event_type: input.eventType,
        author_id: actorIdOf(actor),
        created_at: now,
        updated_at: now,
      };
      await events.withCommit(db, async (trx, send) => {
        // Updates are read newest first by their time: two posted in the same millisecond keep the order they came in.
        const latest = await findLatestUpdateTime(trx, newsId);
        if (latest !== null && update.created_at <= latest) {
          update.created_at = new Date(Date.parse(latest) + 1).toISOString();
          update.updated_at = update.created_at;
        }
        await insertLiveUpdate(trx, update);
        await updateCoverageRow(trx, newsId, { live_updated_at: update.created_at });
        await sendLive(trx, send, row, { newsId, updateId: update.id, change: "created" }, toUpdateView(update));
      });
      return toUpdateView(update);
    },

    /** PATCH /api/news/:id/updates/:updateId: only the fields given. */
    async editUpdate(newsId: string, updateId: string, patch: Partial<LiveUpdateInput>, actor: Actor): Promise<LiveUpdateView> {
      const row = await storyFor(newsId, actor);
      const existing = await findLiveUpdate(db, newsId, updateId);
      if (!existing) throw new NotFoundError("update_not_found", t.liveNewsroom.updateNotFound);
      await checkMedia(patch.body);
      const now = nowIso();
      const set = {
        body: patch.body ? JSON.stringify(patch.body) : existing.body,
        text: patch.text ?? existing.text,
        key_event: patch.keyEvent === undefined ? existing.key_event : patch.keyEvent ? 1 : 0,
        pinned: patch.pinned === undefined ? existing.pinned : patch.pinned ? 1 : 0,
        ...(patch.match === undefined ? { minute: existing.minute, added_time: existing.added_time } : matchColumns(patch.match)),
        event_type: patch.eventType === undefined ? existing.event_type : patch.eventType,
        updated_at: now,
      };
      await events.withCommit(db, async (trx, send) => {
        await updateLiveUpdate(trx, newsId, updateId, set);
        await updateCoverageRow(trx, newsId, { live_updated_at: now });
        await sendLive(trx, send, row, { newsId, updateId, change: "edited" });
      });
      return toUpdateView({ ...existing, ...set });
    },

    /** DELETE /api/news/:id/updates/:updateId. */
    async deleteUpdate(newsId: string, updateId: string, actor: Actor): Promise<void> {
      const row = await storyFor(newsId, actor);
      const now = nowIso();
      await events.withCommit(db, async (trx, send) => {
        if (!(await deleteLiveUpdate(trx, newsId, updateId))) throw new NotFoundError("update_not_found", t.liveNewsroom.updateNotFound);
        await updateCoverageRow(trx, newsId, { live_updated_at: now });
        await sendLive(trx, send, row, { newsId, updateId, change: "deleted" });
      });
    },

    /**
     * A page of the story's updates, newest first (`cursor`: older than that one). A story readers do not see (a
     * draft, a scheduled one) is a 404 unless `includeUnpublished` (the newsroom). `null` for the article page when
     * the story has no coverage (`onlyWhenCovered`).
     */
    async loadPage(
      newsId: string,
      options: { cursor?: string | null; includeUnpublished?: boolean; onlyWhenCovered?: boolean } = {},
    ): Promise<LiveUpdatesPage | null> {
      const row = await findCoverageRow(db, newsId);
      if (!row || (row.status !== "published" && !options.includeUnpublished)) throw new NotFoundError("news_not_found", t.news.notFound);
      if (options.onlyWhenCovered && row.live_coverage === null) return null;
      const cursor = options.cursor ? decodeListCursor(options.cursor) : null;
      const first = cursor === null;
      const [rows, pinnedRows, keyRows] = await Promise.all([
        findLiveUpdatesPage(db, newsId, cursor, LIVE_LIMITS.pageSize),
        first ? findPinnedUpdates(db, newsId, LIVE_LIMITS.pinned) : [],
        first ? findKeyEvents(db, newsId, LIVE_LIMITS.keyEvents) : [],
      ]);
      const more = rows.length > LIVE_LIMITS.pageSize;
      const shown = rows.slice(0, LIVE_LIMITS.pageSize);
      const updates = shown.map(toUpdateView);
      const pinned = pinnedRows.map(toUpdateView);
      const last = shown.at(-1);
      return {
        coverage: coverageOf(row),
        pinned,
        keyEvents: orderKeyEvents(keyRows.map((key) => ({ ...key, createdAt: key.created_at, match: matchOf(key) }))).map(
          (key): KeyEventView =>
            keyEventOf({
              id: key.id,
              createdAt: key.created_at,
              text: key.text,
              minute: key.match ? formatMatchMinute(key.match) : null,
              eventType: key.event_type,
            }),
        ),
        updates,
        nextCursor: more && last ? encodeListCursor({ publishedAt: last.created_at, id: last.id }) : null,
        media: await loadBodyMedia(
          db,
          store,
          [...pinned, ...updates].map((update) => update.body),
        ),
      };
    },

    /**
     * The article page's coverage: the page of updates at `cursor` (a cursor this site did not make shows the newest),
     * or null when the story has no coverage.
     */
    async forArticle(newsId: string, cursor: string | null, includeUnpublished: boolean): Promise<LiveUpdatesPage | null> {
      try {
        return await this.loadPage(newsId, { cursor, includeUnpublished, onlyWhenCovered: true });
      } catch (error) {
        if (error instanceof AppError && error.code === "invalid_cursor") return this.loadPage(newsId, { includeUnpublished, onlyWhenCovered: true });
        throw error;
      }
    },

    /** One update (GET /api/news/:id/updates/:updateId), under the same visibility as the page. */
    async getUpdate(newsId: string, updateId: string, options: { includeUnpublished?: boolean } = {}) {
      const row = await findCoverageRow(db, newsId);
      if (!row || (row.status !== "published" && !options.includeUnpublished)) throw new NotFoundError("news_not_found", t.news.notFound);
      const update = await findLiveUpdate(db, newsId, updateId);
      if (!update) throw new NotFoundError("update_not_found", t.liveNewsroom.updateNotFound);
      const view = toUpdateView(update);
      return { update: view, media: await loadBodyMedia(db, store, [view.body]) };
    },

    /** The newest updates, pinned or not (JSON-LD's `liveBlogUpdate`). */
    async latestUpdates(newsId: string, limit: number = LIVE_LIMITS.jsonLdUpdates): Promise<LiveUpdateView[]> {
      return (await findLatestUpdates(db, newsId, limit)).map(toUpdateView);
    },
  };

  async function checkMedia(body: RichDoc | undefined) {
    try {
      await checkBodyMedia(db, store, body);
    } catch (error) {
      // The body's check names the field `body`; an update's content is its `text`.
      if (error instanceof FieldsError) throw new FieldsError(error.code, { text: Object.values(error.fields).flat() });
      throw error;
    }
  }
}

export type LiveCoverage = ReturnType<typeof createLiveCoverage>;

export function coverageOf(
  row: Pick<CoverageRow, "live_coverage" | "live_started_at" | "live_ended_at" | "live_scoreboard"> & Partial<Pick<CoverageRow, "live_updated_at">>,
): LiveCoverageInfo | null {
  if (row.live_coverage === null) return null;
  return {
    state: row.live_coverage,
    startedAt: row.live_started_at,
    updatedAt: row.live_updated_at ?? null,
    endedAt: row.live_coverage === "ended" ? row.live_ended_at : null,
    scoreboard: storedScoreboard(row.live_scoreboard),
  };
}

/** The row's columns of a match minute (both null for none). */
function matchColumns(match: MatchMinute | null): { minute: number | null; added_time: number | null } {
  return { minute: match?.minute ?? null, added_time: match?.added ?? null };
}

/** The match minute of a row, or null. */
function matchOf(row: Pick<LiveUpdateRow, "minute" | "added_time">): MatchMinute | null {
  return row.minute === null ? null : { minute: Number(row.minute), added: row.added_time === null ? null : Number(row.added_time) };
}

function toUpdateView(row: LiveUpdateRow): LiveUpdateView {
  const match = matchOf(row);
  return {
    id: row.id,
    body: JSON.parse(row.body) as RichDoc,
    text: row.text,
    keyEvent: row.key_event === 1,
    pinned: row.pinned === 1,
    minute: match ? formatMatchMinute(match) : null,
    eventType: row.event_type,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
