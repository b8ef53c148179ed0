import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { hasSessionCookie } from "../app/lib/session-cookie.ts";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A rendered page as the cache keeps it: the body once in each encoding, and what to answer with. */
interface Entry {
  key: string;
  status: number;
  headers: Array<[string, string]>;
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Bytes held (the three bodies). */
  size: number;
  renderedAt: number;
  /** The invalidation generation it was rendered in; an older one is stale. */
  generation: number;
}

/** What the render function gives back: a complete response, read into memory. */
export interface RenderedPage {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface PageCacheOptions {
  /** Renders `url` (path and normalised query) for an anonymous reader. */
  render(url: string): Promise<RenderedPage>;
  /** Most bytes kept (all encodings together); the least recently used pages go first. */
  maxBytes: number;
  /** Safety net: a page older than this is re-rendered (served stale meanwhile) even without an event. */
  ttlMs: number;
  /** Logged once per miss/refresh failure. */
  log: { warn(object: object, message: string): void; error(object: object, message: string): void };
  now?: () => number;
  /** Headers every answer of the cache carries (security headers). */
  headers?: Record<string, string>;
  /**
   * The Content-Security-Policy of an HTML page (from its text: the hashes of its inline scripts). Computed once
   * when a page is stored, not per answer; replaces the fixed one for that page.
   */
  documentPolicy?: (html: string) => string;
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
  state: "hit" | "stale" | "miss" | "bypass";
  ms: number;
}

/** Query parameters the public pages read. Anything else (utm_*, fbclid…) is dropped from the key and the render. */
const PAGE_PARAMS = new Set(["tab", "cursor", "_routes", "index"]);

/** The public pages (and their `.data` requests): the home, the list, a category's or an author's, an article, the privacy policy. */
const PUBLIC_PATHS = [
  /^\/(_\.data)?$/,
  /^\/news-list(\.data)?$/,
  /^\/(categoria|autor)\/[^/]+(\.data)?$/,
  /^\/article\/[^/]+(\/[^/]+)?(\.data)?$/,
  /^\/userLicence(\.data)?$/,
];

/**
 * The cache key of a request, or null when the cache must not answer it: only GET/HEAD of a public page, without a
 * session cookie. The key is the path plus the page's own parameters, sorted.
 */
export function cacheKey(req: IncomingMessage): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  // A session (a signed-in admin) always gets a fresh, private page.
  if (hasSessionCookie(req.headers.cookie)) return null;
  const raw = req.url ?? "/";
  const query = raw.indexOf("?");
  const path = query < 0 ? raw : raw.slice(0, query);
  if (!PUBLIC_PATHS.some((pattern) => pattern.test(path))) return null;
  if (query < 0) return path;
  const params = [...new URLSearchParams(raw.slice(query + 1))].filter(([name]) => PAGE_PARAMS.has(name));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return params.length ? `${path}?${new URLSearchParams(params)}` : path;
}

/** Headers a stored page keeps (the rest are per-response: length, encoding, date, cookies). */
const DROPPED_HEADERS = new Set(["content-length", "content-encoding", "date", "set-cookie", "connection", "transfer-encoding", "vary", "etag"]);

/** Which stored body fits the request's Accept-Encoding. */
function pickEncoding(accept: string | undefined): "br" | "gzip" | "identity" {
  if (!accept) return "identity";
  if (/\bbr\b/.test(accept) && !/\bbr;q=0(\.0+)?\b/.test(accept)) return "br";
  if (/\bgzip\b/.test(accept) && !/\bgzip;q=0(\.0+)?\b/.test(accept)) return "gzip";
  return "identity";
}

export interface PageCacheStats {
  hits: number;
  misses: number;
  staleHits: number;
  renders: number;
  entries: number;
  bytes: number;
}

/**
 * An in-memory cache of the public pages for readers without a session. Each page is rendered once, stored
 * compressed (brotli and gzip) with an ETag, and answered from memory before the request reaches the framework, so a
 * hit costs about what a static file does. Concurrent misses of a page wait for one render (coalescing).
 * `invalidate()` (on `newsUpdated` / `sponsorsUpdated`) makes every page stale: a document request for a stale page
 * is answered from the stale copy while one re-render runs (stale-while-revalidate), but a `.data` request (a live
 * update reloading the page's data) waits for the fresh render, so open pages never reload old data. Least
 * recently used pages are dropped beyond `maxBytes`.
 */
