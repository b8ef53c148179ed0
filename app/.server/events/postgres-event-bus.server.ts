import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { loadPg } from "#app/.server/db/pg.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { createSubscribers, type EventBus, type LiveChange, SITE_EVENTS, type SiteEvent, type SiteEventDetail } from "./event-bus.ts";

/** The LISTEN/NOTIFY channel of the site's events (a bare event name as payload is another writer's). */
export const SITE_EVENTS_CHANNEL = "eef_site_events";
/** PostgreSQL refuses a payload of 8000 bytes or more; a longer detail is sent as `resync` (the receivers drop everything). */
const MAX_PAYLOAD_BYTES = 7_900;
/** The longest wait between two attempts to listen again. */
const RETRY_MAX_MS = 4_000;
/**
 * How often the listening connection is asked for a round trip. Its answer proves the link carried everything
 * notified before it was sent: a link whose packets are held (no reset, no error) is otherwise silent for minutes.
 */
const HEARTBEAT_MS = 500;
/** A round trip or a connection attempt not answered within this long: the link is dropped and opened again. */
const LINK_TIMEOUT_MS = 2_000;

/**
 * Site events across instances through PostgreSQL LISTEN/NOTIFY, so a change made through any instance reaches the
 * pages open on all of them. The publishing instance delivers to its own subscribers at once (its page cache is stale
 * before the write's answer leaves, not a NOTIFY round trip later) and ignores its own notification when it comes
 * back; the payload is `<instance>:<event>`, or `<instance>:<event>:<detail as JSON>` when the event carries one. Events
 * are published through the app's pool, or inside the transaction of the change they announce (`withCommit`: other
 * instances hear them only if it commits). One dedicated connection listens and reconnects by itself (with backoff)
 * after a failure; whatever was sent while it was down is lost, so once it is back this instance delivers `resync` to
 * its own subscribers (the page cache drops everything, open pages reload their data).
 *
 * The link is checked with a round trip (the LISTEN again) on the listening connection every `heartbeatMs` (500 ms):
 * `currentAsOf()` is when the last one that came back was sent (every notification committed before that had
 * reached this instance). A round trip or a connection attempt that takes longer than `linkTimeoutMs` (2 s) drops the
 * connection and opens a new one, so a link whose packets are held is noticed within about 2.5 s, not when the
 * operating system gives up on it. Readiness and the page cache read `currentAsOf()` (decision record 007).
 */
