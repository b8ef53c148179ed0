import { LIVE_LIMITS } from "./limits.ts";
import type { MediaView } from "./media-view.ts";
import type { RichDoc } from "./rich-text.ts";

/**
 * A story's live coverage as the browser sees it (issue 20): its state, the scoreboard and the updates. The server
 * builds these (app/.server/news/live/live-coverage.server.ts); the article page and GET /api/news/:id/updates send them.
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

/** A story's stored scoreboard (the `live_scoreboard` column, JSON), or null when it has none or it cannot be read. */
export function storedScoreboard(json: string | null | undefined): Scoreboard | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as Scoreboard;
  } catch {
    return null;
  }
}

/** A match's score on a story's card (home, lists, search, "Leia também"): "AO VIVO 2–1, 2º tempo", "Encerrado 2–1". */
export interface CardScore extends Scoreboard {
  state: CoverageState;
}

/** A match announced before it starts, as the edit page's form shows it (kickoff: an instant, ISO-8601). */
export interface AnnouncedMatch {
  kickoffAt: string;
  competition: string | null;
  home: string;
  away: string;
}

/** A match of the strip: announced and waiting for its kickoff ("next"), under live coverage, or ended. */
export type MatchState = CoverageState | "next";

/**
 * A match in the "Jogos de hoje" strip (home, sections): its story, the teams and score, and when its coverage
 * started (for a match still to come: its kickoff).
 */
export interface MatchOfTheDay {
  id: string;
  title: string;
  score: Scoreboard & { state: MatchState };
  startedAt: string;
  /** As announced ("Brasileirão"), or null. */
  competition: string | null;
}

/** How many matches the strip shows at most. */
export const MATCH_STRIP_MAX = 8;

/**
 * The strip's matches at `now`: those live now (newest first), then those still to come whose kickoff is on the site's
 * calendar day of `now` (soonest first), then those of that day that ended (newest first); at most MATCH_STRIP_MAX. (The server keeps a day and a half of them;
 * the day is decided here, at each render, so a page kept across midnight does not show yesterday's.)
 */
export function matchesOfTheDay(matches: readonly MatchOfTheDay[], now: Date, timeZone: string): MatchOfTheDay[] {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const today = day.format(now);
  const newestFirst = [...matches].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const live = newestFirst.filter((match) => match.score.state === "live");
  const isToday = (match: MatchOfTheDay) => day.format(new Date(match.startedAt)) === today;
  const next = newestFirst.filter((match) => match.score.state === "next" && isToday(match)).reverse();
  const ended = newestFirst.filter((match) => match.score.state === "ended" && isToday(match));
  return [...live, ...next, ...ended].slice(0, MATCH_STRIP_MAX);
}

/**
 * A club page's matches at `now`: those live now, then every one still to come that the server read (soonest
 * first, whatever the day), then those that ended on the site's calendar day of `now`; at most MATCH_STRIP_MAX.
 */
export function matchesOfClub(matches: readonly MatchOfTheDay[], now: Date, timeZone: string): MatchOfTheDay[] {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const today = day.format(now);
  const newestFirst = [...matches].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const live = newestFirst.filter((match) => match.score.state === "live");
  const next = newestFirst.filter((match) => match.score.state === "next" && day.format(new Date(match.startedAt)) >= today).reverse();
  const ended = newestFirst.filter((match) => match.score.state === "ended" && day.format(new Date(match.startedAt)) === today);
  return [...live, ...next, ...ended].slice(0, MATCH_STRIP_MAX);
}

