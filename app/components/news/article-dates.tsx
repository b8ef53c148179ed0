import type { DateLine } from "#app/lib/article-dates.ts";

/** The dated items of an article's header line ("Publicado em …", "Atualizado em …"), each a <span> of that line. */
export function ArticleDates({ lines }: { lines: readonly DateLine[] }) {
  return lines.map((line) => (
    <span key={line.label} data-testid="article-date">
      {line.label} <time dateTime={line.iso}>{line.text}</time>
    </span>
  ));
}
