/**
 * Wall-clock times in the site's time zone (TIME_ZONE, e.g. America/Sao_Paulo) ↔ instants, for the schedule field:
 * editors pick "25/11/2026 10:00" meaning the site's clock, whatever their browser's zone.
 */

/** "YYYY-MM-DDTHH:mm" (what `<input type="datetime-local">` sends), seconds optional, no zone. */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
/** An ISO 8601 instant with its zone (`Z` or `±HH:MM`). */
export const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function wallClockParts(instant: number, timeZone: string): number[] {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return [get("year"), get("month"), get("day"), get("hour"), get("minute"), get("second")];
}

/** How far the zone's clock is ahead of UTC at `instant`, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  const [year, month, day, hour, minute, second] = wallClockParts(instant, timeZone) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a schedule value names: with a zone (`Z`, `-03:00`) as written, without one on the site's clock.
 * Null when the value is not a date and time (or not a real one, like 31/02).
 */
export function parsePublishAt(value: string, timeZone: string): Date | null {
  if (ZONED_DATE_TIME.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The offset at the guess, then again at the result (a guess across a daylight-saving change).
  let instant = wall - zoneOffset(wall, timeZone);
  const second_ = wall - zoneOffset(instant, timeZone);
  if (second_ !== instant) instant = second_;
  return new Date(instant);
}

/** An instant as the schedule field shows it: "YYYY-MM-DDTHH:mm" on the site's clock. */
export function toLocalInputValue(iso: string, timeZone: string): string {
  const [year, month, day, hour, minute] = wallClockParts(new Date(iso).getTime(), timeZone);
  const pad = (n: number | undefined) => String(n).padStart(2, "0");
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}`;
}
