import type { RichDoc } from "./rich-text.ts";

/** What the news form's fields hold (the form's values; an autosave keeps them with a few more). */
export interface NewsFormValues {
  title: string;
  subtitle: string;
  /** The body as structured content (the editor's document; the textarea's text without JavaScript). */
  body: RichDoc;
  category: string;
  author: string;
  /** The image's description for screen readers (required with a new image), caption and credit. */
  mediaDescription: string;
  mediaCaption: string;
  mediaCredit: string;
  isHighlighted: boolean;
}

/**
 * The news form as an autosave keeps it: what was typed (the form's values), the schedule field, the story's version
 * the form was opened on, and when it was kept. The same shape in the browser (a new story, localStorage) and on the
 * server (an existing story, table news_autosaves).
 */
export interface NewsAutosaveView extends NewsFormValues {
  /** The schedule field as typed ("2026-11-25T10:00"), or "". */
  publishAt: string;
  /** The version the form was opened on (0 for a story never saved). */
  version: number;
  /** When it was kept: an ISO instant. */
  savedAt: string;
}

/** How long after the last keystroke the form is autosaved. */
export const AUTOSAVE_DELAY_MS = 3000;

/** The localStorage key of a new story's autosave, per user ("new": a story never saved). */
export function localAutosaveKey(userId: string | null | undefined): string {
  return `eef:autosave:${userId ?? "anon"}:new`;
}
