import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { loadPg } from "../db/pg.server.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { createSubscribers, type EventBus, SITE_EVENTS, type SiteEvent, type SiteEventDetail } from "./event-bus.ts";

const CHANNEL = "eef_site_events";

/**
 * Site events across instances through PostgreSQL LISTEN/NOTIFY, so a change made through any instance reaches the
 * pages open on all of them. The publishing instance delivers to its own subscribers at once (its page cache is stale
 * before the write's answer leaves, not a NOTIFY round trip later) and ignores its own notification when it comes
 * back; the payload is `<instance>:<event>`, or `<instance>:<event>:<detail as JSON>` when the event carries one. Events
 * are published through the app's pool; one dedicated connection listens and reconnects by itself (with backoff)
 * after a failure.
 */
export function createPostgresEventBus(options: { url: string; db: Kysely<Database>; log: Logger }): EventBus & {
  /** Resolves once the listening connection is up (it opens with the first subscriber). */
  listening(): Promise<void>;
} {
  const subscribers = createSubscribers();
  /** This instance's mark on its notifications. */
  const origin = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;

  async function connect(): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: options.url });
    next.on("notification", (message) => {
      if (message.channel !== CHANNEL) return;
      const parsed = parsePayload(message.payload ?? "");
      if (!parsed || parsed.from === origin) return;
      subscribers.deliver(parsed.event, parsed.detail);
    });
    next.on("error", (error) => {
      options.log.warn({ err: error }, "event bus connection lost; reconnecting");
      lost(next);
    });
    next.on("end", () => lost(next));
    await next.connect();
    await next.query(`listen ${CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  }

  async function connectWithRetry(): Promise<void> {
    for (let attempt = 0; !closed; attempt++) {
      try {
        await connect();
        return;
      } catch (error) {
        options.log.warn({ err: error, attempt }, "event bus could not connect; retrying");
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)).unref());
      }
    }
  }

  function lost(failed: pg.Client) {
    if (client !== failed) return;
    client = null;
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
      const payload = detail?.paths?.length ? `${origin}:${event}:${JSON.stringify(detail)}` : `${origin}:${event}`;
      await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(options.db);
      subscribers.deliver(event, detail);
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
    const value = JSON.parse(rest.join(":")) as { paths?: unknown };
    const paths = Array.isArray(value.paths) ? value.paths.filter((path): path is string => typeof path === "string") : undefined;
    return { from, event: event as SiteEvent, detail: paths ? { paths } : {} };
  } catch {
    return { from, event: event as SiteEvent, detail: {} };
  }
}
