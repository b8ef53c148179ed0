import { t } from "./pt-BR.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();

function longDateFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "long", year: "numeric", timeZone });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * A creation date in long pt-BR form ("22 de novembro de 2026"). As the original did: a value that is not a
 * valid date is shown as it is, and a missing value as "Data não disponível".
 */
export function formatLongDate(value: string | null | undefined, timeZone: string): string {
  if (value === null || value === undefined || value.trim() === "") return t.article.dateUnavailable;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return longDateFormatter(timeZone).format(date);
}
