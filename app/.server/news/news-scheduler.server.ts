import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Logger } from "../logger.server.ts";
import { storyPaths } from "./story-paths.server.ts";

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

  /** Sets the timer for the next scheduled item (or the periodic look). One at a time; a call meanwhile re-runs it. */
  function arm(): void {
    if (stopped) return;
    if (arming) {
      rearm = true;
      return;
    }
    arming = (async () => {
      try {
        const next = await db
          .selectFrom("news")
          .select("published_at")
          .where("status", "=", "scheduled")
          .orderBy("published_at", "asc")
          .limit(1)
          .executeTakeFirst();
        if (stopped) return;
        clearTimeout(timer);
        const wait = next ? Math.max(0, new Date(next.published_at).getTime() - clock().getTime()) : maxWaitMs;
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
    publishDue()
      .catch((error: unknown) => log.error({ err: error }, "scheduled news publication failed"))
      .finally(arm);
  }

  const unsubscribe = events.subscribe((event) => {
    if (event === "newsUpdated" || event === "resync") arm();
  });
  // Anything already due (the server was down at its time) goes live now.
  fire();

  return {
    publishDue,
    stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
