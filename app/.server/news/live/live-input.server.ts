import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "#app/lib/clean-text.ts";
import {
  type CoverageState,
  isLiveEventType,
  type LiveEventType,
  type MatchMinute,
  parseMatchMinute,
  type Scoreboard,
} from "#app/lib/live-coverage.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import { parsePublishAt } from "#app/lib/zoned-time.ts";
import type { RichBlock, RichDoc } from "#app/lib/rich-text.ts";
import { docToPlainText, isEmptyDoc, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { checkRichDoc } from "#app/lib/rich-text-schema.ts";
import { AppError, FieldsError } from "#app/.server/errors.ts";

/**
 * The JSON bodies of the live coverage API, checked (issue 20): each refusal is a 400 with a stable code, the pt-BR
 * message and the field it concerns (`error.fields`).
 */

/**
 * A new update: `text` (plain text, or the rich document as an object, like a news body), `keyEvent`, `pinned`, and
 * what it tells of the match: `minute` ("32", "45+2", or a whole number; null or "" for none) and `eventType` (one of
 * LIVE_EVENT_TYPES; null or "" for an ordinary update).
 */
export interface LiveUpdateInput {
  body: RichDoc;
  text: string;
  keyEvent: boolean;
  pinned: boolean;
  match: MatchMinute | null;
  eventType: LiveEventType | null;
}

const refuse = (code: string, field: string, message: string) => new FieldsError(code, { [field]: [message] });

function countMediaBlocks(blocks: RichBlock[]): number {
  let count = 0;
  for (const block of blocks) {
    if (block.type === "image" || block.type === "embed") count++;
    else if (block.type === "blockquote") count += countMediaBlocks(block.content);
    else if (block.type === "bulletList" || block.type === "orderedList") for (const item of block.content) count += countMediaBlocks(item.content);
  }
  return count;
}

/** An update's text: plain text (paragraphs split by a blank line) or a rich document, held to the body's rules. */
export function parseUpdateText(value: unknown): { body: RichDoc; text: string } {
  if (typeof value !== "string" && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw refuse(
      value === undefined || value === null ? "live_text_required" : "invalid_field_type",
      "text",
      value == null ? t.liveNewsroom.textRequired : t.api.fieldType("text"),
    );
  }
  if (typeof value === "string" && value.length > LIVE_LIMITS.updateJsonChars)
    throw refuse("live_text_too_long", "text", t.liveNewsroom.textTooLong(LIVE_LIMITS.updateText));
  if (typeof value === "object" && JSON.stringify(value).length > LIVE_LIMITS.updateJsonChars) {
    throw refuse("live_text_too_long", "text", t.liveNewsroom.textTooLong(LIVE_LIMITS.updateText));
  }
  // Cleaned like a story's body (app/lib/clean-text.ts): NUL, ESC, direction marks and the like are dropped.
  const checked = checkRichDoc(typeof value === "string" ? plainTextToDoc(cleanText(value)) : value);
  // The schema's generic refusal names the story's "conteúdo completo": an update's says "o texto da atualização".
  if (!checked.ok) throw refuse("live_text_invalid", "text", checked.message === t.richText.invalid ? t.liveNewsroom.textInvalid : checked.message);
  const body = checked.doc;
  if (isEmptyDoc(body)) throw refuse("live_text_required", "text", t.liveNewsroom.textRequired);
  const text = docToPlainText(body);
  const unsaveable = findUnsaveableCharacter(text);
  if (unsaveable) {
    throw refuse("live_text_invalid", "text", t.newsForm.unsaveableCharacter(t.liveNewsroom.textLabel, unsaveable.word, unsaveable.codePoint));
  }
  if (text.length > LIVE_LIMITS.updateText) throw refuse("live_text_too_long", "text", t.liveNewsroom.textTooLong(LIVE_LIMITS.updateText));
  if (countMediaBlocks(body.content) > LIVE_LIMITS.updateMediaBlocks) {
    throw refuse("live_media_too_many", "text", t.liveNewsroom.tooManyMedia(LIVE_LIMITS.updateMediaBlocks));
  }
  return { body, text };
}

function flag(body: Record<string, unknown>, field: "keyEvent" | "pinned"): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw refuse("invalid_field_type", field, t.liveNewsroom.flag(field));
  return value;
}

