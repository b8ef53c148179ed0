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

/** The subscriber bookkeeping every bus shares: who listens, who wants to know when the bus closes. */
export function createSubscribers() {
  const listeners = new Set<SiteEventListener>();
  const closeCallbacks = new Set<() => void>();
  return {
    deliver(event: SiteEvent) {
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener: SiteEventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose(callback: () => void): () => void {
      closeCallbacks.add(callback);
      return () => closeCallbacks.delete(callback);
    },
    /** Forgets every listener and tells the close callbacks (open streams end). */
    closeAll() {
      listeners.clear();
      for (const callback of [...closeCallbacks]) callback();
      closeCallbacks.clear();
    },
  };
}

export function createMemoryEventBus(): EventBus {
  const subscribers = createSubscribers();
  return {
    async publish(event) {
      subscribers.deliver(event);
    },
    subscribe: subscribers.subscribe,
    onClose: subscribers.onClose,
    async close() {
      subscribers.closeAll();
    },
  };
}
