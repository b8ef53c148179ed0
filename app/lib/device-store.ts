/**
 * A value kept on the reader's device (localStorage: no account, nothing sent), read with React's
 * `useSyncExternalStore`: the same value object until the stored text changes, listeners told of this tab's writes
 * and of other tabs' (the `storage` event). Storage refused (private mode, full) reads as nothing stored.
 */
export interface DeviceStore<T> {
  snapshot(): T;
  subscribe(listener: () => void): () => void;
  /** Stores `value` (as JSON) and tells the listeners; false when the browser refused. */
  write(value: unknown): boolean;
}

export function deviceStore<T>(key: string, parse: (stored: string | null) => T): DeviceStore<T> {
  const listeners = new Set<() => void>();
  let cachedText: string | null | undefined;
  let cached: T;
  const read = () => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  return {
    snapshot() {
      const text = read();
      if (text !== cachedText) {
        cachedText = text;
        cached = parse(text);
      }
      return cached;
    },
    subscribe(listener) {
      listeners.add(listener);
      window.addEventListener("storage", listener);
      return () => {
        listeners.delete(listener);
        window.removeEventListener("storage", listener);
      };
    },
    write(value) {
      try {
        localStorage.setItem(key, JSON.stringify(value));
      } catch {
        return false;
      }
      for (const listener of listeners) listener();
      return true;
    },
  };
}
