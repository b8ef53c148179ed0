import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { loadPg } from "../db/pg.server.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { createSubscribers, type EventBus, type LiveChange, SITE_EVENTS, type SiteEvent, type SiteEventDetail } from "./event-bus.ts";

/** The LISTEN/NOTIFY channel of the site's events (a bare event name as payload is another writer's). */
export const SITE_EVENTS_CHANNEL = "eef_site_events";
/** PostgreSQL refuses a payload of 8000 bytes or more; a longer detail is sent as `resync` (the receivers drop everything). */
const MAX_PAYLOAD_BYTES = 7_900;
/** The longest wait between two attempts to listen again. */
const RETRY_MAX_MS = 4_000;

/**
 * Site events across instances through PostgreSQL LISTEN/NOTIFY, so a change made through any instance reaches the
 * pages open on all of them. The publishing instance delivers to its own subscribers at once (its page cache is stale
 * before the write's answer leaves, not a NOTIFY round trip later) and ignores its own notification when it comes
 * back; the payload is `<instance>:<event>`, or `<instance>:<event>:<detail as JSON>` when the event carries one. Events
 * are published through the app's pool, or inside the transaction of the change they announce (`withCommit`: other
 * instances hear them only if it commits). One dedicated connection listens and reconnects by itself (with backoff)
 * after a failure; whatever was sent while it was down is lost, so once it is back this instance delivers `resync` to
 * its own subscribers (the page cache drops everything, open pages reload their data).
 */
export function createPostgresEventBus(options: { url: string; db: Kysely<Database>; log: Logger; channel?: string }): EventBus & {
  /** Resolves once the listening connection is up (it opens with the first subscriber). */
  listening(): Promise<void>;
} {
  const subscribers = createSubscribers(options.log);
  const channel = options.channel ?? SITE_EVENTS_CHANNEL;
  /** This instance's mark on its notifications. */
  const origin = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;
  /** Whether events may have gone unheard (a listening connection was lost, or failed to open): resync when one is up. */
  let mayHaveMissed = false;

  function payloadOf(event: SiteEvent, detail: SiteEventDetail | undefined): string {
    const payload = detail?.paths?.length || detail?.live ? `${origin}:${event}:${JSON.stringify(detail)}` : `${origin}:${event}`;
    return Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES ? payload : `${origin}:resync`;
  }

  async function connect(): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: options.url });
    next.on("notification", (message) => {
      if (message.channel !== channel) return;
      const parsed = parsePayload(message.payload ?? "");
      if (!parsed || parsed.from === origin) return;
      subscribers.deliver(parsed.event, parsed.detail);
    });
    next.on("error", (error) => {
      options.log.warn({ err: error }, "event bus connection lost; reconnecting");
      lost(next);
    });
    next.on("end", () => lost(next));
    try {
      await next.connect();
      await next.query(`listen ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      // Not the listening connection yet: close it here (its "end" is not a loss).
      next.removeAllListeners();
      next.on("error", () => undefined);
      void next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    if (mayHaveMissed) {
      mayHaveMissed = false;
      options.log.info("event bus listening again: resync");
      subscribers.deliver("resync");
    }
  }

  async function connectWithRetry(): Promise<void> {
    for (let attempt = 0; !closed; attempt++) {
      try {
        await connect();
        return;
      } catch (error) {
        mayHaveMissed = true;
        options.log.warn({ err: error, attempt }, "event bus could not connect; retrying");
        // At most a few seconds apart: while it is down, this instance's pages miss other instances' changes.
        await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MAX_MS, 250 * 2 ** attempt)).unref());
      }
    }
  }

  function lost(failed: pg.Client) {
    if (client !== failed) return;
    client = null;
    mayHaveMissed = true;
    failed.removeAllListeners();
    failed.on("error", () => undefined);
    void failed.end().catch(() => undefined);
    if (!closed) void connectWithRetry();
  }

  // The listening connection opens with the first subscriber, so scripts that only publish never hold one.
  let started: Promise<void> | null = null;
  const start = () => (started ??= connectWithRetry());

  return {
    listening: start,
    async publish(event, detail) {
      subscribers.deliver(event, detail);
      try {
        await sql`select pg_notify(${channel}, ${payloadOf(event, detail)})`.execute(options.db);
      } catch (error) {
        options.log.warn({ err: error, event }, "event notification failed; other instances catch up on their next resync or TTL");
      }
    },
    async withCommit(db, work) {
      const sent: Array<[SiteEvent, SiteEventDetail | undefined]> = [];
      const failed: Array<[SiteEvent, SiteEventDetail | undefined]> = [];
      const result = await db.transaction().execute((trx) =>
        work(trx, async (event, detail) => {
          sent.push([event, detail]);
          // Under a savepoint: a notification PostgreSQL refuses must not abort the change it announces.
          await sql`savepoint eef_notify`.execute(trx);
          try {
            await sql`select pg_notify(${channel}, ${payloadOf(event, detail)})`.execute(trx);
            await sql`release savepoint eef_notify`.execute(trx);
          } catch (error) {
            await sql`rollback to savepoint eef_notify`.execute(trx);
            options.log.warn({ err: error, event }, "event notification refused inside the transaction; retried after the commit");
            failed.push([event, detail]);
          }
        }),
      );
      for (const [event, detail] of sent) subscribers.deliver(event, detail);
      for (const [event, detail] of failed) {
        await sql`select pg_notify(${channel}, ${payloadOf(event, detail)})`
          .execute(options.db)
          .catch((error: unknown) => options.log.warn({ err: error, event }, "event notification failed after the commit"));
      }
      return result;
    },
    subscribe(listener) {
      void start();
      return subscribers.subscribe(listener);
    },
    onClose: subscribers.onClose,
    async close() {
      closed = true;
      subscribers.closeAll();
      const current = client;
      client = null;
      current?.removeAllListeners();
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * `<instance>:<event>[:<detail JSON>]`, or a plain event name from an instance of an earlier version (during a rolling
 * update). Anything else is ignored.
 */
export function parsePayload(payload: string): { from: string | null; event: SiteEvent; detail: SiteEventDetail } | null {
  const [from = "", event, ...rest] = payload.split(":");
  if (event === undefined) return SITE_EVENTS.has(from as SiteEvent) ? { from: null, event: from as SiteEvent, detail: {} } : null;
  if (!SITE_EVENTS.has(event as SiteEvent)) return null;
  if (rest.length === 0) return { from, event: event as SiteEvent, detail: {} };
  try {
    const value = JSON.parse(rest.join(":")) as { paths?: unknown; live?: unknown };
    const paths = Array.isArray(value.paths) ? value.paths.filter((path): path is string => typeof path === "string") : undefined;
    const live = liveChangeOf(value.live);
    return { from, event: event as SiteEvent, detail: { ...(paths ? { paths } : {}), ...(live ? { live } : {}) } };
  } catch {
    return { from, event: event as SiteEvent, detail: {} };
  }
}

const LIVE_CHANGES: ReadonlySet<string> = new Set(["created", "edited", "deleted", "scoreboard"]);

/** A `liveUpdated` event's change as another instance sent it, or undefined when it is not one. */
function liveChangeOf(value: unknown): LiveChange | undefined {
  if (!value || typeof value !== "object") return undefined;
  const { newsId, updateId, change } = value as Record<string, unknown>;
  if (typeof newsId !== "string" || typeof change !== "string" || !LIVE_CHANGES.has(change)) return undefined;
  return { newsId, change: change as LiveChange["change"], ...(typeof updateId === "string" ? { updateId } : {}) };
}