export interface LiveCoverageInfo {
  state: CoverageState;
  startedAt: string | null;
  /** The coverage's last change (an update posted, the score), or null. */
  updatedAt: string | null;
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
  /** The match minute it happened at, as written: "32", "45+2" (formatMatchMinute), or null. */
  minute: string | null;
  /** What happened (a goal, a card…), or null: an ordinary update. */
  eventType: LiveEventType | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A key event in the "Lances importantes" summary: an update with an event type (a goal, a card…) or marked "Lance
 * importante", ordered by the match minute (orderKeyEvents).
 */
export interface KeyEventView {
  id: string;
  createdAt: string;
  /** The update's first line, shortened. */
  summary: string;
  minute: string | null;
  eventType: LiveEventType | null;
}

/**
 * What an update tells of the match (issue 33): the events a football match is told by. Stored as these codes (the
 * API's `eventType`); the words readers see are `t.live.events`, the symbols LIVE_EVENT_ICONS.
 */
export const LIVE_EVENT_TYPES = ["goal", "yellow_card", "red_card", "substitution", "kickoff", "half_time", "full_time"] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export function isLiveEventType(value: unknown): value is LiveEventType {
  return typeof value === "string" && (LIVE_EVENT_TYPES as readonly string[]).includes(value);
}

/** The symbol shown before an event's name ("32' ⚽ Gol"); never read out (the words say it). */
export const LIVE_EVENT_ICONS: Record<LiveEventType, string> = {
  goal: "\u26BD",
  yellow_card: "\u{1F7E8}",
  red_card: "\u{1F7E5}",
  substitution: "\u{1F501}",
  kickoff: "\u23F1\uFE0F",
  half_time: "\u23F8\uFE0F",
  full_time: "\u{1F3C1}",
};

/** A match minute: 0–130, and the added time after it ("45+2": minute 45, added 2), or null. */
export interface MatchMinute {
  minute: number;
  added: number | null;
}

/**
 * A minute as a reporter types it: "32", "45+2", with or without the sign after it ("32'", "32’") and spaces around
 * the "+". `null` for nothing typed; `"invalid"` for anything else, a minute over LIVE_LIMITS.minuteMax, added time
 * outside 1–LIVE_LIMITS.addedTimeMax or after minute 0. The server's check (live-input.server.ts) and the forms use it.
 */
export function parseMatchMinute(value: string): MatchMinute | null | "invalid" {
  const typed = value
    .trim()
    .replace(/\s*\+\s*/, "+")
    .replace(/['’′]$/, "");
  if (typed === "") return null;
  const match = /^(\d{1,3})(?:\+(\d{1,2}))?$/.exec(typed);
  if (!match) return "invalid";
  const minute = Number(match[1]);
  const added = match[2] === undefined ? null : Number(match[2]);
  if (minute > LIVE_LIMITS.minuteMax) return "invalid";
  if (added !== null && (added < 1 || added > LIVE_LIMITS.addedTimeMax || minute < 1)) return "invalid";
  return { minute, added };
}

/** "32", "45+2": how a minute is written (the API's `minute`, the forms' value). */
export function formatMatchMinute(minute: MatchMinute): string {
  return minute.added === null ? String(minute.minute) : `${minute.minute}+${minute.added}`;
}

/**
 * The key events in the order readers read them, as the updates are: the latest in the match first. An event with a
 * minute goes by its minute (and added time); one without (a "Lance importante" marked without a minute, an update
 * of before minutes existed) goes by when it was posted, at the furthest minute posted before it (the match clock
 * only moves forward), after the events of that minute. Ties: the last posted first. Without any minute this is
 * newest first, as the summary always was.
 */
export function orderKeyEvents<T extends { id: string; createdAt: string; match: MatchMinute | null }>(events: readonly T[]): T[] {
  const posted = [...events].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
  let furthest: [number, number] = [-1, 0];
  const placed = posted.map((event, index) => {
    const own: [number, number] | null = event.match ? [event.match.minute, event.match.added ?? 0] : null;
    if (own && (own[0] > furthest[0] || (own[0] === furthest[0] && own[1] > furthest[1]))) furthest = own;
    return { event, at: own ?? furthest, index };
  });
  return placed.sort((a, b) => b.at[0] - a.at[0] || b.at[1] - a.at[1] || b.index - a.index).map((each) => each.event);
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

/**
 * What a `liveUpdated` event says (the SSE stream's data): which story, which update, what happened, and when it is
 * small enough (LIVE_EVENT_INLINE_BYTES) what the open pages need to show it without asking the server: the new
 * update and the images it names (`created`), the coverage as it is after the change (every change). An event without
 * them makes the open pages fetch the first page of updates (GET /api/news/:id/updates).
 */
export interface LiveChangeEvent {
  newsId: string;
  updateId?: string;
  change: "created" | "edited" | "deleted" | "scoreboard";
  update?: LiveUpdateView;
  media?: Record<string, MediaView>;
  coverage?: LiveCoverageInfo | null;
}

/**
 * The largest content a `liveUpdated` event carries, in bytes of JSON: ten thousand open pages each get it, and
 * PostgreSQL's NOTIFY (how other instances hear it) refuses 8 000 bytes with the story's paths. A longer update goes
 * without its content and the pages fetch it.
 */
export const LIVE_EVENT_INLINE_BYTES = 6_000;

/** Newest posted first (two in the same millisecond: the greater id first), as the updates' list reads them. */
export const byNewest = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

/** A key event of the summary, from its update. */
export function keyEventOf(update: Pick<LiveUpdateView, "id" | "createdAt" | "text" | "minute" | "eventType">): KeyEventView {
  return { id: update.id, createdAt: update.createdAt, summary: summaryOf(update.text), minute: update.minute, eventType: update.eventType };
}

/** Whether an update is in the key events' summary: it has an event type or is marked "Lance importante". */
export const isKeyEvent = (update: Pick<LiveUpdateView, "keyEvent" | "eventType">) => update.keyEvent || update.eventType !== null;

/**
 * The summary with one more key event, as the server would list it: the newest LIVE_LIMITS.keyEvents posted, in
 * the match's order (orderKeyEvents).
 */
export function withKeyEvent(events: readonly KeyEventView[], added: KeyEventView): KeyEventView[] {
  const newestPosted = [...events.filter((each) => each.id !== added.id), added].sort(byNewest).slice(0, LIVE_LIMITS.keyEvents);
  const withMatch = newestPosted.map((event) => {
    const match = event.minute === null ? null : parseMatchMinute(event.minute);
    return { event, id: event.id, createdAt: event.createdAt, match: match === "invalid" ? null : match };
  });
  return orderKeyEvents(withMatch).map((each) => each.event);
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
  /** "Enviar como alerta": only for who may send alerts (editors and admins, alerts on); absent: no such box. */
  alertOption?: string;
  start: string;
  end: string;
  endConfirmBox: string;
  resume: string;
  composerTitle: string;
  textLabel: string;
  textHint: string;
  minuteLabel: string;
  minuteHint: string;
  eventLabel: string;
  eventNone: string;
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
