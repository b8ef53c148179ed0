import type { Kysely, Transaction } from "kysely";
import type { LiveChangeEvent } from "#app/lib/live-coverage.ts";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";

/**
 * The page-wide events of the original, now pushed by the server to every open page, and `resync`: events may have
 * been missed (the listening connection came back, another process wrote to the database), so every subscriber
 * treats it as every event at once.
 */
export type SiteEvent = "newsUpdated" | "sponsorsUpdated" | "liveUpdated" | "resync";

export const SITE_EVENTS: ReadonlySet<SiteEvent> = new Set<SiteEvent>(["newsUpdated", "sponsorsUpdated", "liveUpdated", "resync"]);

/**
 * `liveUpdated`: a change to one story's live coverage (an update posted, edited or deleted; the scoreboard). Only
 * that story's pages change: the page cache removes its `paths` and nothing else goes stale; open pages of the story
 * apply it without reloading (app/lib/use-live-coverage.ts). What changed, for the open pages, with what they show it
 * with when it is small.
 */
export type LiveChange = LiveChangeEvent;

/** What an event says beyond its name: the URL paths that must stop being served at once (a story's old and new addresses). */
export interface SiteEventDetail {
  paths?: string[];
  /**
   * The change touched nothing readers see (a story that was not published and still is not: a draft saved, sent
   * for review, scheduled again). The newsroom's open pages hear it; readers' pages, the page cache, the CDN and the
   * feeds do not (each such save would otherwise make every open reader page reload its data).
   */
  newsroomOnly?: true;
  /** `liveUpdated` only. */
  live?: LiveChange;
  /**
   * `newsUpdated` only: the change is that story's score and nothing else. Its own open article pages have it from
   * the `liveUpdated` sent with it and do not reload (app/lib/use-live-updates.ts); cards elsewhere do.
   */
  liveStory?: string;
  /**
   * Heard from another instance (PostgreSQL's channel) or worker process, not made here: a fan-out shared by every
   * instance (LIVE_FANOUT=nchan, server/nchan-publisher.ts) got it from the one that made it.
   */
  remote?: true;
  /**
   * `resync` after a gap in the event link (this instance only, never sent to other instances): the time (ms since
   * the epoch) up to which every event had been heard. A page stored before it is not served as a stale copy when
   * that is longer ago than the page cache's bound.
   */
  since?: number;
}

export type SiteEventListener = (event: SiteEvent, detail: SiteEventDetail) => void;

/** Sends an event with the transaction it is given to: it goes out only if that transaction commits. */
export type SendOnCommit = (event: SiteEvent, detail?: SiteEventDetail) => Promise<void>;

/**
 * Publishes site events to every subscriber. In memory for one process; a PostgreSQL LISTEN/NOTIFY implementation
 * of the same interface carries them across instances.
 */
export interface EventBus {
  /**
   * Sends an event now (after a change already committed): this instance's subscribers first, then the other
   * instances. A failed notification is logged, never thrown: the change it announces is done.
   */
  publish(event: SiteEvent, detail?: SiteEventDetail): Promise<void>;
  /**
   * Runs `work` in one transaction of `db`; the events it sends through `send` go with the commit. On PostgreSQL
   * each is a `pg_notify` inside the transaction (other instances hear it only if the transaction commits); this
   * instance's subscribers get them right after the commit, before `withCommit` resolves. A transaction that rolls
   * back sends nothing. A failed notification is logged and never fails the committed work.
   */
  withCommit<T>(db: Kysely<Database>, work: (trx: Transaction<Database>, send: SendOnCommit) => Promise<T>): Promise<T>;
  subscribe(listener: SiteEventListener): () => void;
  /** Called once when the bus closes (shutdown), so open streams can end. */
  onClose(callback: () => void): () => void;
  /**
   * The time (ms since the epoch) up to which this instance has heard every event of the other instances: the send
   * time of the last round trip on the listening connection that came back. Only a bus with a link that can be cut
   * (PostgreSQL) has it; without it the instance is always current (memory; SQLite, whose poll reads the shared file).
   */
  currentAsOf?(): number;
  close(): Promise<void>;
}

/**
 * The subscriber bookkeeping every bus shares: who listens, who wants to know when the bus closes. A listener that
 * throws is logged and the others still get the event (a broken subscriber must not fail the write that published).
 */
export function createSubscribers(log?: Pick<Logger, "warn">) {
  const listeners = new Set<SiteEventListener>();
  const closeCallbacks = new Set<() => void>();
  return {
    deliver(event: SiteEvent, detail: SiteEventDetail = {}) {
      for (const listener of [...listeners]) {
        try {
          listener(event, detail);
        } catch (error) {
          log?.warn({ err: error, event }, "site event listener failed");
        }
      }
    },
    get size() {
      return listeners.size;
    },
    subscribe(listener: SiteEventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose(callback: () => void): () => void {
      closeCallbacks.add(callback);
      return () => closeCallbacks.delete(callback);
    },
    /** Forgets every listener and tells the close callbacks (open streams end). */
    closeAll() {
      listeners.clear();
      for (const callback of [...closeCallbacks]) callback();
      closeCallbacks.clear();
    },
  };
}

/**
 * `withCommit` for a bus whose events need nothing from the transaction (the memory bus): the events sent are kept
 * and handed to `deliver` after the commit, in order; nothing when the work throws (the transaction rolled back).
 */
export async function runThenDeliver<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>, send: SendOnCommit) => Promise<T>,
  deliver: (event: SiteEvent, detail: SiteEventDetail | undefined) => void,
): Promise<T> {
  const sent: Array<[SiteEvent, SiteEventDetail | undefined]> = [];
  const result = await db.transaction().execute((trx) =>
    work(trx, async (event, detail) => {
      sent.push([event, detail]);
    }),
  );
  for (const [event, detail] of sent) deliver(event, detail);
  return result;
}

export function createMemoryEventBus(log?: Pick<Logger, "warn">): EventBus {
  const subscribers = createSubscribers(log);
  return {
    async publish(event, detail) {
      subscribers.deliver(event, detail);
    },
    withCommit: (db, work) => runThenDeliver(db, work, subscribers.deliver),
    subscribe: subscribers.subscribe,
    onClose: subscribers.onClose,
    async close() {
      subscribers.closeAll();
    },
  };
}
