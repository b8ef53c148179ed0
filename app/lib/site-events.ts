/**
 * One EventSource on /events per page, shared by whoever listens (the root's reloads, a live story's updates), so a
 * reader holds one stream whatever the page shows. It opens with the first listener and closes with the last.
 * `onReconnect` listeners run when the stream is open again after a loss (events may have been missed).
 */
type Listener = (data: string) => void;

let source: EventSource | null = null;
let opened = false;
const listeners = new Map<string, Set<Listener>>();
const reconnectListeners = new Set<() => void>();
const attached = new Map<string, (event: MessageEvent) => void>();

function users(): number {
  let count = reconnectListeners.size;
  for (const set of listeners.values()) count += set.size;
  return count;
}

function ensureSource(): EventSource | null {
  if (typeof EventSource === "undefined") return null;
  if (source) return source;
  source = new EventSource("/events");
  opened = false;
  source.addEventListener("open", () => {
    if (opened) for (const listener of [...reconnectListeners]) listener();
    opened = true;
  });
  for (const type of listeners.keys()) attach(type);
  return source;
}

function attach(type: string) {
  if (!source || attached.has(type)) return;
  const handler = (event: MessageEvent) => {
    for (const listener of [...(listeners.get(type) ?? [])]) listener(typeof event.data === "string" ? event.data : "");
  };
  attached.set(type, handler);
  source.addEventListener(type, handler);
}

function release() {
  if (users() > 0 || !source) return;
  source.close();
  source = null;
  attached.clear();
}

/** Listens to one event type of the site's stream; returns the function that stops listening. */
export function onSiteEvent(type: string, listener: Listener): () => void {
  const set = listeners.get(type) ?? new Set<Listener>();
  listeners.set(type, set);
  set.add(listener);
  if (ensureSource()) attach(type);
  return () => {
    set.delete(listener);
    release();
  };
}

/** Runs `listener` each time the stream is open again after it was lost. */
export function onSiteEventsReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  ensureSource();
  return () => {
    reconnectListeners.delete(listener);
    release();
  };
}