export function createPostgresEventBus(options: {
  url: string;
  db: Kysely<Database>;
  log: Logger;
  channel?: string;
  heartbeatMs?: number;
  linkTimeoutMs?: number;
}): EventBus & {
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
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const linkTimeoutMs = options.linkTimeoutMs ?? LINK_TIMEOUT_MS;
  /** When the last round trip on the listening connection that came back was sent (or the LISTEN, or the start). */
  let confirmedAt = Date.now();
  /** The round trip in flight on the listening connection, if any. */
  let beat: { client: pg.Client; sentAt: number } | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  function payloadOf(event: SiteEvent, detail: SiteEventDetail | undefined): string {
    const payload = detail?.paths?.length || detail?.live ? `${origin}:${event}:${JSON.stringify(detail)}` : `${origin}:${event}`;
    if (Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES) return payload;
    // A live change too long with its content goes without it (the other instances' pages fetch the update).
    if (detail?.live?.update) {
      const { update: _update, media: _media, ...bare } = detail.live;
      return payloadOf(event, { ...detail, live: bare });
    }
    return `${origin}:resync`;
  }

  async function connect(): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: options.url });
    next.on("notification", (message) => {
      if (message.channel !== channel) return;
      const parsed = parsePayload(message.payload ?? "");
      if (!parsed || parsed.from === origin) return;
      subscribers.deliver(parsed.event, { ...parsed.detail, remote: true });
    });
    next.on("error", (error) => {
      options.log.warn({ err: error }, "event bus connection lost; reconnecting");
      lost(next);
    });
    next.on("end", () => lost(next));
    let listenSentAt = Date.now();
    try {
      await within(
        (async () => {
          await next.connect();
          listenSentAt = Date.now();
          await next.query(`listen ${next.escapeIdentifier(channel)}`);
        })(),
        linkTimeoutMs,
        `the event link did not open within ${linkTimeoutMs} ms`,
      );
    } catch (error) {
      // Not the listening connection yet: close it here (its "end" is not a loss).
      discard(next);
      throw error;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    const since = confirmedAt;
    confirmedAt = listenSentAt;
    if (mayHaveMissed) {
      mayHaveMissed = false;
      options.log.info({ gapMs: listenSentAt - since }, "event bus listening again: resync");
      subscribers.deliver("resync", { since });
    }
  }

  /** Sends a round trip on the listening connection, or drops the connection when the last one is overdue. */
  function checkLink() {
    const current = client;
    if (!current || closed) return;
    if (beat?.client === current) {
      if (Date.now() - beat.sentAt > linkTimeoutMs) {
        options.log.warn({ waitedMs: Date.now() - beat.sentAt }, "event bus connection stopped answering; reconnecting");
        lost(current);
      }
      return;
    }
    const sentAt = Date.now();
    beat = { client: current, sentAt };
    // LISTEN again (a no-op for a channel already listened to) as the round trip: the connection's query in
    // pg_stat_activity stays the LISTEN, which operators and tests look for.
    current.query(`listen ${current.escapeIdentifier(channel)}`).then(
      () => {
        if (client === current) confirmedAt = Math.max(confirmedAt, sentAt);
        if (beat?.client === current) beat = null;
      },
      // A failed round trip: the connection's own "error"/"end" reports the loss.
      () => undefined,
    );
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
    beat = null;
    mayHaveMissed = true;
    discard(failed);
    if (!closed) void connectWithRetry();
  }

  // The listening connection opens with the first subscriber, so scripts that only publish never hold one.
  let started: Promise<void> | null = null;
  const start = () => {
    if (!started) {
      confirmedAt = Date.now();
      heartbeat = setInterval(checkLink, heartbeatMs);
      heartbeat.unref();
      started = connectWithRetry();
    }
    return started;
  };

  return {
    listening: start,
    currentAsOf: () => (started && !closed ? confirmedAt : Date.now()),
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
      if (heartbeat) clearInterval(heartbeat);
      subscribers.closeAll();
      const current = client;
      client = null;
      current?.removeAllListeners();
      await current?.end().catch(() => undefined);
    },
  };
}

/** Rejects with `message` when `promise` has not settled within `ms` (the promise itself may stay pending). */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Closes a connection that is not (or no longer) the listening one, at once: its socket is destroyed, since a link
 * whose packets are held would never finish a polite `end()`.
 */
function discard(connection: pg.Client) {
  connection.removeAllListeners();
  connection.on("error", () => undefined);
  void connection.end().catch(() => undefined);
  (connection as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
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
    const value = JSON.parse(rest.join(":")) as { paths?: unknown; live?: unknown; newsroomOnly?: unknown; liveStory?: unknown };
    const paths = Array.isArray(value.paths) ? value.paths.filter((path): path is string => typeof path === "string") : undefined;
    const live = liveChangeOf(value.live);
    const newsroomOnly = value.newsroomOnly === true ? { newsroomOnly: true as const } : {};
    const liveStory = typeof value.liveStory === "string" ? { liveStory: value.liveStory } : {};
    return {
      from,
      event: event as SiteEvent,
      detail: { ...(paths ? { paths } : {}), ...(live ? { live } : {}), ...newsroomOnly, ...liveStory },
    };
  } catch {
    return { from, event: event as SiteEvent, detail: {} };
  }
}

const LIVE_CHANGES: ReadonlySet<string> = new Set(["created", "edited", "deleted", "scoreboard"]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A `liveUpdated` event's change as another instance sent it, or undefined when it is not one. The content it carries
 * (the update, its images, the coverage) is this site's own, written by an instance into the database's channel: it
 * is passed on as it came when it has the right kind.
 */
function liveChangeOf(value: unknown): LiveChange | undefined {
  if (!isObject(value)) return undefined;
  const { newsId, updateId, change, update, media, coverage } = value;
  if (typeof newsId !== "string" || typeof change !== "string" || !LIVE_CHANGES.has(change)) return undefined;
  return {
    newsId,
    change: change as LiveChange["change"],
    ...(typeof updateId === "string" ? { updateId } : {}),
    ...(isObject(update) && typeof update.id === "string" && isObject(media)
      ? { update: update as unknown as NonNullable<LiveChange["update"]>, media: media as NonNullable<LiveChange["media"]> }
      : {}),
    ...(coverage === null || isObject(coverage) ? { coverage: coverage as LiveChange["coverage"] } : {}),
  };
}
