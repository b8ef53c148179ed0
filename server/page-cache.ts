import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { hasSessionCookie } from "../app/lib/session-cookie.ts";
import { pageOfPath } from "../app/lib/data-path.ts";
import { lookUp, pickEncoding } from "./page-cache-keys.ts";
import type { RouteTable } from "./route-table.ts";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A rendered page as the cache keeps it: the body once in each encoding, and what to answer with. */
interface Entry {
  key: string;
  /** The key's path (no query), `.data` included: what an eviction by path compares. */
  path: string;
  status: number;
  headers: Array<[string, string]>;
  /** The policy for a reader who accepted the ad partner (null: not an HTML page, or no partner configured). */
  partnerPolicy: string | null;
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Bytes held (the three bodies). */
  size: number;
  renderedAt: number;
  /** When it stopped being current (an invalidation, or its TTL), or null while it is. */
  staleSince: number | null;
  /** Requests it answered (halved at each re-render): the most requested pages are re-rendered first. */
  requests: number;
}

/** What the render function gives back: a complete response, read into memory. */
export interface RenderedPage {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface PageCacheOptions {
  /** The site's routes and what each declares (server/route-table.ts): which are cached, which parameters they read. */
  routes: RouteTable;
  /** Renders `url` (path and canonical query) for an anonymous reader. */
  render(url: string): Promise<RenderedPage>;
  /** Most bytes kept (all encodings together); the least recently used pages go first. */
  maxBytes: number;
  /** A page older than this is re-rendered even without an event (and then served like an invalidated one). */
  ttlMs: number;
  /**
   * The longest a page that stopped being current (an event, its TTL) is still served, and only while its re-render
   * runs; after that readers wait for the re-render. Default 3 s.
   */
  staleMs?: number;
  /** After an invalidation, how many pages are re-rendered ahead of readers (most requested first), and how many at once. */
  warm?: { pages: number; concurrency: number };
  /**
   * Whether a Cookie header carries a real session (default: any session cookie). The app checks the cookie's
   * signature, so a made-up cookie is answered from the cache like no cookie.
   */
  hasSession?: (cookieHeader: string | undefined) => boolean;
  /** Logged once per miss/refresh failure. */
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  now?: () => number;
  /** Headers every answer of the cache carries (security headers). */
  headers?: Record<string, string>;
  /**
   * The Content-Security-Policy of an HTML page (from its text: the hashes of its inline scripts). Computed once
   * when a page is stored, not per answer; replaces the fixed one for that page.
   */
  documentPolicy?: (html: string, partner: boolean) => string;
  /**
   * Whether this reader accepted the ad partner (their consent cookie; absent: never). Their answers carry the
   * stored page's other policy, the one that allows the partner (computed when the page is stored, like the first);
   * the page's bytes are the same for every reader.
   */
  partnerConsented?: (req: IncomingMessage) => boolean;
  /** The id sent back as `X-Request-Id` and logged (default: none). */
  requestId?: (req: IncomingMessage) => string;
  /** Called once per answered request (the access log). */
  onServed?: (served: ServedRequest) => void;
}

export interface ServedRequest {
  id: string | undefined;
  method: string;
  url: string;
  status: number;
  state: "hit" | "stale" | "miss" | "bypass" | "redirect";
  ms: number;
}

/** Headers a stored page keeps (the rest are per-response: length, encoding, date, cookies). */
const DROPPED_HEADERS = new Set(["content-length", "content-encoding", "date", "set-cookie", "connection", "transfer-encoding", "vary", "etag"]);

export interface PageCacheStats {
  hits: number;
  misses: number;
  staleHits: number;
  renders: number;
  evictions: number;
  redirects: number;
  entries: number;
  bytes: number;
}

/**
 * An in-memory cache of the public pages for readers without a session. Each page is rendered once, stored
 * compressed (brotli and gzip) with an ETag, and answered from memory before the request reaches the framework, so a
 * hit costs about what a static file does. Concurrent misses of a page wait for one render (coalescing).
 *
 * What a reader may see (decision record 003): `invalidate(paths)` removes the pages at `paths` (a changed story's
 * addresses, from the event) at once and makes every other page stale. After it the most requested pages and the
 * changed story's are re-rendered ahead of readers, a few at a time; a reader of one of those waits for its new page.
 * Any other stale document is served only while the re-render its reader starts runs, and at most `staleMs` after it
 * went stale (an event, or its TTL); after that readers wait for the re-render. A `.data` request (a live update
 * reloading) never takes a stale copy. A re-render that is not a cacheable 200 (a 404 after a takedown, the 301 of a
 * changed slug) removes the entry. Least recently used pages are dropped beyond `maxBytes`.
 */
export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? 3000;
  const warmSettings = options.warm ?? { pages: 32, concurrency: 2 };
  const hasSession = options.hasSession ?? hasSessionCookie;
  // A Map iterates in insertion order: re-inserting on use makes it an LRU list.
  const entries = new Map<string, Entry>();
  const rendering = new Map<string, { generation: number; promise: Promise<Entry | RenderedPage> }>();
  let generation = 0;
  let bytes = 0;
  const stats = { hits: 0, misses: 0, staleHits: 0, renders: 0, evictions: 0, redirects: 0 };

