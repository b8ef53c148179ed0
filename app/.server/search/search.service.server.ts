import { type Kysely, sql } from "kysely";
import { t } from "../../i18n/pt-BR.ts";
import { RELATED_SEARCH_WINDOW } from "../../lib/limits.ts";
import type { NewsSummary } from "../../lib/news-view.ts";
import type { Database } from "../db/schema.ts";
import { AppError, wrapFailure } from "../errors.ts";
import { toNewsSummary } from "../news/news-rows.server.ts";
import { findNewsWithTextByIds } from "../news/news.queries.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { excerpt, foldWord, highlight, MAX_QUERY_LENGTH, MAX_QUERY_TERMS, queryTerms, type TextSegment } from "./portuguese.ts";

/** Results per page, as the list. */
export const SEARCH_PAGE_SIZE = 24;
/** Deepest page served: past it a search is better refined than paged (and every page ranks all matches again). */
export const MAX_SEARCH_PAGE = 200;

export interface SearchHit extends NewsSummary {
  titleParts: TextSegment[];
  subtitleParts: TextSegment[];
  /** A passage of the full text around a matched word, when neither title nor subtitle has one. */
  excerptParts: TextSegment[] | null;
}

export interface SearchPage {
  /** The stems searched for (empty: nothing searchable in the query). */
  terms: string[];
  hits: SearchHit[];
  page: number;
  /** The next page's number, or null when this one has the last results. */
  nextPage: number | null;
}

/** The `pagina` parameter: absent is 1; anything but an integer from 1 to MAX_SEARCH_PAGE is a 400. */
export function parseSearchPage(value: string | null): number {
  if (value === null || value === "") return 1;
  if (/^\d{1,4}$/.test(value)) {
    const page = Number(value);
    if (page >= 1 && page <= MAX_SEARCH_PAGE) return page;
  }
  throw new AppError("invalid_page", t.search.invalidPage, 400);
}

export interface SearchServiceDeps {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  store: Pick<MediaStore, "publicUrl">;
}

/**
 * Full-text search over the news, ranked: a match in the title weighs most, then the subtitle, then the full text;
 * equal ranks newest first (on SQLite: most recently indexed first, which is the same for news written as they
 * happen; the migration indexed older news oldest first). Indexes and text processing: migrations/2026-11-24-001-news-search.ts and
 * ./portuguese.ts.
 */
