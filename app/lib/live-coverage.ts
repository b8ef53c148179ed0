import type { MediaView } from "./media-view.ts";
import type { RichDoc } from "./rich-text.ts";

/**
 * A story's live coverage as the browser sees it (issue 20): its state, the scoreboard and the updates. The server
 * builds these (app/.server/news/live-coverage.server.ts); the article page and GET /api/news/:id/updates send them.
 */
export type CoverageState = "live" | "ended";

export interface Scoreboard {
  home: string;
  away: string;
  homeScore: number;
  awayScore: number;
  /** "1º tempo", "Intervalo", "Fim de jogo"; may be empty. */
  period: string;
}

export interface LiveCoverageInfo {
  state: CoverageState;
  startedAt: string | null;
  endedAt: string | null;
  scoreboard: Scoreboard | null;
}

export interface LiveUpdateView {
  id: string;
  body: RichDoc;
  /** The plain text (summaries, the tab, JSON-LD). */
  text: string;
  keyEvent: boolean;
  pinned: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A key event in the "Lances importantes" summary. */
export interface KeyEventView {
  id: string;
  createdAt: string;
  /** The update's first line, shortened. */
  summary: string;
}

/** One page of a story's updates: pinned and key events only on the first page (no cursor). */
export interface LiveUpdatesPage {
  coverage: LiveCoverageInfo | null;
  pinned: LiveUpdateView[];
  keyEvents: KeyEventView[];
  /** Newest first, pinned updates excluded. */
  updates: LiveUpdateView[];
  /** The next (older) page's cursor, or null at the end. */
  nextCursor: string | null;
  /** The images the updates' image blocks name. */
  media: Record<string, MediaView>;
}

/** What a `liveUpdated` event says (the SSE stream's data). */
export interface LiveChangeEvent {
  newsId: string;
  updateId?: string;
  change: "created" | "edited" | "deleted" | "scoreboard";
}

/** The element id of an update on the article page (the key events link to it). */
export const liveUpdateAnchor = (id: string) => `atualizacao-${id}`;

/** The first line of a text, at most `max` characters (with "…" when cut). */
export function summaryOf(text: string, max = 140): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The newsroom's plain HTML forms of the coverage (POST /api/news/:id/live) go back to the edit page with
 * `?cobertura=` what happened, at the controls (`#cobertura-ao-vivo`).
 */
export const LIVE_FORM_PARAM = "cobertura";
export const LIVE_FORM_ANCHOR = "cobertura-ao-vivo";

/**
 * The words of those forms, sent by the page's loader (the newsroom's texts stay out of the readers' JavaScript: the
 * article page draws the forms for a signed-in newsroom member only, before hydration).
 */
export interface LiveFormTexts {
  note: string;
  start: string;
  end: string;
  endConfirmBox: string;
  resume: string;
  composerTitle: string;
  textLabel: string;
  textHint: string;
  keyEvent: string;
  pinned: string;
  post: string;
  scoreboardTitle: string;
  home: string;
  away: string;
  homeScore: string;
  awayScore: string;
  period: string;
  saveScoreboard: string;
  turnOff: string;
  turnOffConfirmBox: string;
}

/** What the last form sent did, said on the page it went back to. */
export interface LiveFormNotice {
  kind: "ok" | "error";
  message: string;
}

/** The page a form goes back to (`back`): the story's article, or its edit page. */
export type LiveFormPage = "article" | "edit";
