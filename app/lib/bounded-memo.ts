/**
 * Remembers what `compute` gave for a string key, up to `max` keys (then it starts over: no order to keep, and the
 * keys a page asks for again are back after one render). For pure, per-item work done on every render of a card —
 * a story's slug, the calendar day of its publication — where the same few hundred keys come back request after
 * request.
 */
export function boundedMemo<T>(compute: (key: string) => T, max = 4096): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    if (known.has(key)) return known.get(key) as T;
    const value = compute(key);
    if (known.size >= max) known.clear();
    known.set(key, value);
    return value;
  };
}
