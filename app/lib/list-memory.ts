import type { NewsSummary } from "./news-view.ts";

/**
 * What an infinite list loaded after its first page, remembered per history entry (React Router's location key) in
 * the tab's sessionStorage: back from an article, the list comes back with the same cards, and the router's scroll
 * restoration finds the card the reader left from. Only the browser's tab keeps it (closing the tab forgets it); the
 * few most recent lists are kept, each with a bounded number of cards.
 */
const STORAGE_KEY = "eef:listas";
/** Lists remembered (the most recently changed ones). */
const MAX_LISTS = 5;
/** Cards remembered per list (ten pages): past that, the list starts over from its first page. */
export const MAX_REMEMBERED_CARDS = 240;

export interface RememberedList {
  /** The history entry and the list it was (a tab, a section, an author). */
  key: string;
  more: NewsSummary[];
  next: string | null;
  savedAt: number;
}

function readAll(): RememberedList[] {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as RememberedList[]) : [];
  } catch {
    // Storage refused (private mode, quota, a blocked cookie setting) or a value from elsewhere: nothing remembered.
    return [];
  }
}

/** The cards `key` had loaded, or null (another entry, nothing loaded, or no storage). */
export function recallList(key: string): Pick<RememberedList, "more" | "next"> | null {
  if (typeof window === "undefined") return null;
  const found = readAll().find((list) => list.key === key);
  return found && Array.isArray(found.more) ? { more: found.more, next: found.next ?? null } : null;
}

/** Remembers what `key` has loaded now (nothing: forgets it). */
export function rememberList(key: string, more: NewsSummary[], next: string | null): void {
  if (typeof window === "undefined") return;
  const others = readAll().filter((list) => list.key !== key);
  const lists = more.length === 0 || more.length > MAX_REMEMBERED_CARDS ? others : [...others, { key, more, next, savedAt: Date.now() }];
  lists.sort((a, b) => a.savedAt - b.savedAt);
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(lists.slice(-MAX_LISTS)));
  } catch {
    // Full or refused: the list simply starts over from its first page next time.
  }
}
