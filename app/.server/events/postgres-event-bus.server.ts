import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { loadPg } from "../db/pg.server.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { createSubscribers, type EventBus, type SiteEvent } from "./event-bus.ts";

const CHANNEL = "eef_site_events";
const EVENTS = new Set<SiteEvent>(["newsUpdated", "sponsorsUpdated"]);

/**
 * Site events across instances through PostgreSQL LISTEN/NOTIFY, so a change made through any instance reaches the
 * pages open on all of them. The publishing instance delivers to its own subscribers at once (its page cache is stale
 * before the write's answer leaves, not a NOTIFY round trip later) and ignores its own notification when it comes
 * back; the payload is `<instance>:<event>`. Events
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
      const payload = message.payload ?? "";
      const separator = payload.lastIndexOf(":");
      // A plain event name: from an instance of an earlier version (during a rolling update).
      const from = separator < 0 ? null : payload.slice(0, separator);
      const event = payload.slice(separator + 1) as SiteEvent;
      if (from === origin || !EVENTS.has(event)) return;
      subscribers.deliver(event);
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
    async publish(event) {
      await sql`select pg_notify(${CHANNEL}, ${`${origin}:${event}`})`.execute(options.db);
      subscribers.deliver(event);
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
