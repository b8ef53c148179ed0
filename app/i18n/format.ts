import { boundedMemo } from "#app/lib/bounded-memo.ts";
import { t } from "./pt-BR.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per kind and time zone: making an Intl.DateTimeFormat costs more than rendering a page's cards. */
function formatter(kind: "long" | "year" | "dateTime" | "time" | "day", timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached =
      kind === "long"
        ? new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "long", year: "numeric", timeZone })
        : kind === "time"
          ? new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone })
          : kind === "day"
            ? new Intl.DateTimeFormat("en", { day: "2-digit", month: "2-digit", year: "numeric", timeZone })
            : kind === "dateTime"
              ? new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone })
              : new Intl.DateTimeFormat("en", { year: "numeric", timeZone });
    formatters.set(key, cached);
  }
  return cached;
}

/** The current year in the site's time zone (the footer's copyright line). */
export function currentYear(timeZone: string, now = new Date()): number {
  return Number(formatter("year", timeZone).format(now));
}

/**
 * A creation date in long pt-BR form ("22 de novembro de 2026"). As the original did: a value that is not a
 * valid date is shown as it is, and a missing value as "Data não disponível".
 */
export function formatLongDate(value: string | null | undefined, timeZone: string): string {
  if (value === null || value === undefined || value.trim() === "") return t.article.dateUnavailable;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatter("long", timeZone).format(date);
}

/** A date and time on the site's clock, "25/11/2026 às 10:00" (when a scheduled item goes live). */
export function formatDateTime(value: string, timeZone: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const parts = formatter("dateTime", timeZone).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return t.formats.dateTime(`${get("day")}/${get("month")}/${get("year")}`, `${get("hour")}:${get("minute")}`);
}

/**
 * A date in long form with its time of day on the site's clock, "25 de novembro de 2026, 14:05" (the article's
 * publication and update lines). A value that is not a date is shown as it is, like formatLongDate.
 */
export function formatLongDateTime(value: string, timeZone: string): string {
  const date = new Date(value);
  if (value.trim() === "" || Number.isNaN(date.getTime())) return formatLongDate(value, timeZone);
  return t.formats.longDateTime(formatter("long", timeZone).format(date), formatTime(value, timeZone));
}

/** A time of day on the site's clock, "14:32" (when the news form was last autosaved). */
export function formatTime(value: string, timeZone: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const parts = formatter("time", timeZone).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("hour")}:${get("minute")}`;
}

/**
 * A match's kickoff on the site's clock: the time alone on the day of `now` ("16:00"), the day and time otherwise
 * ("30/11, 16:00").
 */
export function formatKickoff(value: string, now: Date, timeZone: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const day = dayOf(date, timeZone);
  if (day === dayOf(now, timeZone)) return formatTime(value, timeZone);
  return `${day.slice(0, 5)}, ${formatTime(value, timeZone)}`;
}

/** The calendar day of `date` on the site's clock, "25/11/2026" (digits only, the same in every ICU build). */
function dayOf(date: Date, timeZone: string): string {
  const parts = formatter("day", timeZone).formatToParts(date);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("day")}/${get("month")}/${get("year")}`;
}

/**
 * dayOf for a stored timestamp, remembered (key: time zone and the value's milliseconds): each card's day was 2.5 %
 * of an uncached home's CPU, for the same few hundred stories on every render.
 */
const dayOfTime = boundedMemo((key) => {
  const separator = key.indexOf("|");
  return dayOf(new Date(Number(key.slice(separator + 1))), key.slice(0, separator));
});

/**
 * A card's time: relative when published today on the site's clock ("agora", "há 5 min", "há 2 h"), the date
 * otherwise ("25/11/2026"). `now` is the time of the request the page was rendered for (the root loader's), so the
 * server's HTML and the hydrated page say the same thing.
 */
export function formatCardTime(value: string, now: string, timeZone: string): string {
  const date = new Date(value);
  const at = new Date(now);
  if (Number.isNaN(date.getTime())) return value;
  const day = dayOfTime(`${timeZone}|${date.getTime()}`);
  const elapsed = at.getTime() - date.getTime();
  if (Number.isNaN(at.getTime()) || elapsed < 0 || day !== dayOfTime(`${timeZone}|${at.getTime()}`)) return day;
  const minutes = Math.floor(elapsed / 60_000);
  if (minutes < 1) return t.formats.justNow;
  if (minutes < 60) return t.formats.minutesAgo(minutes);
  return t.formats.hoursAgo(Math.floor(minutes / 60));
}
