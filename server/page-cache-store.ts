import { pageOfPath } from "../app/lib/data-path.ts";
import type { CacheEntry } from "./page-cache-entry.ts";

/**
 * The page cache's stored pages (page-cache.ts): at most `maxBytes` of them, the least recently used dropped first,
 * and removed by path when a story changes.
 */
export function createEntryStore(maxBytes: number) {
  // A Map iterates in insertion order: re-inserting on use makes it an LRU list.
  const entries = new Map<string, CacheEntry>();
  let bytes = 0;
  let evictions = 0;

  function forget(entry: CacheEntry) {
    if (entries.get(entry.key) !== entry) return;
    entries.delete(entry.key);
    bytes -= entry.size;
  }

  return {
    /** The stored page of `key`, without counting it as used. */
    get(key: string): CacheEntry | undefined {
      return entries.get(key);
    },

    /** The stored page of `key`, moved to the young end of the LRU list. */
    use(key: string): CacheEntry | undefined {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },

    /** Stores `entry` in place of its key's previous one; the least recently used go beyond `maxBytes`. */
    remember(entry: CacheEntry) {
      const previous = entries.get(entry.key);
      if (previous) forget(previous);
      entries.set(entry.key, entry);
      bytes += entry.size;
      for (const oldest of entries.values()) {
        if (bytes <= maxBytes) break;
        forget(oldest);
      }
    },

    /** Removes the pages at these paths: each path's page, its `.data` and every page under it ("/article/1" takes "/article/1/titulo"). */
    evictPaths(paths: Iterable<string>): number {
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

    /** The `count` stored pages most requested since their last render. */
    mostRequested(count: number): CacheEntry[] {
      return [...entries.values()].sort((a, b) => b.requests - a.requests).slice(0, count);
    },

    stats() {
      return { evictions, entries: entries.size, bytes };
    },
  };
}

export type EntryStore = ReturnType<typeof createEntryStore>;