export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on use makes it an LRU list.
  const entries = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | RenderedPage>>();
  let generation = 0;
  let bytes = 0;
  const stats = { hits: 0, misses: 0, staleHits: 0, renders: 0 };

  function remember(entry: Entry) {
    const previous = entries.get(entry.key);
    if (previous) {
      bytes -= previous.size;
      entries.delete(entry.key);
    }
    entries.set(entry.key, entry);
    bytes += entry.size;
    for (const [key, oldest] of entries) {
      if (bytes <= options.maxBytes) break;
      entries.delete(key);
      bytes -= oldest.size;
    }
  }

  function isFresh(entry: Entry): boolean {
    return entry.generation === generation && now() - entry.renderedAt < options.ttlMs;
  }

  /** Whether a rendered page may be shared with every reader. */
  function cacheable(page: RenderedPage): boolean {
    const cacheControl = page.headers.get("cache-control") ?? "";
    return page.status === 200 && !page.headers.has("set-cookie") && /\bpublic\b/.test(cacheControl) && !/no-store|private/.test(cacheControl);
  }

  /** Renders `key` once however many ask at the same time; stores it when it may be shared. */
  function render(key: string): Promise<Entry | RenderedPage> {
    let pending = rendering.get(key);
    if (pending) return pending;
    const startedIn = generation;
    pending = (async () => {
      stats.renders++;
      const page = await options.render(key);
      if (!cacheable(page)) return page;
      const [br, gz] = await Promise.all([
        brotli(page.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.body.length } }),
        gzip(page.body, { level: 9 }),
      ]);
      const headers: Array<[string, string]> = [];
      page.headers.forEach((value, name) => {
        if (!DROPPED_HEADERS.has(name)) headers.push([name, value]);
      });
      const policy = documentPolicyOf(page);
      if (policy) headers.push(["content-security-policy", policy]);
      const entry: Entry = {
        key,
        status: page.status,
        headers,
        etag: `"${createHash("sha1").update(page.body).digest("base64url").slice(0, 22)}"`,
        identity: page.body,
        br,
        gzip: gz,
        size: page.body.length + br.length + gz.length,
        renderedAt: now(),
        generation: startedIn,
      };
      // An invalidation during the render: what was rendered may already be old. Serve it to those who waited
      // (they asked before the change) but do not keep it.
      if (startedIn === generation) remember(entry);
      return entry;
    })().finally(() => rendering.delete(key));
    rendering.set(key, pending);
    return pending;
  }

  const fixedHeaders = Object.entries(options.headers ?? {});

  /** The policy of an HTML page (its scripts' hashes), or null for anything else (a `.data` answer). */
  function documentPolicyOf(page: RenderedPage): string | null {
    if (!options.documentPolicy || !/^text\/html\b/i.test(page.headers.get("content-type") ?? "")) return null;
    return options.documentPolicy(page.body.toString("utf8"));
  }

  /** Stamps the request id and fixed headers, and reports the answer to the access log once it is sent. */
  function track(req: IncomingMessage, res: ServerResponse, started: number, state: () => ServedRequest["state"]) {
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
        state: state(),
        ms: Math.round(performance.now() - started),
      }),
    );
  }

  function send(req: IncomingMessage, res: ServerResponse, entry: Entry, state: "hit" | "stale" | "miss") {
    const encoding = pickEncoding(req.headers["accept-encoding"]);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("ETag", entry.etag);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("X-Page-Cache", state);
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

  /** A page that may not be shared (a 404, an error): sent as rendered, gzip-compressed when the client accepts it. */
  function sendUncached(req: IncomingMessage, res: ServerResponse, page: RenderedPage) {
    page.headers.forEach((value, name) => {
      if (!DROPPED_HEADERS.has(name) || name === "set-cookie") res.setHeader(name, value);
    });
    const policy = documentPolicyOf(page);
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

  return {
    /**
     * Answers the request from the cache (rendering it first on a miss) and returns true, or returns false when
     * the cache does not apply (then the caller handles the request). `fallback` is called instead when a
     * render fails, before anything was sent.
     */
    handle(req: IncomingMessage, res: ServerResponse, fallback: () => void): boolean {
      const key = cacheKey(req);
      if (key === null) return false;
      track(req, res, performance.now(), () => String(res.getHeader("X-Page-Cache") ?? "miss") as ServedRequest["state"]);
      const entry = entries.get(key);
      if (entry) {
        // Used: move to the young end of the LRU list.
        entries.delete(key);
        entries.set(key, entry);
        if (isFresh(entry)) {
          stats.hits++;
          send(req, res, entry, "hit");
          return true;
        }
        if (!key.includes(".data")) {
          stats.staleHits++;
          send(req, res, entry, "stale");
          render(key).catch((error: unknown) => options.log.warn({ err: error, key }, "page cache refresh failed"));
          return true;
        }
      }
      stats.misses++;
      render(key).then(
        (result) => ("etag" in result ? send(req, res, result, "miss") : sendUncached(req, res, result)),
        (error: unknown) => {
          options.log.error({ err: error, key }, "page render for the cache failed; answering without the cache");
          if (!res.headersSent) fallback();
        },
      );
      return true;
    },

    /** Every stored page becomes stale (re-rendered on its next request). */
    invalidate(): void {
      generation++;
    },

    stats(): PageCacheStats {
      return { ...stats, entries: entries.size, bytes };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
