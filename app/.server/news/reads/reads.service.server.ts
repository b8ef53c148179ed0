import { type Kysely, sql } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";

/** How many news the "Mais lidas" block lists. */
export const MOST_READ_COUNT = 5;
/** The block's window, in hours: the current hour and the 23 before it. */
export const MOST_READ_HOURS = 24;
/** The admin list's window, in hours: the current hour and the 167 before it (7 days). */
export const WEEK_HOURS = 7 * 24;

const HOUR_MS = 3_600_000;
/** Reads are added up in memory and written at most this often: one upsert per (news, hour) per flush. */
const FLUSH_MS = 2_000;
/** The block's list is computed at most this often (and again after any change to the news). */
const MOST_READ_TTL_MS = 60_000;
/** Distinct (news, hour) pairs waiting to be written; beyond it reads are dropped until the next flush. */
const MAX_PENDING = 10_000;

/** The ISO-8601 UTC start of the hour `ms` falls in: `2026-11-25T14:00:00.000Z`. */
export function hourOf(ms: number): string {
  return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();
}

/** The first hour of a window of `hours` hours ending with the current one. */
export function windowStart(now: number, hours: number): string {
  return hourOf(now - (hours - 1) * HOUR_MS);
}

/** One line of the "Mais lidas" block. */
export interface MostReadItem {
  id: string;
  title: string;
  reads: number;
}

export interface ReadCounterDeps {
  db: Kysely<Database>;
  log: Pick<Logger, "warn" | "error">;
  now?: () => number;
  flushMs?: number;
  mostReadTtlMs?: number;
}

/**
 * Read counts per news item and hour (docs/decisions/006-read-counts.md). `record` only adds to a map in memory;
 * a timer writes the map every couple of seconds as one upsert per (news, hour), so a burst of readers costs the
 * database a handful of writes, not one per read. A read of a news item that no longer exists is dropped when
 * written (the insert selects from `news`). `mostRead` is computed once a minute at most, shared by every page
 * render, and recomputed after any change to the news (`invalidate`, on the event bus).
 */
export function createReadCounter({ db, log, now = Date.now, flushMs = FLUSH_MS, mostReadTtlMs = MOST_READ_TTL_MS }: ReadCounterDeps) {
  let pending = new Map<string, { newsId: string; hour: string; reads: number }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let droppedLogged = false;
  let top: { at: number; generation: number; items: Promise<MostReadItem[]> } | null = null;
  let generation = 0;

  function schedule() {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void counter.flush();
    }, flushMs);
    timer.unref?.();
  }

  async function write(batch: Map<string, { newsId: string; hour: string; reads: number }>) {
    await db.transaction().execute(async (trx) => {
      for (const { newsId, hour, reads } of batch.values()) {
        await trx
          .insertInto("news_reads")
          .columns(["news_id", "hour", "reads"])
          .expression((eb) =>
            // Typed casts: PostgreSQL does not infer a parameter's type from the insert's columns.
            eb
              .selectFrom("news")
              .select(["news.id", sql<string>`cast(${hour} as text)`.as("hour"), sql<number>`cast(${reads} as integer)`.as("reads")])
              .where("news.id", "=", newsId)
              // Readers only ever see published news: a beacon for anything else counts nothing.
              .where("news.status", "=", "published"),
          )
          .onConflict((oc) => oc.columns(["news_id", "hour"]).doUpdateSet({ reads: sql<number>`news_reads.reads + excluded.reads` }))
          .execute();
      }
    });
  }

  async function queryTop(limit: number): Promise<MostReadItem[]> {
    const rows = await db
      .selectFrom("news_reads")
      .innerJoin("news", "news.id", "news_reads.news_id")
      .select((eb) => ["news.id", "news.title", eb.fn.sum<number | string>("news_reads.reads").as("reads")])
      .where("news_reads.hour", ">=", windowStart(now(), MOST_READ_HOURS))
      // A published item moved back to draft leaves the block at once.
      .where("news.status", "=", "published")
      .groupBy(["news.id", "news.title", "news.published_at"])
      .orderBy(sql`sum(news_reads.reads) desc`)
      .orderBy("news.published_at", "desc")
      .orderBy("news.id", "desc")
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, title: row.title, reads: Number(row.reads) }));
  }

  const counter = {
    /** Counts one read of `newsId` in the current hour (written on the next flush). */
    record(newsId: string): void {
      const hour = hourOf(now());
      const key = `${hour} ${newsId}`;
      const entry = pending.get(key);
      if (entry) entry.reads++;
      else if (pending.size < MAX_PENDING) pending.set(key, { newsId, hour, reads: 1 });
      else {
        if (!droppedLogged) log.warn({ pending: pending.size }, "read counts: too many pending, reads dropped until the next write");
        droppedLogged = true;
        return;
      }
      schedule();
    },

    /** Writes the reads counted so far. A failed write keeps them for the next try. */
    flush(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      flushing = flushing.then(async () => {
        if (pending.size === 0) return;
        const batch = pending;
        pending = new Map();
        droppedLogged = false;
        try {
          await write(batch);
        } catch (error) {
          log.error({ err: error, pairs: batch.size }, "read counts: write failed, kept for the next try");
          for (const [key, entry] of batch) {
            const newer = pending.get(key);
            if (newer) newer.reads += entry.reads;
            else if (pending.size < MAX_PENDING) pending.set(key, entry);
          }
          schedule();
        }
      });
      return flushing;
    },

    /**
     * The most-read news of the last 24 hours, most reads first (ties: newest first), without `excludeId`; empty
     * when nothing was read. Served from memory for up to a minute.
     */
    async mostRead({ excludeId, limit = MOST_READ_COUNT }: { excludeId?: string; limit?: number } = {}): Promise<MostReadItem[]> {
      if (!top || top.generation !== generation || now() - top.at >= mostReadTtlMs) {
        const items = queryTop(MOST_READ_COUNT + 1);
        top = { at: now(), generation, items };
        // A failed query is not kept: the next render tries again.
        items.catch(() => {
          if (top?.items === items) top = null;
        });
      }
      const items = await top.items;
      return items.filter((item) => item.id !== excludeId).slice(0, limit);
    },

    /** Reads of the last 7 days (the current hour and the 167 before it) of each of `ids`; absent means none. */
    async readsLastWeek(ids: readonly string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom("news_reads")
        .select((eb) => ["news_id", eb.fn.sum<number | string>("reads").as("reads")])
        .where("hour", ">=", windowStart(now(), WEEK_HOURS))
        .where("news_id", "in", ids)
        .groupBy("news_id")
        .execute();
      return new Map(rows.map((row) => [row.news_id, Number(row.reads)]));
    },

    /** The news changed (an item deleted, retitled…): the next `mostRead` asks the database again. */
    invalidate(): void {
      generation++;
    },

    /** Writes what is pending (shutdown). */
    async close(): Promise<void> {
      await counter.flush();
    },
  };
  return counter;
}

export type ReadCounter = ReturnType<typeof createReadCounter>;
