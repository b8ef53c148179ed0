/**
 * The page-wide events of the original, now pushed by the server to every open page, and `resync`: events may have
 * been missed (the listening connection came back, another process wrote to the database), so every subscriber
 * treats it as every event at once.
 */
export type SiteEvent = "newsUpdated" | "sponsorsUpdated" | "resync";

export const SITE_EVENTS: ReadonlySet<SiteEvent> = new Set<SiteEvent>(["newsUpdated", "sponsorsUpdated", "resync"]);

/** What an event says beyond its name: the URL paths that must stop being served at once (a story's old and new addresses). */
export interface SiteEventDetail {
  paths?: string[];
}

export type SiteEventListener = (event: SiteEvent, detail: SiteEventDetail) => void;

/**
 * Publishes site events to every subscriber. In memory for one process; a PostgreSQL LISTEN/NOTIFY implementation
 * of the same interface carries them across instances.
 */
export interface EventBus {
  publish(event: SiteEvent, detail?: SiteEventDetail): Promise<void>;
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
    deliver(event: SiteEvent, detail: SiteEventDetail = {}) {
      for (const listener of [...listeners]) listener(event, detail);
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
    async publish(event, detail) {
      subscribers.deliver(event, detail);
    },
    subscribe: subscribers.subscribe,
    onClose: subscribers.onClose,
    async close() {
      subscribers.closeAll();
    },
  };
}
