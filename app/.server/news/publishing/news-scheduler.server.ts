import { href } from "react-router";
import type { Kysely } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { storyPaths } from "#app/.server/news/story-paths.server.ts";

export interface NewsSchedulerDeps {
  db: Kysely<Database>;
  events: Pick<EventBus, "publish" | "subscribe">;
  log: Pick<Logger, "info" | "error">;
  clock?: () => Date;
  /** The longest a timer waits before looking again (a schedule set on another instance whose event was lost). */
  maxWaitMs?: number;
}

export interface NewsScheduler {
  /** Publishes every scheduled item that is due now; returns their ids. */
  publishDue(): Promise<string[]>;
  /** Turns live the coverage of every announced match whose kickoff has come (published stories); returns their ids. */
  startDueMatches(): Promise<string[]>;
  /** Resolves once what the scheduler started by itself (a look, the timer being set after it) is done (tests). */
  idle(): Promise<void>;
  stop(): void;
}

/** setTimeout's own limit (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Puts scheduled news live at their time, in the server process, whoever is reading: a timer set for the next
 * scheduled item (re-armed on every news event, from this instance or, over the event bus, any other), and a
 * look at least every `maxWaitMs`. Several instances may fire together: the database decides who publishes each
 * item (`UPDATE … WHERE status = 'scheduled' AND published_at <= now RETURNING id` changes a row once), and only the
 * instance that changed rows sends `newsUpdated`, which every instance's page cache and open page acts on.
 */
export function startNewsScheduler({ db, events, log, clock = () => new Date(), maxWaitMs = 60_000 }: NewsSchedulerDeps): NewsScheduler {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let arming: Promise<void> | null = null;
  let rearm = false;
  /** The look under way (publications, then matches), started by the timer or at start. */
  let looking: Promise<void> | null = null;

  async function publishDue(): Promise<string[]> {
    const now = clock().toISOString();
    const rows = await db
      .updateTable("news")
      // Saved by no one (the history says the story went live at this time, not that the person who scheduled it published it again).
      // A story that had gone out before takes back its first publication date (its place in lists); one going out
      // for the first time keeps its planned time, which becomes its first publication.
      .set((eb) => ({
        status: "published",
        published_at: eb.fn.coalesce("first_published_at", "published_at"),
        first_published_at: eb.fn.coalesce("first_published_at", "published_at"),
        updated_at: now,
        updated_by: null,
        version: eb("version", "+", 1),
      }))
      .where("status", "=", "scheduled")
      .where("published_at", "<=", now)
      .returning("id")
      .execute();
    const ids = rows.map((row) => row.id);
    if (ids.length) {
      log.info({ ids }, "scheduled news published");
      // Their article pages stop being served at once (a NOTIFY carries at most 8000 bytes: a large batch just makes every page stale).
      await events.publish("newsUpdated", ids.length <= 50 ? { paths: storyPaths(...ids.map((id) => ({ id }))) } : {});
    }
    return ids;
  }

  async function startDueMatches(): Promise<string[]> {
    const now = clock().toISOString();
    // The database decides who starts each match, as for publications: the row changes once.
    const rows = await db
      .updateTable("news")
      .set((eb) => ({
        live_coverage: "live",
        live_started_at: eb.ref("live_kickoff_at"),
        live_ended_at: null,
        live_kickoff_at: null,
        live_updated_at: now,
      }))
      .where("live_kickoff_at", "<=", now)
      .where("live_coverage", "is", null)
      .where("status", "=", "published")
      .returning("id")
      .execute();
    const ids = rows.map((row) => row.id);
    if (ids.length) {
      log.info({ ids }, "announced matches started");
      // Their cards, the strips and their articles change ("AO VIVO"), and their updates' API starts answering.
      await events.publish(
        "newsUpdated",
        ids.length <= 50 ? { paths: [...storyPaths(...ids.map((id) => ({ id }))), ...ids.map((id) => href("/api/news/:id/updates", { id }))] } : {},
      );
    }
    return ids;
  }

  /** The next instant something is due: a scheduled publication or the kickoff of an announced, published match. */
  async function nextDue(): Promise<string | null> {
    const [publication, kickoff] = await Promise.all([
      db.selectFrom("news").select("published_at as at").where("status", "=", "scheduled").orderBy("published_at", "asc").limit(1).executeTakeFirst(),
      db
        .selectFrom("news")
        .select("live_kickoff_at as at")
        .where("live_kickoff_at", "is not", null)
        .where("live_coverage", "is", null)
        .where("status", "=", "published")
        .orderBy("live_kickoff_at", "asc")
        .limit(1)
        .executeTakeFirst(),
    ]);
    const times = [publication?.at, kickoff?.at].filter((at): at is string => typeof at === "string");
    return times.sort()[0] ?? null;
  }

  /** Sets the timer for the next scheduled item (or the periodic look). One at a time; a call meanwhile re-runs it. */
  function arm(): void {
    if (stopped) return;
    if (arming) {
      rearm = true;
      return;
    }
    arming = (async () => {
      try {
        const next = await nextDue();
        if (stopped) return;
        clearTimeout(timer);
        const wait = next ? Math.max(0, new Date(next).getTime() - clock().getTime()) : maxWaitMs;
        timer = setTimeout(fire, Math.min(wait, maxWaitMs, MAX_TIMEOUT_MS));
        timer.unref();
      } catch (error) {
        log.error({ err: error }, "news scheduler could not read the next schedule");
        if (!stopped) {
          clearTimeout(timer);
          timer = setTimeout(fire, Math.min(maxWaitMs, 5_000));
          timer.unref();
        }
      } finally {
        arming = null;
        if (rearm) {
          rearm = false;
          arm();
        }
      }
    })();
  }

  function fire(): void {
    if (stopped) return;
    const look: Promise<void> = publishDue()
      .catch((error: unknown) => log.error({ err: error }, "scheduled news publication failed"))
      .then(() => startDueMatches())
      .catch((error: unknown) => log.error({ err: error }, "announced matches could not start"))
      .then(() => undefined)
      .finally(() => {
        if (looking === look) looking = null;
        arm();
      });
    looking = look;
  }

  const unsubscribe = events.subscribe((event) => {
    if (event === "newsUpdated" || event === "resync") arm();
  });
  // Anything already due (the server was down at its time) goes live now.
  fire();

  return {
    publishDue,
    startDueMatches,
    async idle() {
      while (looking || arming) await (looking ?? arming);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
