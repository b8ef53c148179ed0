/** The page-wide events of the original, now pushed by the server to every open page. */
export type SiteEvent = "newsUpdated" | "sponsorsUpdated";

export type SiteEventListener = (event: SiteEvent) => void;

/**
 * Publishes site events to every subscriber. In memory for one process; a PostgreSQL LISTEN/NOTIFY implementation
 * of the same interface carries them across instances.
 */
export interface EventBus {
  publish(event: SiteEvent): Promise<void>;
  subscribe(listener: SiteEventListener): () => void;
  /** Called once when the bus closes (shutdown), so open streams can end. */
  onClose(callback: () => void): () => void;
  close(): Promise<void>;
}

export function createMemoryEventBus(): EventBus {
  const listeners = new Set<SiteEventListener>();
  const closeCallbacks = new Set<() => void>();
  return {
    async publish(event) {
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose(callback) {
      closeCallbacks.add(callback);
      return () => closeCallbacks.delete(callback);
    },
    async close() {
      listeners.clear();
      for (const callback of [...closeCallbacks]) callback();
      closeCallbacks.clear();
    },
  };
}
