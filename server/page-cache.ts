import type { IncomingMessage, ServerResponse } from "node:http";
import { hasSessionCookie } from "#app/lib/session-cookie.ts";
import { createAnswers } from "./page-cache-answer.ts";
import type { DocumentPolicy, RenderedPage } from "./page-cache-entry.ts";
import { lookUp } from "./page-cache-keys.ts";
import { createRefresher, type PageKey } from "./page-cache-refresh.ts";
import { createEntryStore } from "./page-cache-store.ts";
import type { RouteTable } from "./route-table.ts";

export type { RenderedPage } from "./page-cache-entry.ts";

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
  documentPolicy?: DocumentPolicy;
  /**
   * Whether this reader accepted the ad partner (their consent cookie; absent: never). Their answers carry the
   * stored page's other policy, the one that allows the partner (computed when the page is stored, like the first);
   * the page's bytes are the same for every reader.
   */
  partnerConsented?: (req: IncomingMessage) => boolean;
  /**
   * The time up to which this instance has heard every change made elsewhere (the event bus's `currentAsOf`; absent:
   * always now). While it is more than `staleMs` ago (the event link is down or not answering) a stored page is
   * answered only if it was rendered within `staleMs`, so a story taken down on another instance meanwhile is not
   * served from here past the bound. From half of `staleMs` behind on, every answer is `no-store`: a cache in front
   * must not keep a page this instance cannot vouch for.
   */
  eventsCurrentAsOf?: () => number;
  /**
   * While the event link is more than `staleMs` behind, how long a reader waits for a render before a 503 with
   * Retry-After (default 2 s): the database is likely cut off too, and a link whose packets are held never fails.
   */
  behindWaitMs?: number;
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

export interface PageCacheStats {
  hits: number;
  misses: number;
  staleHits: number;
  /** Stored pages not answered because the event link was behind by more than `staleMs` (rendered again instead). */
  behindSkips: number;
  /** Readers answered 503 because, with the event link behind, their render took longer than `behindWaitMs`. */
  unavailable: number;
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
  const hasSession = options.hasSession ?? hasSessionCookie;
  const store = createEntryStore(options.maxBytes);
  const refresher = createRefresher(options, store, now);
  const answers = createAnswers(options);
  const counts = { hits: 0, misses: 0, staleHits: 0, behindSkips: 0, unavailable: 0, redirects: 0 };
  const staleMs = options.staleMs ?? 3000;
  const behindWaitMs = options.behindWaitMs ?? 2000;

  /** How far behind the other instances' changes this instance may be (ms); 0 without an event link. */
  function lag(): { asOf: number; ms: number } {
    const asOf = options.eventsCurrentAsOf?.() ?? now();
    return { asOf, ms: now() - asOf };
  }
  /**
   * Whether a cache in front may keep this answer: not once the event link is half the bound behind (a round trip
   * is overdue: the link may be cut), since it would keep the page for its `s-maxage` whatever happens meanwhile.
   */
  const mayShare = (ms: number) => ms <= staleMs / 2;

  /** The pages at these paths, as an anonymous reader asks for them (the keys their re-renders are stored under). */
  function pagesAt(paths: readonly string[]): PageKey[] {
    const pages: PageKey[] = [];
    for (const path of paths) {
      const found = lookUp({ method: "GET", url: path, headers: {} }, options.routes, () => false);
      if (found && "key" in found) pages.push(found);
    }
    return pages;
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
      answers.track(req, res, performance.now());
      if ("redirect" in found) {
        counts.redirects++;
        answers.sendRedirect(res, found.redirect);
        return true;
      }
      const { key, path } = found;
      const entry = store.use(key);
      // Cut off from the other instances' changes for longer than the bound: only pages rendered within it are
      // answered, and none may be kept by a shared cache in front (it would serve them on after the bound).
      const link = lag();
      const shared = mayShare(link.ms);
      if (entry && link.ms > staleMs && now() - Math.max(entry.renderedAt, link.asOf) > staleMs) {
        counts.behindSkips++;
      } else if (entry) {
        entry.requests++;
        const since = refresher.staleSince(entry);
        if (since === null) {
          counts.hits++;
          answers.send(req, res, entry, "hit", shared);
          return true;
        }
        // Stale: answered only while the re-render it starts runs, a few seconds at most (refresher.mayServeStale).
        if (refresher.mayServeStale(key, path, since)) {
          counts.staleHits++;
          answers.send(req, res, entry, "stale", shared);
          refresher.render(key, path).catch((error: unknown) => options.log.warn({ err: error, key }, "page cache refresh failed"));
          return true;
        }
      }
      counts.misses++;
      // A miss, or a stale copy no longer served: this reader waits for the render. Cut off from the other
      // instances (the database is likely unreachable too, and a held link never fails), not longer than
      // `behindWaitMs`: then a 503 that no cache keeps (the render goes on, for the next reader).
      let timer: NodeJS.Timeout | undefined;
      if (link.ms > staleMs) {
        timer = setTimeout(() => {
          if (res.headersSent) return;
          counts.unavailable++;
          answers.sendUnavailable(req, res);
        }, behindWaitMs);
      }
      refresher.renderFor(key, path).then(
        (result) => {
          clearTimeout(timer);
          if (res.headersSent) return;
          if ("etag" in result) answers.send(req, res, result, "miss", mayShare(lag().ms));
          else answers.sendUncached(req, res, result, mayShare(lag().ms));
        },
        (error: unknown) => {
          clearTimeout(timer);
          options.log.error({ err: error, key }, "page render for the cache failed; answering without the cache");
          if (!res.headersSent) fallback();
        },
      );
      return true;
    },

    /**
     * A change: the pages at `paths` (a story's addresses, old and new) are removed at once, every other page goes
     * stale, and the most requested ones (and the story's pages) are re-rendered ahead of readers. `currentAt` (a
     * `resync` after a gap in the event link): pages rendered before it went stale then, not now, so one older than
     * `staleMs` is not served as a stale copy while its re-render runs.
     */
    invalidate(paths: readonly string[] = [], currentAt?: number): void {
      refresher.changed();
      store.evictPaths(paths);
      store.markStale(now(), currentAt);
      refresher.warm(pagesAt(paths));
    },

    /**
     * A change to these pages only (a live story's update): they are removed at once and re-rendered ahead of
     * readers; every other page stays current (nothing else goes stale, no other page is re-rendered).
     */
    refresh(paths: readonly string[]): void {
      refresher.changed();
      store.evictPaths(paths);
      refresher.queue(pagesAt(paths));
    },

    /** Resolves once the re-renders ahead of readers are done (tests, and a shutdown that wants them finished). */
    idle(): Promise<void> {
      return refresher.idle();
    },

    stats(): PageCacheStats {
      const { evictions, entries, bytes } = store.stats();
      return {
        hits: counts.hits,
        misses: counts.misses,
        staleHits: counts.staleHits,
        behindSkips: counts.behindSkips,
        unavailable: counts.unavailable,
        renders: refresher.stats().renders,
        evictions,
        redirects: counts.redirects,
        entries,
        bytes,
      };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
