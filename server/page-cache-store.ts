import { LRUCache } from "lru-cache";
import { pageOfPath } from "#app/lib/data-path.ts";
import type { CacheEntry } from "./page-cache-entry.ts";

/**
 * The page cache's stored pages (page-cache.ts): at most `maxBytes` of them (lru-cache, each page's size its three
 * bodies), the least recently used dropped first, and removed by path when a story changes.
 */
export function createEntryStore(maxBytes: number) {
  // A page larger than `maxBytes` is not kept (and takes its key's previous page with it).
  const entries = new LRUCache<string, CacheEntry>({ maxSize: maxBytes, sizeCalculation: (entry) => entry.size });
  let evictions = 0;

  return {
    /** The stored page of `key`, without counting it as used. */
    get(key: string): CacheEntry | undefined {
      return entries.peek(key);
    },

    /** The stored page of `key`, now the most recently used. */
    use(key: string): CacheEntry | undefined {
      return entries.get(key);
    },

    /** Stores `entry` in place of its key's previous one; the least recently used go beyond `maxBytes`. */
    remember(entry: CacheEntry) {
      entries.set(entry.key, entry);
    },

    /** Removes the pages at these paths: each path's page, its `.data` and every page under it ("/article/1" takes "/article/1/titulo"). */
    evictPaths(paths: Iterable<string>): number {
      const targets = [...paths].filter((path) => path.startsWith("/"));
      if (!targets.length) return 0;
      let removed = 0;
      for (const entry of [...entries.values()]) {
        const page = pageOfPath(entry.path);
        if (targets.some((path) => page === path || (path !== "/" && page.startsWith(`${path}/`)))) {
          entries.delete(entry.key);
          removed++;
        }
      }
      evictions += removed;
      return removed;
    },

    /**
     * Every stored page not stale yet stops being current at `at`, or, when events may have been missed since
     * `currentAt` (a `resync` after a gap in the event link), at `currentAt` for a page rendered before it: what it
     * shows is known current only up to then.
     */
    markStale(at: number, currentAt = at) {
      for (const entry of entries.values()) entry.staleSince ??= Math.min(at, Math.max(currentAt, entry.renderedAt));
    },

    /** The `count` stored pages most requested since their last render (among equals, the least recently used first). */
    mostRequested(count: number): CacheEntry[] {
      return [...entries.values()]
        .reverse()
        .sort((a, b) => b.requests - a.requests)
        .slice(0, count);
    },

    stats() {
      return { evictions, entries: entries.size, bytes: entries.calculatedSize };
    },
  };
}

export type EntryStore = ReturnType<typeof createEntryStore>;
