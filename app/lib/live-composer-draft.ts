/**
 * The live composer's unposted update, kept in this browser (localStorage) per story and per user, so a reload, a
 * closed tab or a link followed on a match day never loses what was typed. Written by the news form's autosave hook
 * (components/admin/use-news-autosave.ts, a local target); cleared once the update is posted or discarded.
 */
export interface LiveComposerDraft {
  text: string;
  keyEvent: boolean;
  pinned: boolean;
}

/** A kept draft: what was typed, and when it was kept (an ISO instant). */
export interface StoredLiveComposerDraft extends LiveComposerDraft {
  savedAt: string;
}

/** How long after the last keystroke the composer's text is kept (and at once when the page hides or goes away). */
export const LIVE_DRAFT_DELAY_MS = 1000;

/** The localStorage key of the composer's draft of one story, for one user. */
export function liveDraftKey(newsId: string, userId: string | null | undefined): string {
  return `eef:live-draft:${userId ?? "anon"}:${newsId}`;
}

/** Whether the composer holds something to keep (spaces alone are nothing). */
export function hasLiveDraftText(draft: Pick<LiveComposerDraft, "text">): boolean {
  return draft.text.trim() !== "";
}

/** A kept draft read back (the stored string), or null: none, not readable, or nothing typed. */
export function parseLiveDraft(stored: string | null): StoredLiveComposerDraft | null {
  if (!stored) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const { text, keyEvent, pinned, savedAt } = value as Record<string, unknown>;
  if (typeof text !== "string" || typeof savedAt !== "string" || !hasLiveDraftText({ text })) return null;
  return { text, keyEvent: keyEvent === true, pinned: pinned === true, savedAt };
}
