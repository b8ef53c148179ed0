import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { t } from "#app/i18n/pt-BR.ts";
import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * The open pages' event stream (`GET /events`, Server-Sent Events), held here on the bare Node response: one
 * subscription to the site's events for all streams, each event encoded once into one buffer that every stream is
 * handed without a copy or an await, one heartbeat timer for all. A stream costs its socket and response objects and a
 * set entry (measured with `npm run bench:live`); the route React Router served before cost a Request, an AbortSignal,
 * a ReadableStream and its pump, a subscription and a timer each (~35 KB a stream at 5 000).
 *
 * What a stream hears: `newsUpdated`, `sponsorsUpdated` and `resync` (every open page reloads its data, spread over
 * a moment: app/lib/use-live-updates.ts) with the changed paths, and `liveUpdated` (`{ newsId, updateId?, change }`,
 * with the new update and the coverage when they are small: LiveChangeEvent) for the open pages of that live story.
 * Nothing of a story readers do not see: a change only the newsroom sees (`newsroomOnly`) goes to the streams of
 * signed-in newsroom members alone.
 */
export interface EventStreamHub {
  /** Answers a `GET /events` from the client at `address` (a stream, or a 429 past a cap). */
  handle(req: IncomingMessage, res: ServerResponse, address: string): void;
  /** Streams open now (readers and members). */
  size(): number;
  /** Ends every stream and stops listening (shutdown). */
  close(): void;
}

export interface EventStreamOptions {
  subscribe(listener: (event: SiteEvent, detail: SiteEventDetail) => void): () => void;
  /** Whether a request with a session cookie is a newsroom member's who may use the newsroom (never throws). */
  isNewsroomMember(req: IncomingMessage): Promise<boolean>;
  /** A session cookie signed by this site is on the request (checked in memory): only then is membership looked up. */
  hasSession(cookieHeader: string | undefined): boolean;
  /** Open streams allowed per client address and in all. */
  limits: { perAddress: number; total: number };
  /** Headers every answer carries besides the stream's own (the site's security headers). */
  headers?: Record<string, string>;
  heartbeatMs?: number;
  /**
   * A stream whose client reads slower than events come (its unsent bytes pass this) is ended, instead of the server
   * buffering for it without bound: its EventSource reconnects, and the page reloads its data on the reconnection
   * (app/lib/use-live-updates.ts, app/lib/use-live-coverage.ts).
   */
  maxBufferedBytes?: number;
}

/** How often a comment line keeps idle connections (and proxies) open. */
const HEARTBEAT_MS = 25_000;
const HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": NO_STORE,
  Connection: "keep-alive",
  // nginx passes the stream as it is written instead of buffering it.
  "X-Accel-Buffering": "no",
};

/** The open-files limit of this process (Linux: /proc/self/limits), or null when it cannot be read. */
export function openFilesLimit(limitsFile = "/proc/self/limits"): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync(limitsFile, "utf8"))?.[1];
    return line === undefined ? null : line === "unlimited" ? Number.POSITIVE_INFINITY : Number(line);
  } catch {
    return null;
  }
}

/** Descriptors kept for everything but streams: the database, files, uploads and the pages being served. */
export const DESCRIPTORS_KEPT = 1024;
/** Streams allowed when neither EVENT_STREAMS_MAX nor the open-files limit says how many. */
export const DEFAULT_STREAM_CAP = 5_000;

/**
 * How many streams one process holds: EVENT_STREAMS_MAX when set, never more than the open-files limit leaves after
 * DESCRIPTORS_KEPT (each stream is a socket); without the variable, what that limit allows (at least 100), or
 * DEFAULT_STREAM_CAP where it cannot be read.
 */
export function streamCap(configured: number | undefined, files: number | null = openFilesLimit()): number {
  const room = files === null ? null : Math.max(100, files - DESCRIPTORS_KEPT);
  if (configured !== undefined) return room === null ? configured : Math.min(configured, room);
  return room === null || !Number.isFinite(room) ? DEFAULT_STREAM_CAP : room;
}

/** What an event tells the open pages (its `data:`), as JSON; null for one they are not sent. */
export function eventData(event: SiteEvent, detail: SiteEventDetail): string | null {
  if (event === "liveUpdated") return detail.live ? JSON.stringify(detail.live) : null;
  // The changed addresses let a page that shows none of them stay as it is (app/lib/use-live-updates.ts).
  return JSON.stringify({ ...(detail.paths?.length ? { paths: detail.paths } : {}), ...(detail.liveStory ? { liveStory: detail.liveStory } : {}) });
}

/** One event as it goes on the wire, encoded once for every stream. */
export function encodeEvent(event: SiteEvent, detail: SiteEventDetail): Buffer | null {
  const data = eventData(event, detail);
  return data === null ? null : Buffer.from(`event: ${event}\ndata: ${data}\n\n`);
}

const HELLO = Buffer.from("retry: 3000\n: conectado\n\n");
const PING = Buffer.from(": ping\n\n");

export function createEventStreamHub(options: EventStreamOptions): EventStreamHub {
  const maxBuffered = options.maxBufferedBytes ?? 256 * 1024;
  const headers = { ...options.headers, ...HEADERS };
  const refusal = { ...options.headers, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE, "Retry-After": "60" };
  /** Every open stream, and the members' among them (who also hear what only the newsroom sees). */
  const streams = new Set<ServerResponse>();
  const members = new Set<ServerResponse>();
  /** Streams whose membership is being looked up: what only the newsroom hears waits for the answer. */
  const pending = new Map<ServerResponse, Buffer[]>();
  const perAddress = new Map<string, number>();

  const end = (res: ServerResponse) => {
    if (!res.destroyed) res.destroy();
  };
  const write = (res: ServerResponse, chunk: Buffer) => {
    // A client that stopped reading: no buffer without bound for it.
    if (res.writableLength > maxBuffered) return end(res);
    res.write(chunk);
  };

  const unsubscribe = options.subscribe((event, detail) => {
    const chunk = encodeEvent(event, detail);
    if (!chunk) return;
    if (detail.newsroomOnly) {
      for (const res of members) write(res, chunk);
      for (const queue of pending.values()) queue.push(chunk);
    } else {
      for (const res of streams) write(res, chunk);
    }
  });
  const heartbeat = setInterval(() => {
    for (const res of streams) write(res, PING);
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  return {
    handle(req, res, address) {
      const mine = perAddress.get(address) ?? 0;
      if (mine >= options.limits.perAddress || streams.size >= options.limits.total) {
        res.writeHead(429, refusal);
        res.end(t.events.tooManyStreams);
        return;
      }
      perAddress.set(address, mine + 1);
      streams.add(res);
      res.writeHead(200, headers);
      res.write(HELLO);
      res.once("close", () => {
        streams.delete(res);
        members.delete(res);
        pending.delete(res);
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      });
      if (options.hasSession(req.headers.cookie)) {
        pending.set(res, []);
        void options.isNewsroomMember(req).then((member) => {
          const queued = pending.get(res);
          if (!queued) return; // closed meanwhile
          pending.delete(res);
          if (!member) return;
          members.add(res);
          for (const chunk of queued) write(res, chunk);
        });
      }
    },
    size: () => streams.size,
    close() {
      unsubscribe();
      clearInterval(heartbeat);
      for (const res of streams) res.end();
    },
  };
}
