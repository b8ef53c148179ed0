/**
 * What reader pages read again and again (the section menu, the sponsors, the home's blocks, an article's "Leia
 * também"), kept in memory until the data behind it changes: `invalidate()` is called on the site's events
 * (app.server.ts), which reach every process and instance. `maxAgeMs` bounds the staleness if an event is ever
 * missed; a failed read is not kept (the next request asks again); a read in flight when a change arrives is not kept
 * past it. Readers of a value must not change it: it is shared by every request.
 */
export interface Memo<T, A = string> {
  /** The kept value for `arg` (e.g. today's date), read again when its key or its age says so, or after a change. */
  get(arg?: A): Promise<T>;
  invalidate(): void;
}

export function memoUntilChanged<T, A = string>(
  /** Reads the value for an argument (the one `get` was given). */
  load: (arg: A) => Promise<T>,
  {
    maxAgeMs = 60_000,
    clock = Date.now,
    maxKeys = 1,
    keyOf = (arg) => String(arg ?? ""),
  }: {
    maxAgeMs?: number;
    clock?: () => number;
    /** How many keys are kept at once; past that, the one kept longest is dropped (default 1: a new key replaces it). */
    maxKeys?: number;
    /** The key a value is kept under (default: the argument itself). */
    keyOf?: (arg: A | undefined) => string;
  } = {},
): Memo<T, A> {
  // Dropped whole on every change: what is in it was read since the last one.
  const kept = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(arg) {
      const now = clock();
      const key = keyOf(arg);
      const found = kept.get(key);
      if (found && now - found.at <= maxAgeMs) return found.value;
      const entry = { at: now, value: load(arg as A) };
      kept.delete(key);
      kept.set(key, entry);
      if (kept.size > maxKeys) kept.delete(kept.keys().next().value as string);
      entry.value.catch(() => {
        if (kept.get(key) === entry) kept.delete(key);
      });
      return entry.value;
    },
    invalidate() {
      kept.clear();
    },
  };
}