/**
 * The match minute sent: undefined when not sent; null for none (null or ""); a whole number or a text such as "32"
 * or "45+2" (parseMatchMinute). Anything else is refused with the field's pt-BR message.
 */
export function parseMinute(value: unknown): MatchMinute | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const typed = typeof value === "number" && Number.isInteger(value) ? String(value) : typeof value === "string" ? value : null;
  const parsed = typed === null ? "invalid" : parseMatchMinute(typed);
  if (parsed === "invalid")
    throw refuse("live_minute_invalid", "minute", t.liveNewsroom.minuteInvalid(LIVE_LIMITS.minuteMax, LIVE_LIMITS.addedTimeMax));
  return parsed;
}

/** The event type sent: undefined when not sent; null for an ordinary update (null or ""); one of LIVE_EVENT_TYPES. */
export function parseEventType(value: unknown): LiveEventType | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  if (!isLiveEventType(value)) throw refuse("live_event_invalid", "eventType", t.liveNewsroom.eventInvalid);
  return value;
}

/** POST /api/news/:id/updates. */
export function parseNewUpdate(body: Record<string, unknown>): LiveUpdateInput {
  const { body: doc, text } = parseUpdateText(body.text);
  return {
    body: doc,
    text,
    keyEvent: flag(body, "keyEvent") ?? false,
    pinned: flag(body, "pinned") ?? false,
    match: parseMinute(body.minute) ?? null,
    eventType: parseEventType(body.eventType) ?? null,
  };
}

/** PATCH /api/news/:id/updates/:updateId: only the fields sent; at least one (`minute` / `eventType` null: removed). */
export function parseUpdatePatch(body: Record<string, unknown>): Partial<LiveUpdateInput> {
  const patch: Partial<LiveUpdateInput> = {};
  if (body.text !== undefined) Object.assign(patch, parseUpdateText(body.text));
  const keyEvent = flag(body, "keyEvent");
  const pinned = flag(body, "pinned");
  const match = parseMinute(body.minute);
  const eventType = parseEventType(body.eventType);
  if (keyEvent !== undefined) patch.keyEvent = keyEvent;
  if (pinned !== undefined) patch.pinned = pinned;
  if (match !== undefined) patch.match = match;
  if (eventType !== undefined) patch.eventType = eventType;
  if (Object.keys(patch).length === 0) throw new AppError("empty_patch", t.api.emptyPatch, 400);
  return patch;
}

/**
 * A match announced before it starts: its kickoff (an instant; "YYYY-MM-DDTHH:mm" is on the site's clock) and its
 * competition (may be empty). At the kickoff the coverage turns live by itself (news-scheduler.server.ts).
 */
export interface MatchAnnouncement {
  kickoffAt: string;
  competition: string | null;
}

/** The live fields of PATCH /api/news/:id: `coverage`, `scoreboard` and/or `announcement`. */
export interface LivePatch {
  coverage?: CoverageState | null;
  scoreboard?: Scoreboard | null;
  announcement?: MatchAnnouncement | null;
}

const LIVE_FIELDS = ["coverage", "scoreboard", "announcement"];

/** Whether a PATCH /api/news/:id body is a live coverage change (it names `coverage`, `scoreboard` or `announcement`). */
export function isLivePatch(body: Record<string, unknown>): boolean {
  return LIVE_FIELDS.some((field) => field in body);
}

