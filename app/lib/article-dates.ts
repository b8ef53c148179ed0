import { formatLongDateTime } from "../i18n/format.ts";
import { t } from "../i18n/pt-BR.ts";
import { ARTICLE_UPDATED_AFTER_MS } from "./limits.ts";
import type { NewsArticle } from "./news-view.ts";

/** One dated line of an article's header: its words and the instant it names. */
export interface DateLine {
  label: string;
  iso: string;
  text: string;
}

/**
 * The dates an article's header shows, on the site's clock with the time of day. Published: "Publicado em …" and,
 * when saved again well after it went out, "Atualizado em …". A story readers do not see yet never says "Publicado
 * em": a scheduled one says when it will go out, a draft (or one in review) when it was last saved.
 */
export function articleDateLines(article: Pick<NewsArticle, "status" | "publishedAt" | "updatedAt">, timeZone: string): DateLine[] {
  const line = (label: string, iso: string): DateLine => ({ label, iso, text: formatLongDateTime(iso, timeZone) });
  if (article.status === "scheduled") return [line(t.article.scheduledFor, article.publishedAt)];
  if (article.status === "draft") return [line(t.article.draftSavedOn, article.updatedAt)];
  if (article.status === "review") return [line(t.article.reviewSavedOn, article.updatedAt)];
  const lines = [line(t.article.publishedOn, article.publishedAt)];
  const published = Date.parse(article.publishedAt);
  const updated = Date.parse(article.updatedAt);
  if (updated - published >= ARTICLE_UPDATED_AFTER_MS) lines.push(line(t.article.updatedOn, article.updatedAt));
  return lines;
}
