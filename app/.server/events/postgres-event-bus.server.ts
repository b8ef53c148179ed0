import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { loadPg } from "../db/pg.server.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { createSubscribers, type EventBus, type SiteEvent } from "./event-bus.ts";

const CHANNEL = "eef_site_events";
const EVENTS = new Set<SiteEvent>(["newsUpdated", "sponsorsUpdated"]);

/**
 * Site events across instances through PostgreSQL LISTEN/NOTIFY. Every instance (this one included) receives each
 * event from the database, so a change made through any instance reaches the pages open on all of them. Events
 * are published through the app's pool; one dedicated connection listens and reconnects by itself (with backoff)
 * after a failure.
 */
export function createPostgresEventBus(options: { url: string; db: Kysely<Database>; log: Logger }): EventBus & {
  /** Resolves once the listening connection is up (it opens with the first subscriber). */
  listening(): Promise<void>;
} {
  const subscribers = createSubscribers();
  let client: pg.Client | null = null;
  let closed = false;

  async function connect(): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: options.url });
    next.on("notification", (message) => {
      const event = message.payload as SiteEvent;
      if (message.channel !== CHANNEL || !EVENTS.has(event)) return;
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
      await sql`select pg_notify(${CHANNEL}, ${event})`.execute(options.db);
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
