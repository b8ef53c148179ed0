import { formatLongDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import type { NewsArticle } from "./news-view.ts";

/** One dated line of an article's header: its words and the instant it names. */
export interface DateLine {
  label: string;
  iso: string;
  text: string;
}

/**
 * The dates an article's header shows, on the site's clock with the time of day. Published: "Publicado em …" (its
 * first publication, kept when it went offline and back) and, whenever its title, subtitle or body changed after
 * that, "Atualizado em …" with when (a save that changed nothing readers read, like the highlight, says nothing). A
 * story readers do not see yet never says "Publicado em": a scheduled one says when it will go out, a draft (or one
 * in review) when it was last saved.
 */
export function articleDateLines(article: Pick<NewsArticle, "status" | "publishedAt" | "updatedAt" | "textUpdatedAt">, timeZone: string): DateLine[] {
  const line = (label: string, iso: string): DateLine => ({ label, iso, text: formatLongDateTime(iso, timeZone) });
  if (article.status === "scheduled") return [line(t.article.scheduledFor, article.publishedAt)];
  if (article.status === "draft") return [line(t.article.draftSavedOn, article.updatedAt)];
  if (article.status === "review") return [line(t.article.reviewSavedOn, article.updatedAt)];
  const lines = [line(t.article.publishedOn, article.publishedAt)];
  if (article.textUpdatedAt && Date.parse(article.textUpdatedAt) > Date.parse(article.publishedAt)) {
    lines.push(line(t.article.updatedOn, article.textUpdatedAt));
  }
  return lines;
}

/**
 * The publication date a list of the newsroom shows for a story (the "Publicação" column of /redacao): when it went
 * out (published) or will (scheduled); none for a draft or a story in review, which readers do not have (their
 * stored date is only when they became one: their place in the list), whether or not they were published before.
 */
export function listedPublicationDate(story: Pick<NewsArticle, "status" | "publishedAt">): string | null {
  return story.status === "published" || story.status === "scheduled" ? story.publishedAt : null;
}

/**
 * When what readers read of a story last changed: the latest of its publication, its last text change (title,
 * subtitle, body) and, for a live story, its coverage's last update — never a save that changed nothing they read
 * (the highlight, a move to and from the Lixeira). The one date behind `dateModified`, `article:modified_time`, the
 * feeds' `dcterms:modified` and the sitemaps' `lastmod`. ISO-8601 strings of one format compare as dates.
 */
export function lastReaderChange(story: { publishedAt: string; textUpdatedAt?: string | null; liveUpdatedAt?: string | null }): string {
  let last = story.publishedAt;
  for (const date of [story.textUpdatedAt, story.liveUpdatedAt]) if (date && date > last) last = date;
  return last;
}
