import { isLiveEventType, type LiveEventType } from "./live-coverage.ts";
import type { RichDoc } from "./rich-text.ts";
import { isEmptyDoc, plainTextToDoc } from "./rich-text-plain.ts";

/**
 * The live composer's unposted update, kept in this browser (localStorage) per story and per user, so a reload, a
 * closed tab or a link followed on a match day never loses what was typed. Written by the news form's autosave hook
 * (components/admin/use-news-autosave.ts, a local target); cleared once the update is posted or discarded.
 */
export interface LiveComposerDraft {
  /** What the rich-text editor holds (the composer's document, with its formatting). */
  doc: RichDoc;
  /** The match minute as typed ("45+2") and the event ("" for none). */
  minute: string;
  eventType: LiveEventType | "";
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

/** Whether the composer holds something to keep: text (spaces alone are nothing), a minute or an event. */
export function hasLiveDraftText(draft: Pick<LiveComposerDraft, "doc" | "minute" | "eventType">): boolean {
  return !isEmptyDoc(draft.doc) || draft.minute.trim() !== "" || draft.eventType !== "";
}

/**
 * A kept draft read back (the stored string), or null: none, not readable, or nothing typed. A draft kept before the
 * composer had the rich-text editor (`text`, plain) comes back as its paragraphs.
 */
export function parseLiveDraft(stored: string | null): StoredLiveComposerDraft | null {
  if (!stored) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const { doc, text, minute, eventType, keyEvent, pinned, savedAt } = value as Record<string, unknown>;
  if (typeof savedAt !== "string") return null;
  const body = isDoc(doc) ? doc : typeof text === "string" ? plainTextToDoc(text) : null;
  if (!body) return null;
  const draft = {
    doc: body,
    minute: typeof minute === "string" ? minute : "",
    eventType: isLiveEventType(eventType) ? eventType : ("" as const),
    keyEvent: keyEvent === true,
    pinned: pinned === true,
    savedAt,
  };
  return hasLiveDraftText(draft) ? draft : null;
}

function isDoc(value: unknown): value is RichDoc {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "doc" &&
    Array.isArray((value as { content?: unknown }).content)
  );
}
