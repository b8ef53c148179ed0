/**
 * "Ler depois": the stories a reader marks to read later, kept on the device (localStorage, no account, nothing sent
 * to the site), newest first, at most READ_LATER_MAX. The service worker is told of each mark so that the story's
 * page is kept for reading without network (app/service-worker/service-worker.ts).
 */
import { useCallback, useSyncExternalStore } from "react";
import { deviceStore } from "./device-store.ts";
import { DROP_FROM_LATER_MESSAGE, KEEP_FOR_LATER_MESSAGE } from "./offline-copies.ts";

export const READ_LATER_KEY = "eef:ler-depois";
export const READ_LATER_MAX = 50;

export interface ReadLaterItem {
  id: string;
  path: string;
  title: string;
  /** When it was marked (ms since the epoch). */
  savedAt: number;
}

function isItem(value: unknown): value is ReadLaterItem {
  const item = value as ReadLaterItem | null;
  return (
    typeof item === "object" &&
    item !== null &&
    typeof item.id === "string" &&
    typeof item.title === "string" &&
    typeof item.savedAt === "number" &&
    typeof item.path === "string" &&
    // The prefix of the article route (/article/:id/:slug?).
    item.path.startsWith("/article/")
  );
}

/** The stored list, or [] (nothing stored, storage refused, or a value that is not a list of items). */
export function parseReadLater(stored: string | null): ReadLaterItem[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter(isItem).slice(0, READ_LATER_MAX) : [];
  } catch {
    return [];
  }
}

/** The list with `item` marked (first, once) or unmarked. */
export function toggledReadLater(list: readonly ReadLaterItem[], item: Omit<ReadLaterItem, "savedAt">, now: number): ReadLaterItem[] {
  if (list.some((saved) => saved.id === item.id)) return list.filter((saved) => saved.id !== item.id);
  return [{ ...item, savedAt: now }, ...list].slice(0, READ_LATER_MAX);
}

const store = deviceStore(READ_LATER_KEY, parseReadLater);

function tellWorker(type: string, path: string): void {
  navigator.serviceWorker?.controller?.postMessage({ type, path });
}

/**
 * The reader's list (null while the page is not hydrated: the server cannot know it, so nothing is drawn from it
 * before), and `toggle` to mark or unmark a story.
 */
export function useReadLater(): { items: ReadLaterItem[] | null; toggle: (item: Omit<ReadLaterItem, "savedAt">) => void } {
  const items = useSyncExternalStore(store.subscribe, store.snapshot, () => null);
  const toggle = useCallback((item: Omit<ReadLaterItem, "savedAt">) => {
    const list = store.snapshot();
    const marked = !list.some((saved) => saved.id === item.id);
    if (!store.write(toggledReadLater(list, item, Date.now()))) return;
    tellWorker(marked ? KEEP_FOR_LATER_MESSAGE : DROP_FROM_LATER_MESSAGE, item.path);
  }, []);
  return { items, toggle };
}
