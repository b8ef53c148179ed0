import { RELATED_STORIES_MAX } from "../../lib/limits.ts";
import type { NewsArticle, NewsSummary } from "../../lib/news-view.ts";
import type { AppServices } from "../app.server.ts";
import { requestIdFrom } from "../errors.ts";
import { toNewsSummary } from "./news-rows.server.ts";
import { findNewsWithTextByIds, findRecentInCategory } from "./news.queries.server.ts";

/** Candidates read from each source: enough to fill the block after dropping drafts and repeats. */
const CANDIDATES = 12;

/**
 * "Leia também" for an article: up to RELATED_STORIES_MAX published stories, never the article itself nor one story
 * twice. The article's own category comes first (those sharing words with it first, then the newest), then stories
 * of other categories sharing words with its title and subtitle (the search index, best match first).
 *
 * Read on every render of the article: the page cache makes every stored page stale on each change of a story
 * (docs/decisions/003-page-cache.md), so a re-rendered article never lists a story taken down since. A failure hides
 * the block; the article is not affected.
 */
export async function loadRelated(
  request: Request,
  { database, search, store, log }: Pick<AppServices, "database" | "search" | "store" | "log">,
  article: Pick<NewsArticle, "id" | "title" | "subtitle" | "categorySlug">,
): Promise<NewsSummary[]> {
  try {
    const { db } = database;
    const [sameCategory, matchedIds] = await Promise.all([
      article.categorySlug ? findRecentInCategory(db, article.categorySlug, CANDIDATES, [article.id]) : Promise.resolve([]),
      search.relatedIds(`${article.title} ${article.subtitle}`, article.id, CANDIDATES),
    ]);
    const rank = new Map(matchedIds.map((id, index) => [id, index]));
    const category = [...sameCategory].sort((a, b) => (rank.get(a.id) ?? CANDIDATES) - (rank.get(b.id) ?? CANDIDATES));
    const chosen = new Map(category.map((row) => [row.id, toNewsSummary(row, store)]));
    const others = matchedIds.filter((id) => !chosen.has(id));
    if (chosen.size < RELATED_STORIES_MAX && others.length > 0) {
      // Only published ones come back; the search's order is kept.
      const rows = new Map((await findNewsWithTextByIds(db, others)).map((row) => [row.id, row]));
      for (const id of others) {
        const row = rows.get(id);
        if (row) chosen.set(id, toNewsSummary(row, store));
      }
    }
    chosen.delete(article.id);
    return [...chosen.values()].slice(0, RELATED_STORIES_MAX);
  } catch (error) {
    log.error({ err: error, reqId: requestIdFrom(request), id: article.id }, "related stories load failed");
    return [];
  }
}
