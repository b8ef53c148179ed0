import { pageOfPath } from "#app/lib/data-path.ts";
import { type CacheEntry, isShareable, type RenderedPage, toEntry } from "./page-cache-entry.ts";
import type { EntryStore } from "./page-cache-store.ts";
import type { PageCacheOptions } from "./page-cache.ts";

/** A page to render: its key (path and canonical query) and its path. */
export interface PageKey {
  key: string;
  path: string;
}

/**
 * When the page cache (page-cache.ts) renders: one render per key however many ask at once (coalescing), a
 * generation that tells renders started before the last change from those after it, the re-renders ahead of readers
 * after a change (a queue, most requested first, a few at a time), and how long a page that stopped being current
 * may still be served (decision record 003).
 */
export function createRefresher(
  options: Pick<PageCacheOptions, "render" | "ttlMs" | "staleMs" | "warm" | "log" | "documentPolicy" | "partnerConsented">,
  store: EntryStore,
  now: () => number,
) {
  const staleMs = options.staleMs ?? 3000;
  const warmSettings = options.warm ?? { pages: 32, concurrency: 2 };
  const policies = { documentPolicy: options.documentPolicy, withPartner: Boolean(options.partnerConsented) };
  const rendering = new Map<string, { generation: number; promise: Promise<CacheEntry | RenderedPage> }>();
  let generation = 0;
  let renders = 0;

  /** Renders `key` once however many ask at the same time; stores it when it may be shared, removes it when not. */
  function render(key: string, path: string): Promise<CacheEntry | RenderedPage> {
    const pending = rendering.get(key);
    // A render started before the last change may show the old page: those who ask now get a new one.
    if (pending && pending.generation === generation) return pending.promise;
    const startedIn = generation;
    const promise = (async () => {
      renders++;
      const page = await options.render(key);
      if (!isShareable(page)) {
        // A taken-down story (404), a changed slug (301), a failure: the stored copy goes at once, with the same
        // page's other form (document or `.data`) and the pages under it.
        store.evictPaths([pageOfPath(path)]);
        return page;
      }
      const entry = await toEntry(key, path, page, policies, now);
      const previous = store.get(key);
      entry.requests = previous ? Math.ceil(previous.requests / 2) : 0;
      // A change during the render: what was rendered may already be old. Serve it to those who waited (they
      // asked before the change) but do not keep it.
      if (startedIn === generation) store.remember(entry);
      return entry;
    })().finally(() => {
      if (rendering.get(key)?.promise === promise) rendering.delete(key);
    });
    rendering.set(key, { generation: startedIn, promise });
    return promise;
  }

  // Re-rendering ahead of readers after a change: a queue of keys, most requested first, a few at a time.
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

  /** Adds these pages to the re-renders ahead of readers (once each), and starts what the concurrency allows. */
  function queue(pages: Iterable<PageKey>) {
    for (const { key, path } of pages) if (!warmQueue.has(key)) warmQueue.set(key, path);
    pumpWarm();
  }

  return {
    render,
    queue,

    /** A change: renders started before it no longer count for those who ask after it, nor are they stored. */
    changed() {
      generation++;
    },

    /**
     * Queues the most requested stored pages, then `extra` (the changed story's pages, not stored yet or just
     * removed), for a re-render, in place of what was queued. A reader of a queued page does not get its stale
     * copy: its re-render starts at once.
     */
    warm(extra: PageKey[]) {
      const hot = store.mostRequested(warmSettings.pages);
      warmQueue.clear();
      queue([...hot, ...extra]);
    },

    /** When the entry stopped being current (an invalidation or its TTL), or null while it is. */
    staleSince(entry: CacheEntry): number | null {
      const expires = entry.renderedAt + options.ttlMs;
      if (entry.staleSince !== null) return Math.min(entry.staleSince, expires);
      return now() >= expires ? expires : null;
    },

    /**
     * Whether a page stale since `since` may still be answered while its re-render runs: for a few seconds at most,
     * never to a `.data` request, and not when a re-render since the change (one ahead of readers, or queued for
     * one) is about to give the new page, so the first reader after a publish gets it.
     */
    mayServeStale(key: string, path: string, since: number): boolean {
      return !path.endsWith(".data") && now() - since < staleMs && rendering.get(key)?.generation !== generation && !warmQueue.has(key);
    },

    /** Renders the page for a reader waiting for it; a queued re-render of it starts now instead. */
    renderFor(key: string, path: string): Promise<CacheEntry | RenderedPage> {
      warmQueue.delete(key);
      return render(key, path);
    },

    /** Resolves once the re-renders ahead of readers are done. */
    idle(): Promise<void> {
      if (!warming && !warmQueue.size) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    stats() {
      return { renders };
    },
  };
}