/** `announcement`: `{ kickoffAt, competition? }`, or null (no announcement). `timeZone` reads a kickoff without a zone. */
function parseAnnouncement(value: unknown, timeZone: string): MatchAnnouncement | null {
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw refuse("announcement_invalid", "announcement", t.liveNewsroom.kickoffInvalid);
  const raw = value as Record<string, unknown>;
  const kickoff = typeof raw.kickoffAt === "string" ? parsePublishAt(raw.kickoffAt.trim(), timeZone) : null;
  if (!kickoff) throw refuse("announcement_invalid", "announcement.kickoffAt", t.liveNewsroom.kickoffInvalid);
  const competitionValue = raw.competition ?? "";
  if (typeof competitionValue !== "string") throw refuse("announcement_invalid", "announcement.competition", t.api.fieldType("competition"));
  const competition = cleanText(competitionValue, { lines: false }).trim();
  if (competition.length > LIVE_LIMITS.competition) {
    throw refuse("announcement_invalid", "announcement.competition", t.liveNewsroom.competitionTooLong(LIVE_LIMITS.competition));
  }
  const unsaveable = findUnsaveableCharacter(competition);
  if (unsaveable) {
    throw refuse(
      "announcement_invalid",
      "announcement.competition",
      t.newsForm.unsaveableCharacter(t.liveNewsroom.competitionLabel, unsaveable.word, unsaveable.codePoint),
    );
  }
  return { kickoffAt: kickoff.toISOString(), competition: competition || null };
}

export function parseLivePatch(body: Record<string, unknown>, timeZone: string): LivePatch {
  const extra = Object.keys(body).filter((key) => !LIVE_FIELDS.includes(key));
  if (extra.length > 0) throw new AppError("live_patch_mixed", t.liveNewsroom.mixedPatch, 400);
  const patch: LivePatch = {};
  if ("coverage" in body) {
    const value = body.coverage;
    if (value !== null && value !== "live" && value !== "ended") throw refuse("coverage_invalid", "coverage", t.liveNewsroom.coverageInvalid);
    patch.coverage = value;
  }
  if ("scoreboard" in body) patch.scoreboard = body.scoreboard === null ? null : parseScoreboard(body.scoreboard);
  if ("announcement" in body) patch.announcement = parseAnnouncement(body.announcement, timeZone);
  return patch;
}

function teamName(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "") throw refuse("scoreboard_invalid", `scoreboard.${field}`, t.liveNewsroom.teamRequired);
  const name = cleanText(value, { lines: false }).trim();
  if (name === "") throw refuse("scoreboard_invalid", `scoreboard.${field}`, t.liveNewsroom.teamRequired);
  if (name.length > LIVE_LIMITS.teamName) throw refuse("scoreboard_invalid", `scoreboard.${field}`, t.liveNewsroom.teamTooLong(LIVE_LIMITS.teamName));
  const unsaveable = findUnsaveableCharacter(name);
  if (unsaveable) {
    throw refuse(
      "scoreboard_invalid",
      `scoreboard.${field}`,
      t.newsForm.unsaveableCharacter(t.liveNewsroom.teamLabel, unsaveable.word, unsaveable.codePoint),
    );
  }
  return name;
}

function score(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > LIVE_LIMITS.scoreMax) {
    throw refuse("scoreboard_invalid", `scoreboard.${field}`, t.liveNewsroom.scoreInvalid(LIVE_LIMITS.scoreMax));
  }
  return value;
}

function parseScoreboard(value: unknown): Scoreboard {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw refuse("scoreboard_invalid", "scoreboard", t.liveNewsroom.scoreboardInvalid);
  const raw = value as Record<string, unknown>;
  const period = raw.period ?? "";
  if (typeof period !== "string") throw refuse("scoreboard_invalid", "scoreboard.period", t.liveNewsroom.scoreboardInvalid);
  const periodText = cleanText(period, { lines: false }).trim();
  if (periodText.length > LIVE_LIMITS.period)
    throw refuse("scoreboard_invalid", "scoreboard.period", t.liveNewsroom.periodTooLong(LIVE_LIMITS.period));
  const unsaveable = findUnsaveableCharacter(periodText);
  if (unsaveable) {
    throw refuse(
      "scoreboard_invalid",
      "scoreboard.period",
      t.newsForm.unsaveableCharacter(t.liveNewsroom.periodLabel, unsaveable.word, unsaveable.codePoint),
    );
  }
  return {
    home: teamName(raw.home, "home"),
    away: teamName(raw.away, "away"),
    homeScore: score(raw.homeScore, "homeScore"),
    awayScore: score(raw.awayScore, "awayScore"),
    period: periodText,
  };
}
