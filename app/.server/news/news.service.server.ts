import type { Kysely } from "kysely";
import type { NewsArticle, NewsStatus, NewsSummary } from "../../lib/news-view.ts";
import type { Database } from "../db/schema.ts";
import { NotFoundError, wrapFailure } from "../errors.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { t } from "../../i18n/pt-BR.ts";
import { findHighlightsFilled, findNewsById, findNewsPage, findRecentNews, type NewsWithMediaRow, countInReview } from "./news.queries.server.ts";
import { decodeListCursor, encodeListCursor } from "./list-cursor.ts";
import { toNewsArticle, toNewsSummary } from "./news-rows.server.ts";
import { findTermName, listCategoryNames, type TermKind } from "./taxonomy.server.ts";

/** How many news the home shows in each block. */
export const HOME_RECENT_COUNT = 3;
export const HOME_HIGHLIGHT_COUNT = 3;

export interface NewsPageRequest {
  /** Opaque cursor from a previous page's `nextCursor`; none for the first page. */
  cursor?: string | null;
  highlightedOnly?: boolean;
  /** Only this category's (slug) news. */
  categorySlug?: string | null;
  /** Only this author's (slug) news. */
  authorSlug?: string | null;
  limit: number;
  /** Which items: readers always get 'published' (the default); an admin may ask for another status or all (null). */
  status?: NewsStatus | null;
}

export interface NewsPage {
  items: NewsSummary[];
  /** Where the next page starts, or null when this page reaches the oldest item. */
  nextCursor: string | null;
}

export interface NewsServiceDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "publicUrl">;
}

export function createNewsService({ db, store }: NewsServiceDeps) {
  const toSummary = (row: NewsWithMediaRow) => toNewsSummary(row, store);

  return {
    /**
     * One page of news, newest first (all of them, or only the highlighted ones), starting after `cursor`.
     * Throws InvalidInputError for a cursor this service did not make.
     */
    listNewsPage({ cursor, highlightedOnly = false, limit, status = "published", categorySlug, authorSlug }: NewsPageRequest): Promise<NewsPage> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const after = cursor ? decodeListCursor(cursor) : null;
        // One row more than asked tells whether there is a next page without a count.
        const rows = await findNewsPage(db, { after, highlightedOnly, limit: limit + 1, status, categorySlug, authorSlug });
        const items = rows.slice(0, limit).map(toSummary);
        const last = items.at(-1);
        return { items, nextCursor: rows.length > limit && last ? encodeListCursor(last) : null };
      });
    },

    /** The shown name of a category or author slug; throws NotFoundError when no published news uses it. */
    getTerm(kind: TermKind, slug: string): Promise<{ kind: TermKind; slug: string; name: string }> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const name = await findTermName(db, kind, slug);
        if (name === null) throw new NotFoundError("term_not_found", kind === "category" ? t.taxonomy.categoryNotFound : t.taxonomy.authorNotFound);
        return { kind, slug, name };
      });
    },

    /** How many stories are in review (the editors' count in the newsroom drawer). */
    countInReview(): Promise<number> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => countInReview(db));
    },

    /** Every category in use, by name (the news form's suggestions). */
    listCategories(): Promise<string[]> {
      return wrapFailure("news_list_failed", t.news.listFailed, () => listCategoryNames(db));
    },

    /** The home's two blocks, in two queries whatever the number of news. */
    getHome(): Promise<{ recent: NewsSummary[]; highlights: NewsSummary[] }> {
      return wrapFailure("news_list_failed", t.news.listFailed, async () => {
        const [recent, highlights] = await Promise.all([findRecentNews(db, HOME_RECENT_COUNT), findHighlightsFilled(db, HOME_HIGHLIGHT_COUNT)]);
        return { recent: recent.map(toSummary), highlights: highlights.map(toSummary) };
      });
    },

    /**
     * One news item; throws NotFoundError('Notícia não encontrada') when there is none with that id, or when it is
     * not published and the caller is not an admin (`includeUnpublished`): a draft does not exist for readers.
     */
    getNews(id: string, { includeUnpublished = false }: { includeUnpublished?: boolean } = {}): Promise<NewsArticle> {
      return wrapFailure("news_get_failed", t.news.getFailed, async () => {
        const row = await findNewsById(db, id, { includeUnpublished });
        if (!row) throw new NotFoundError("news_not_found", t.news.notFound);
        return toNewsArticle(row, store);
      });
    },
  };
}

export type NewsService = ReturnType<typeof createNewsService>;