  function forget(entry: Entry) {
    if (entries.get(entry.key) !== entry) return;
    entries.delete(entry.key);
    bytes -= entry.size;
  }

  function remember(entry: Entry) {
    const previous = entries.get(entry.key);
    if (previous) forget(previous);
    entries.set(entry.key, entry);
    bytes += entry.size;
    for (const oldest of entries.values()) {
      if (bytes <= options.maxBytes) break;
      forget(oldest);
    }
  }

  /** When the entry stopped being current (an invalidation or its TTL), or null while it is. */
  function staleSince(entry: Entry): number | null {
    const expires = entry.renderedAt + options.ttlMs;
    if (entry.staleSince !== null) return Math.min(entry.staleSince, expires);
    return now() >= expires ? expires : null;
  }

  /** Whether a rendered page may be shared with every reader. */
  function cacheable(page: RenderedPage): boolean {
    const cacheControl = page.headers.get("cache-control") ?? "";
    return page.status === 200 && !page.headers.has("set-cookie") && /\bpublic\b/.test(cacheControl) && !/no-store|private/.test(cacheControl);
  }

  /** Removes the pages at these paths: each path's page, its `.data` and every page under it ("/article/1" takes "/article/1/titulo"). */
  function evictPaths(paths: Iterable<string>): number {
    const targets = [...paths].filter((path) => path.startsWith("/"));
    if (!targets.length) return 0;
    let removed = 0;
    for (const entry of [...entries.values()]) {
      const page = pageOfPath(entry.path);
      if (targets.some((path) => page === path || (path !== "/" && page.startsWith(`${path}/`)))) {
        forget(entry);
        removed++;
      }
    }
    stats.evictions += removed;
    return removed;
  }

