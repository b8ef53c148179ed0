/**
 * Load shedding: at most `concurrency` reader renders run at once in this process (each holds its memory until it
 * ends: 50 interleaved renders held ~75 MB more than 8 at a time), the others wait their turn in order; past `limit`
 * renders running or waiting, while it is saturated (its event loop busy nearly all the time), a new reader request
 * is answered at once with 503 and `Retry-After` instead of joining a queue where every request waits for all the
 * others (at 50 connections the uncached tail was 0.3–2.8 s). A slow database alone (requests waiting on I/O, the
 * loop free) is not saturation: those are not refused, unless one waited `maxWaitMs` for its turn (renders that
 * never end must not hold the others forever).
 *
 * Never refused: writes (what an editor sends is never lost to load), requests with this site's session (the
 * newsroom), the health check, open pages' event streams, and everything the page cache or the static files answer
 * (they never reach this).
 */
import { performance } from "node:perf_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { href } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

export interface LoadShedderOptions {
  /** Renders running or waiting before refusing (0: never refuse). */
  limit: number;
  /** Whether the request carries this site's own session (signature checked). */
  hasSession: (cookieHeader: string | undefined) => boolean;
  /** Whether the process is saturated now (default: event-loop utilisation ≥ 90 % over the last ~half second). */
  saturated?: () => boolean;
  /** Called for each refusal (the log's warning, at most one per interval, is the caller's). */
  onShed?: (req: IncomingMessage, inFlight: number) => void;
  retryAfterSeconds?: number;
  /** Renders run at once; the others admitted wait their turn in order (default: no bound). */
  concurrency?: number;
  /** How long an admitted request may wait for its turn before it is refused after all (default 10 s). */
  maxWaitMs?: number;
}

/** Paths never refused: the health check (a balancer must not take a busy instance for a dead one) and the event stream. */
const EXEMPT = new Set([href("/healthz"), "/events"]);
/**
 * Files served as they are (hashed assets, stored media): cheap, never counted nor refused. By prefix only: a page
 * address ending in ".png" is still a page (its 404 is rendered), so it waits its turn like any other.
 */
const FILES = /^\/(assets|media)\//;

/** Event-loop utilisation over the last window (~500 ms), sampled at most once per 100 ms. */
export function eventLoopSaturation(threshold = 0.9, windowMs = 500): () => boolean {
  let mark = performance.eventLoopUtilization();
  let markAt = performance.now();
  let last = 0;
  let lastAt = 0;
  return () => {
    const now = performance.now();
    if (now - lastAt >= 100) {
      const current = performance.eventLoopUtilization();
      last = performance.eventLoopUtilization(current, mark).utilization;
      lastAt = now;
      if (now - markAt >= windowMs) {
        mark = current;
        markAt = now;
      }
    }
    return last >= threshold;
  };
}

export function createLoadShedder(options: LoadShedderOptions) {
  const saturated = options.saturated ?? eventLoopSaturation();
  const retryAfter = String(options.retryAfterSeconds ?? 2);
  const maxWaitMs = options.maxWaitMs ?? 10_000;
  const concurrency = options.concurrency && options.concurrency > 0 ? options.concurrency : Number.POSITIVE_INFINITY;
  /** Renders admitted but waiting for one of the `concurrency` places. */
  const waiting: Array<() => void> = [];
  let inFlight = 0;
  let shed = 0;
  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiting.length;
    },
    /** How many requests were refused since the start. */
    get shed() {
      return shed;
    },
    /** Express-style middleware: refuses (503) or counts the request until its answer ends, then calls `next`. */
    middleware(req: IncomingMessage & { path?: string }, res: ServerResponse, next: () => void): void {
      if ((options.limit <= 0 && concurrency === Number.POSITIVE_INFINITY) || (req.method !== "GET" && req.method !== "HEAD")) {
        next();
        return;
      }
      const path = req.path ?? (req.url ?? "/").split("?")[0]!;
      if (EXEMPT.has(path) || FILES.test(path) || options.hasSession(req.headers.cookie)) {
        next();
        return;
      }
      if (options.limit > 0 && inFlight + waiting.length >= options.limit && saturated()) {
        shed++;
        options.onShed?.(req, inFlight + waiting.length);
        refuse(req, res, path, retryAfter);
        return;
      }
      let state: "waiting" | "running" | "done" = "waiting";
      let timer: ReturnType<typeof setTimeout> | undefined;
      const start = () => {
        clearTimeout(timer);
        state = "running";
        inFlight++;
        next();
      };
      const end = () => {
        if (state === "done") return;
        clearTimeout(timer);
        const wasRunning = state === "running";
        state = "done";
        if (!wasRunning) {
          // Gone while waiting (the client closed): its place is given up.
          const index = waiting.indexOf(start);
          if (index >= 0) waiting.splice(index, 1);
          return;
        }
        inFlight--;
        // The next waiting render, first come first served.
        const following = waiting.shift();
        if (following) following();
      };
      res.once("finish", end);
      res.once("close", end);
      if (inFlight < concurrency) {
        start();
        return;
      }
      waiting.push(start);
      // Renders that never end (a database that stopped answering) must not leave the rest waiting forever.
      if (options.limit <= 0) return;
      timer = setTimeout(() => {
        const index = waiting.indexOf(start);
        if (index < 0) return;
        waiting.splice(index, 1);
        state = "done";
        shed++;
        options.onShed?.(req, inFlight + waiting.length);
        refuse(req, res, path, retryAfter);
      }, maxWaitMs);
    },
  };
}

export type LoadShedder = ReturnType<typeof createLoadShedder>;

function refuse(req: IncomingMessage, res: ServerResponse, path: string, retryAfter: string) {
  // The API routes' prefix (app/routes.ts: api/…) answers JSON.
  const api = path.startsWith("/api/") || (req.headers.accept ?? "").includes("application/json");
  const body = api
    ? JSON.stringify({ error: { code: "overloaded", message: t.errors.overloadedText } })
    : `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.errors.overloadedTitle}</title></head><body><main><h1>${t.errors.overloadedTitle}</h1><p>${t.errors.overloadedText}</p></main></body></html>`;
  res.writeHead(503, {
    "Content-Type": api ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": retryAfter,
    "Cache-Control": NO_STORE,
    // Answered before the site's own headers run: a page with nothing to load or run.
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
