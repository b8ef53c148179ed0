import { t } from "#app/i18n/newsroom.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import { AppError } from "#app/.server/errors.ts";
import { type LivePatch, type LiveUpdateInput, parseLivePatch, parseNewUpdate } from "./live-input.server.ts";

/**
 * The newsroom's live coverage controls as plain HTML forms (they work without JavaScript), posted to
 * POST /api/news/:id/live (routes/api/news-live-form.ts): what a form asks for, checked by the JSON API's own rules,
 * and the message the page shows once it is sent back there (`?cobertura=<outcome>`).
 */

import type { LiveFormNotice, LiveFormPage, LiveFormTexts } from "#app/lib/live-coverage.ts";

export { LIVE_FORM_ANCHOR, LIVE_FORM_PARAM } from "#app/lib/live-coverage.ts";

export type LiveFormRequest =
  | { kind: "update"; input: LiveUpdateInput; outcome: "posted" }
  | { kind: "coverage"; patch: LivePatch; outcome: "live" | "ended" | "off" | "scoreboard" | "announced" | "unannounced" };

/**
 * A form's fields, read by the JSON API's rules: a refusal is the same AppError (code, pt-BR message) it throws.
 * `timeZone` reads a kickoff typed on the site's clock.
 */
export function parseLiveForm(form: FormData, timeZone: string): LiveFormRequest {
  const intent = form.get("intent");
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  switch (intent) {
    case "post":
      return {
        kind: "update",
        input: parseNewUpdate({
          text: text("text") ?? null,
          keyEvent: form.has("keyEvent"),
          pinned: form.has("pinned"),
          minute: text("minute") ?? null,
          eventType: text("eventType") ?? null,
        }),
        outcome: "posted",
      };
    case "live":
      return { kind: "coverage", patch: parseLivePatch({ coverage: intent }, timeZone), outcome: intent };
    case "ended":
      // Asked first, as the panel's dialog does.
      if (!form.has("confirm")) throw new AppError("live_end_unconfirmed", t.liveNewsroom.endUnconfirmed, 400);
      return { kind: "coverage", patch: parseLivePatch({ coverage: intent }, timeZone), outcome: intent };
    case "off":
      // Asked first, as the panel's dialog does: the box says what happens to the updates.
      if (!form.has("confirm")) throw new AppError("live_off_unconfirmed", t.liveNewsroom.turnOffUnconfirmed, 400);
      return { kind: "coverage", patch: parseLivePatch({ coverage: null }, timeZone), outcome: "off" };
    case "scoreboard": {
      const score = (name: string) => {
        const value = text(name)?.trim() ?? "";
        return /^\d{1,6}$/.test(value) ? Number(value) : value;
      };
      const scoreboard = {
        home: text("home"),
        away: text("away"),
        homeScore: score("homeScore"),
        awayScore: score("awayScore"),
        period: text("period") ?? "",
      };
      return { kind: "coverage", patch: parseLivePatch({ scoreboard }, timeZone), outcome: "scoreboard" };
    }
    case "announce": {
      // A match before it starts: its teams (the scoreboard, 0 x 0) and when and where it is played.
      const scoreboard = { home: text("home"), away: text("away"), homeScore: 0, awayScore: 0, period: "" };
      const announcement = { kickoffAt: text("kickoffAt") ?? "", competition: text("competition") ?? "" };
      return { kind: "coverage", patch: parseLivePatch({ scoreboard, announcement }, timeZone), outcome: "announced" };
    }
    case "unannounce":
      return { kind: "coverage", patch: parseLivePatch({ announcement: null }, timeZone), outcome: "unannounced" };
    default:
      throw new AppError("live_form_invalid", t.liveNewsroom.failed, 400);
  }
}

const OUTCOMES: Record<string, string> = {
  posted: t.liveNewsroom.posted,
  live: t.liveNewsroom.started,
  ended: t.liveNewsroom.ended,
  off: t.liveNewsroom.turnedOff,
  scoreboard: t.liveNewsroom.scoreboardSaved,
  announced: t.liveNewsroom.announced,
  unannounced: t.liveNewsroom.unannounced,
  "posted-alert": t.deskAlerts.postedWithAlert,
};

const REFUSALS: Record<string, string> = {
  live_text_required: t.liveNewsroom.textRequired,
  live_text_too_long: t.liveNewsroom.textTooLong(LIVE_LIMITS.updateText),
  live_text_invalid: t.liveNewsroom.textInvalid,
  live_media_too_many: t.liveNewsroom.tooManyMedia(LIVE_LIMITS.updateMediaBlocks),
  live_minute_invalid: t.liveNewsroom.minuteInvalid(LIVE_LIMITS.minuteMax, LIVE_LIMITS.addedTimeMax),
  live_event_invalid: t.liveNewsroom.eventInvalid,
  scoreboard_invalid: t.liveNewsroom.scoreboardFormInvalid(LIVE_LIMITS.scoreMax, LIVE_LIMITS.period),
  coverage_off: t.liveNewsroom.coverageOff,
  live_off_unconfirmed: t.liveNewsroom.turnOffUnconfirmed,
  live_end_unconfirmed: t.liveNewsroom.endUnconfirmed,
  live_rate_limited: t.liveNewsroom.rateLimited(60),
  announcement_invalid: t.liveNewsroom.announcementFormInvalid(LIVE_LIMITS.competition),
  // The update is posted; only the alert did not go (said in words by the page).
  alert_not_public: `${t.liveNewsroom.posted} ${t.deskAlerts.notPublic}`,
  alert_already_sent: `${t.liveNewsroom.posted} ${t.deskAlerts.alreadySent}`,
  push_disabled: `${t.liveNewsroom.posted} ${t.deskAlerts.disabled}`,
};

/**
 * The message for `?cobertura=<value>` on the page a form went back to (what was done, or why what was sent was
 * refused; any other value: "Não foi possível salvar"), or null when there is none.
 */
export function liveFormNotice(value: string | null): LiveFormNotice | null {
  if (!value) return null;
  if (Object.hasOwn(OUTCOMES, value)) return { kind: "ok", message: OUTCOMES[value]! };
  return { kind: "error", message: Object.hasOwn(REFUSALS, value) ? REFUSALS[value]! : t.liveNewsroom.failed };
}

/** The forms' words, for the page's loader to send (components/news/live-forms.tsx has none of its own). */
export function liveFormTexts(page: LiveFormPage, options: { alerts?: boolean } = {}): LiveFormTexts {
  const texts = t.liveNewsroom;
  return {
    note: page === "edit" ? texts.noScriptNoteEdit : texts.noScriptNote,
    ...(options.alerts ? { alertOption: t.deskAlerts.updateOption } : {}),
    start: texts.start,
    end: texts.end,
    endConfirmBox: texts.endConfirmBox,
    resume: texts.resume,
    composerTitle: texts.composerTitle,
    textLabel: texts.textLabel,
    textHint: texts.textHint,
    minuteLabel: texts.minuteLabel,
    minuteHint: texts.minuteHint,
    eventLabel: texts.eventLabel,
    eventNone: texts.eventNone,
    keyEvent: texts.keyEvent,
    pinned: texts.pinned,
    post: texts.post,
    scoreboardTitle: texts.scoreboardTitle,
    home: texts.home,
    away: texts.away,
    homeScore: texts.homeScore,
    awayScore: texts.awayScore,
    period: texts.period,
    saveScoreboard: texts.saveScoreboard,
    turnOff: texts.turnOff,
    turnOffConfirmBox: texts.turnOffConfirmBox,
  };
}
