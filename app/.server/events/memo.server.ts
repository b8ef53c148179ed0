/**
 * What every reader page reads (the section menu, the sponsors, the home's blocks), kept in memory until the data
 * behind it changes: `invalidate()` is called on the site's events (app.server.ts), which reach every process and
 * instance. `maxAgeMs` bounds the staleness if an event is ever missed; a failed read is not kept (the next request
 * asks again). Readers of a value must not change it: it is shared by every request.
 */
export interface Memo<T> {
  /** The kept value for `key` (e.g. today's date), read again when the key, the generation or the age says so. */
  get(key?: string): Promise<T>;
  invalidate(): void;
}

export function memoUntilChanged<T>(
  /** Reads the value for a key (the one `get` was given). */
  load: (key: string) => Promise<T>,
  { maxAgeMs = 60_000, clock = Date.now }: { maxAgeMs?: number; clock?: () => number } = {},
): Memo<T> {
  let generation = 0;
  let kept: { generation: number; key: string; at: number; value: Promise<T> } | null = null;
  return {
    get(key = "") {
      const now = clock();
      if (!kept || kept.generation !== generation || kept.key !== key || now - kept.at > maxAgeMs) {
        const entry = { generation, key, at: now, value: load(key) };
        kept = entry;
        entry.value.catch(() => {
          if (kept === entry) kept = null;
        });
      }
      return kept.value;
    },
    invalidate() {
      generation++;
    },
  };
}