export function createSearchService({ db, dialect, store }: SearchServiceDeps) {
  /** The ids of one page of matches, best first. */
  function rankedIds(terms: string[], words: string[], limit: number, offset: number): Promise<string[]> {
    if (dialect === "postgres") {
      // The reader's words (letters and digits only) go through the same normalisation as the indexed text.
      return sql<{ id: string }>`
        select n.id
        from news n, plainto_tsquery('portuguese'::regconfig, eef_search_normalize(${words.join(" ")})) q
        where n.search_document @@ q and n.status = 'published'
        order by ts_rank('{0.05, 0.2, 0.5, 1.0}', n.search_document, q) desc, n.published_at desc, n.id desc
        limit ${limit} offset ${offset}
      `
        .execute(db)
        .then((result) => result.rows.map((row) => row.id));
    }
    // Every term quoted: an FTS5 string, never an operator. All of them must match (AND). Ranked inside the FTS
    // table alone (equal ranks: the most recently indexed first), then only the page is joined: joining every match
    // to find its creation time cost 20 times more at 100 000 news.
    const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" AND ");
    return sql<{ id: string }>`
      select d.news_id as id
      from (
        select rowid as doc, bm25(news_fts, 10.0, 4.0, 1.0) as score
        from news_fts
        where news_fts match ${match}
        order by score, rowid desc
        limit ${limit} offset ${offset}
      ) f
      join news_search_docs d on d.doc = f.doc
      order by f.score, f.doc desc
    `
      .execute(db)
      .then((result) => result.rows.map((row) => row.id));
  }

  /**
   * The published stories sharing the most words with `text` (any of them: OR), best first among the newest
   * RELATED_SEARCH_WINDOW that share one, without `excludeId`.
   * What "Leia também" fills with after the story's own category.
   */
  function relatedIds(text: string, excludeId: string, limit: number): Promise<string[]> {
    const terms = queryTerms(text);
    if (terms.length === 0) return Promise.resolve([]);
    if (dialect === "postgres") {
      const words = [...text.slice(0, MAX_QUERY_LENGTH).matchAll(/[\p{L}\p{M}\p{N}]+/gu)]
        .map(([word]) => foldWord(word))
        .slice(0, 2 * MAX_QUERY_TERMS);
      // Each word a query of its own (stop words come out empty), joined with tsquery's OR.
      const any = sql.join(
        words.map((word) => sql`plainto_tsquery('portuguese'::regconfig, eef_search_normalize(${word}))`),
        sql` || `,
      );
      // The newest matches first (the published_at index, walked backwards), then only those are ranked.
      return sql<{ id: string }>`
        select c.id
        from (
          select n.id, n.search_document, n.published_at
          from news n, (select ${any} as q) w
          where n.search_document @@ w.q and n.status = 'published' and n.id <> ${excludeId}
          order by n.published_at desc, n.id desc
          limit ${RELATED_SEARCH_WINDOW}
        ) c, (select ${any} as q) w
        order by ts_rank('{0.05, 0.2, 0.5, 1.0}', c.search_document, w.q) desc, c.published_at desc, c.id desc
        limit ${limit}
      `
        .execute(db)
        .then((result) => result.rows.map((row) => row.id));
    }
    const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
    // Only the newest matches are ranked (the index's rowids grow with time): the first match of that window is
    // found walking the index backwards, then bm25 runs from there on.
    return sql<{ id: string }>`
      select d.news_id as id
      from (
        select rowid as doc, bm25(news_fts, 10.0, 4.0, 1.0) as score
        from news_fts
        where news_fts match ${match}
          and rowid >= (select min(doc) from (select rowid as doc from news_fts where news_fts match ${match} order by rowid desc limit ${RELATED_SEARCH_WINDOW}))
        order by score, rowid desc
        limit ${limit + 1}
      ) f
      join news_search_docs d on d.doc = f.doc
      where d.news_id <> ${excludeId}
      order by f.score, f.doc desc
    `
      .execute(db)
      .then((result) => result.rows.map((row) => row.id).slice(0, limit));
  }

  return {
    relatedIds,
    /** One page of results for `query`. An empty or unsearchable query (punctuation, stop words) finds nothing. */
    search({ query, page = 1, limit = SEARCH_PAGE_SIZE }: { query: string; page?: number; limit?: number }): Promise<SearchPage> {
      return wrapFailure("search_failed", t.news.listFailed, async () => {
        const terms = queryTerms(query);
        if (terms.length === 0) return { terms, hits: [], page, nextPage: null };
        const words = [...query.slice(0, MAX_QUERY_LENGTH).matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map(([word]) => foldWord(word));
        // One row more than asked tells whether there is a next page without a count.
        const ids = await rankedIds(terms, words, limit + 1, (page - 1) * limit);
        const shown = ids.slice(0, limit);
        const rows = new Map((await findNewsWithTextByIds(db, shown)).map((row) => [row.id, row]));
        const hits: SearchHit[] = [];
        for (const id of shown) {
          const row = rows.get(id);
          // Deleted between the two queries.
          if (!row) continue;
          const titleParts = highlight(row.title, terms);
          const subtitleParts = highlight(row.subtitle, terms);
          const matchedAbove = titleParts.some((part) => part.mark) || subtitleParts.some((part) => part.mark);
          const passage = matchedAbove ? null : excerpt(row.full_content, terms);
          hits.push({
            ...toNewsSummary(row, store),
            titleParts,
            subtitleParts,
            excerptParts: passage ? highlight(passage, terms) : null,
          });
        }
        const more = ids.length > limit && page < MAX_SEARCH_PAGE;
        return { terms, hits, page, nextPage: more ? page + 1 : null };
      });
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
