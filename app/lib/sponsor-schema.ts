import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "./clean-text.ts";
import { SPONSOR_LIMITS } from "./limits.ts";
import { type FieldErrors, z } from "./zod.ts";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The pt-BR problem with a sponsor link, or null: https only, a host, no user or password in it. */
export function sponsorLinkProblem(value: string): string | null {
  if (value.length > SPONSOR_LIMITS.link) return t.sponsors.linkTooLong;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return t.sponsors.linkHttps;
  }
  if (url.protocol !== "https:" || !url.hostname) return t.sponsors.linkHttps;
  if (url.username || url.password) return t.sponsors.linkCredentials;
  return null;
}

const optionalDate = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isCalendarDate(value), { error: t.sponsors.dateInvalid });

/**
 * A sponsor's fields, as the manager's forms and the JSON API send them (text; an empty link or date clears it).
 * The link is kept as typed (trimmed), once it is a valid https address.
 */
export const sponsorFieldsSchema = z
  .object({
    // Cleaned as the newsroom's texts are (a name pasted from a web page loses its invisible characters), then checked.
    name: z
      .string({ error: t.sponsors.nameRequired })
      .transform((value) => cleanText(value, { lines: false }).trim())
      .pipe(
        z
          .string()
          .min(1, { error: t.sponsors.nameRequired })
          .max(SPONSOR_LIMITS.name, { error: t.sponsors.nameTooLong })
          .superRefine((value, context) => {
            const unsaveable = findUnsaveableCharacter(value);
            if (unsaveable) {
              context.addIssue({
                code: "custom",
                message: t.newsForm.unsaveableCharacter(t.sponsors.nameLabel, unsaveable.word, unsaveable.codePoint),
              });
            }
          }),
      ),
    link: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value ? value : null))
      .superRefine((value, context) => {
        const problem = value === null ? null : sponsorLinkProblem(value);
        if (problem) context.addIssue({ code: "custom", message: problem });
      }),
    activeFrom: optionalDate,
    activeUntil: optionalDate,
  })
  .superRefine((value, context) => {
    if (value.activeFrom && value.activeUntil && value.activeUntil < value.activeFrom) {
      context.addIssue({ code: "custom", path: ["activeUntil"], message: t.sponsors.untilBeforeFrom });
    }
  });

export type SponsorFields = z.infer<typeof sponsorFieldsSchema>;

/** Today's calendar date (YYYY-MM-DD) in `timeZone`. */
export function calendarDateIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}
/** One formatter per time zone (making one costs more than the sponsor query it dates). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Whether a sponsor with this window is shown to readers on `today` (YYYY-MM-DD; both ends included). */
export function isSponsorActive(window: { activeFrom: string | null; activeUntil: string | null }, today: string): boolean {
  return (window.activeFrom === null || window.activeFrom <= today) && (window.activeUntil === null || window.activeUntil >= today);
}

/** What a post of the sponsor page (/SponsorManager) asks for: its forms' `intent`. */
export type SponsorIntent = "add" | "update" | "move" | "delete";

/**
 * What the sponsor page's action answers: which form and sponsor it was about, the success or error text, the
 * fields' errors, and `confirm` (without JavaScript, a delete first comes back as a confirmation step).
 */
export interface SponsorActionResult {
  intent: SponsorIntent;
  id: string | null;
  ok: string | null;
  error: string | null;
  fields: FieldErrors | null;
  confirm?: boolean;
}