  /** Renders `key` once however many ask at the same time; stores it when it may be shared, removes it when not. */
  function render(key: string, path: string): Promise<Entry | RenderedPage> {
    const pending = rendering.get(key);
    // A render started before the last change may show the old page: those who ask now get a new one.
    if (pending && pending.generation === generation) return pending.promise;
    const startedIn = generation;
    const promise = (async () => {
      stats.renders++;
      const page = await options.render(key);
      if (!cacheable(page)) {
        // A taken-down story (404), a changed slug (301), a failure: the stored copy goes at once, with the same
        // page's other form (document or `.data`) and the pages under it.
        evictPaths([pageOfPath(path)]);
        return page;
      }
      const [br, gz] = await Promise.all([
        brotli(page.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.body.length } }),
        gzip(page.body, { level: 9 }),
      ]);
      const headers: Array<[string, string]> = [];
      page.headers.forEach((value, name) => {
        if (!DROPPED_HEADERS.has(name)) headers.push([name, value]);
      });
      const policy = documentPolicyOf(page, false);
      if (policy) headers.push(["content-security-policy", policy]);
      const partnerPolicy = options.partnerConsented ? documentPolicyOf(page, true) : null;
      const previous = entries.get(key);
      const entry: Entry = {
        key,
        path,
        status: page.status,
        headers,
        partnerPolicy,
        etag: `"${createHash("sha1").update(page.body).digest("base64url").slice(0, 22)}"`,
        identity: page.body,
        br,
        gzip: gz,
        size: page.body.length + br.length + gz.length,
        renderedAt: now(),
        staleSince: null,
        requests: previous ? Math.ceil(previous.requests / 2) : 0,
      };
      // A change during the render: what was rendered may already be old. Serve it to those who waited (they
      // asked before the change) but do not keep it.
      if (startedIn === generation) remember(entry);
      return entry;
    })().finally(() => {
      if (rendering.get(key)?.promise === promise) rendering.delete(key);
    });
    rendering.set(key, { generation: startedIn, promise });
    return promise;
  }

  // Re-rendering ahead of readers after an invalidation: a queue of keys, most requested first, a few at a time.
  const warmQueue = new Map<string, string>();
  let warming = 0;
  const idleWaiters: Array<() => void> = [];

  function pumpWarm() {
    while (warming < warmSettings.concurrency && warmQueue.size) {
      const [key, path] = warmQueue.entries().next().value as [string, string];
      warmQueue.delete(key);
      warming++;
      render(key, path)
        .catch((error: unknown) => options.log.warn({ err: error, key }, "page cache re-render ahead of readers failed"))
        .finally(() => {
          warming--;
          pumpWarm();
        });
    }
    if (!warming && !warmQueue.size) for (const resolve of idleWaiters.splice(0)) resolve();
  }

  /**
   * Queues the most requested stored pages, then `extra` (the changed story's pages, not stored yet or just
   * removed), for a re-render. A reader of a queued page does not get its stale copy: its re-render starts at once.
   */
  function warm(extra: Array<{ key: string; path: string }>) {
    const hot = [...entries.values()].sort((a, b) => b.requests - a.requests).slice(0, warmSettings.pages);
    warmQueue.clear();
    for (const { key, path } of [...hot, ...extra]) if (!warmQueue.has(key)) warmQueue.set(key, path);
    pumpWarm();
  }

  const fixedHeaders = Object.entries(options.headers ?? {});

  /** The policy of an HTML page (its scripts' hashes), or null for anything else (a `.data` answer, a feed). */
  function documentPolicyOf(page: RenderedPage, partner: boolean): string | null {
    if (!options.documentPolicy || !/^text\/html\b/i.test(page.headers.get("content-type") ?? "")) return null;
    return options.documentPolicy(page.body.toString("utf8"), partner);
  }

  /** Stamps the request id and fixed headers, and reports the answer to the access log once it is sent. */
  function track(req: IncomingMessage, res: ServerResponse, started: number) {
    for (const [name, value] of fixedHeaders) res.setHeader(name, value);
    const id = options.requestId?.(req);
    if (id) res.setHeader("X-Request-Id", id);
    if (!options.onServed) return;
    const onServed = options.onServed;
    res.once("finish", () =>
      onServed({
        id,
        method: req.method ?? "GET",
        url: req.url ?? "/",
        status: res.statusCode,
        state: String(res.getHeader("X-Page-Cache") ?? "miss") as ServedRequest["state"],
        ms: Math.round(performance.now() - started),
      }),
    );
  }

  function send(req: IncomingMessage, res: ServerResponse, entry: Entry, state: "hit" | "stale" | "miss") {
    const encoding = pickEncoding(req.headers["accept-encoding"]);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (entry.partnerPolicy && options.partnerConsented?.(req)) res.setHeader("Content-Security-Policy", entry.partnerPolicy);
    res.setHeader("ETag", entry.etag);
    // With an ad partner the policy depends on the consent cookie: a shared cache in front must keep them apart.
    res.setHeader("Vary", options.partnerConsented ? "Accept-Encoding, Cookie" : "Accept-Encoding");
    res.setHeader("X-Page-Cache", state);
    // A stale copy (served while its re-render runs) is kept by a shared cache in front for a second at most.
    if (state === "stale") {
      res.setHeader("Cache-Control", "public, max-age=0, s-maxage=1");
      res.setHeader("CDN-Cache-Control", "max-age=1");
    }
    const match = req.headers["if-none-match"];
    if (match?.split(/\s*,\s*/).some((tag) => tag.replace(/^W\//, "") === entry.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.statusCode = entry.status;
    res.end(req.method === "HEAD" ? undefined : body);
  }

  /** A page that may not be shared (a 404, a redirect, an error): sent as rendered, gzip-compressed when the client takes it. */
  function sendUncached(req: IncomingMessage, res: ServerResponse, page: RenderedPage) {
    page.headers.forEach((value, name) => {
      if (!DROPPED_HEADERS.has(name) || name === "set-cookie") res.setHeader(name, value);
    });
    const policy = documentPolicyOf(page, options.partnerConsented?.(req) ?? false);
    if (policy) res.setHeader("Content-Security-Policy", policy);
    res.setHeader("X-Page-Cache", "bypass");
    res.statusCode = page.status;
    const gzipped = pickEncoding(req.headers["accept-encoding"]) !== "identity" && page.body.length > 1024;
    const body = gzipped ? zlib.gzipSync(page.body, { level: 6 }) : page.body;
    if (gzipped) res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
  }

  /** The canonical URL of a variant: a permanent redirect, from memory. */
  function sendRedirect(res: ServerResponse, location: string) {
    stats.redirects++;
    res.setHeader("Location", location);
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.setHeader("X-Page-Cache", "redirect");
    res.setHeader("Content-Length", 0);
    res.statusCode = 301;
    res.end();
  }

  return {
    /**
     * Answers the request from the cache (rendering it first on a miss) and returns true, or returns false when
     * the cache does not apply (then the caller handles the request). `fallback` is called instead when a
     * render fails, before anything was sent.
     */
    handle(req: IncomingMessage, res: ServerResponse, fallback: () => void): boolean {
      const found = lookUp(req, options.routes, hasSession);
      if (found === null) return false;
      track(req, res, performance.now());
      if ("redirect" in found) {
        sendRedirect(res, found.redirect);
        return true;
      }
      const { key, path } = found;
      const entry = entries.get(key);
      if (entry) {
        // Used: move to the young end of the LRU list.
        entries.delete(key);
        entries.set(key, entry);
        entry.requests++;
        const since = staleSince(entry);
        if (since === null) {
          stats.hits++;
          send(req, res, entry, "hit");
          return true;
        }
        // Stale: served only while its re-render runs, for a few seconds at most, and never to a `.data` request.
        // A re-render already under way since the change (one ahead of readers) is waited for instead: it is about
        // to give the new page, so the first reader after a publish gets it.
        const pending = rendering.get(key);
        if (!path.endsWith(".data") && now() - since < staleMs && pending?.generation !== generation && !warmQueue.has(key)) {
          stats.staleHits++;
          send(req, res, entry, "stale");
          render(key, path).catch((error: unknown) => options.log.warn({ err: error, key }, "page cache refresh failed"));
          return true;
        }
      }
      stats.misses++;
      // Queued for a re-render ahead of readers: it starts now, for this reader.
      warmQueue.delete(key);
      render(key, path).then(
        (result) => ("etag" in result ? send(req, res, result, "miss") : sendUncached(req, res, result)),
        (error: unknown) => {
          options.log.error({ err: error, key }, "page render for the cache failed; answering without the cache");
          if (!res.headersSent) fallback();
        },
      );
      return true;
    },

    /**
     * A change: the pages at `paths` (a story's addresses, old and new) are removed at once, every other page goes
     * stale, and the most requested ones (and the story's pages) are re-rendered ahead of readers.
     */
    invalidate(paths: readonly string[] = []): void {
      generation++;
      evictPaths(paths);
      const at = now();
      for (const entry of entries.values()) entry.staleSince ??= at;
      const ahead: Array<{ key: string; path: string }> = [];
      for (const path of paths) {
        const found = lookUp({ method: "GET", url: path, headers: {} }, options.routes, () => false);
        if (found && "key" in found) ahead.push(found);
      }
      warm(ahead);
    },

    /**
     * A change to these pages only (a live story's update): they are removed at once and re-rendered ahead of
     * readers; every other page stays current (nothing else goes stale, no other page is re-rendered).
     */
    refresh(paths: readonly string[]): void {
      generation++;
      evictPaths(paths);
      for (const path of paths) {
        const found = lookUp({ method: "GET", url: path, headers: {} }, options.routes, () => false);
        if (found && "key" in found && !warmQueue.has(found.key)) warmQueue.set(found.key, found.path);
      }
      pumpWarm();
    },

    /** Resolves once the re-renders ahead of readers are done (tests, and a shutdown that wants them finished). */
    idle(): Promise<void> {
      if (!warming && !warmQueue.size) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    stats(): PageCacheStats {
      return { ...stats, entries: entries.size, bytes };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
