import type { Kysely } from "kysely";
import { RELATED_STORIES_MAX } from "#app/lib/limits.ts";
import type { NewsArticle, NewsSummary } from "#app/lib/news-view.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { requestIdFrom } from "#app/.server/errors.ts";
import { memoUntilChanged } from "#app/.server/events/memo.server.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import type { SearchService } from "#app/.server/search/search.service.server.ts";
import { toNewsSummary } from "./news-rows.server.ts";
import { findNewsWithTextByIds, findRecentInCategory } from "./news.queries.server.ts";

/** Candidates read from each source: enough to fill the block after dropping drafts and repeats. */
const CANDIDATES = 12;
/**
 * Articles whose list is kept at once: with 100 000 news, the full-text match behind one list took 5–7 ms of an
 * article's render; a list is a few hundred bytes.
 */
const KEPT_ARTICLES = 1000;

type RelatedTo = Pick<NewsArticle, "id" | "title" | "subtitle" | "categorySlug">;

/**
 * "Leia também" for an article: up to RELATED_STORIES_MAX published stories, never the article itself nor one story
 * twice. The article's own category comes first (those sharing words with it first, then the newest), then stories
 * of other categories sharing words with its title and subtitle (the search index, best match first).
 *
 * Kept per article (its id, category, title and subtitle) until the news change: `invalidate` runs on the site's
 * events before the page cache re-renders (app.server.ts), so a re-rendered article never lists a story taken down
 * since (docs/decisions/003-page-cache.md, 013-render-gate.md). A failed read hides the block and is not kept; the
 * article is not affected.
 */
export function createRelatedStories({
  db,
  search,
  store,
  log,
}: {
  db: Kysely<Database>;
  search: Pick<SearchService, "relatedIds">;
  store: Pick<MediaStore, "publicUrl">;
  log: Logger;
}) {
  const kept = memoUntilChanged(read, {
    maxKeys: KEPT_ARTICLES,
    keyOf: (article) => (article ? [article.id, article.categorySlug ?? "", article.title, article.subtitle].join("\u0000") : ""),
  });

  async function read(article: RelatedTo): Promise<NewsSummary[]> {
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
  }

  return {
    /** The article's related stories (shared by every request: not to be changed); [] when they cannot be read. */
    async forArticle(request: Request, article: RelatedTo): Promise<NewsSummary[]> {
      try {
        return await kept.get(article);
      } catch (error) {
        log.error({ err: error, reqId: requestIdFrom(request), id: article.id }, "related stories load failed");
        return [];
      }
    },
    /** The news changed: every list is read again. */
    invalidate(): void {
      kept.invalidate();
    },
  };
}

export type RelatedStories = ReturnType<typeof createRelatedStories>;
