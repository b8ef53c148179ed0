import { type Kysely, sql } from "kysely";
import { t } from "#app/i18n/pt-BR.ts";
import { RELATED_SEARCH_WINDOW } from "#app/lib/limits.ts";
import type { NewsSummary } from "#app/lib/news-view.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, wrapFailure } from "#app/.server/errors.ts";
import { toNewsSummary } from "#app/.server/news/news-rows.server.ts";
import { findNewsWithTextByIds } from "#app/.server/news/news.queries.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import {
  excerpt,
  foldWord,
  highlight,
  MAX_QUERY_TERMS,
  queryTerms,
  stemWord,
  type TextSegment,
  trigramSimilarity,
  trigrams,
  isVocabularyWord,
  wordsOf,
} from "./portuguese.ts";
import { FTS5_SCORE, fts5Match, pgRank, pgWordsQuery } from "./search-sql.server.ts";

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
  /**
   * When the query found nothing and a spelling close to it finds stories: that query ("flamego" → "Flamengo"),
   * whose results `hits` then are. Null otherwise.
   */
  suggestion: string | null;
}

/** How close (pg_trgm similarity, 0 to 1) a known word must be to a typed one to be offered in its place. */
export const TYPO_SIMILARITY = 0.4;
/** Candidates sharing a trigram that SQLite ranks by similarity, best first by FTS5's own rank. */
const TYPO_CANDIDATES = 200;

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
      return sql<{ id: string }>`
        select n.id
        from news n, ${pgWordsQuery(words)} q
        where n.search_document @@ q and n.status = 'published'
        order by ${pgRank(sql`n.search_document`, sql`q`)} desc, n.published_at desc, n.id desc
        limit ${limit} offset ${offset}
      `
        .execute(db)
        .then((result) => result.rows.map((row) => row.id));
    }
    // All the terms must match (AND). Ranked inside the FTS table alone (equal ranks: the most recently indexed first), then only the page is joined: joining every match
    // to find its creation time cost 20 times more at 100 000 news.
    const match = fts5Match(terms, "AND");
    return sql<{ id: string }>`
      select d.news_id as id
      from (
        select rowid as doc, ${FTS5_SCORE} as score
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
      const words = wordsOf(text)
        .map(foldWord)
        .slice(0, 2 * MAX_QUERY_TERMS);
      // Each word a query of its own (stop words come out empty), joined with tsquery's OR.
      const any = sql.join(
        words.map((word) => pgWordsQuery([word])),
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
        order by ${pgRank(sql`c.search_document`, sql`w.q`)} desc, c.published_at desc, c.id desc
        limit ${limit}
      `
        .execute(db)
        .then((result) => result.rows.map((row) => row.id));
    }
    const match = fts5Match(terms, "OR");
    // Only the newest matches are ranked (the index's rowids grow with time): the first match of that window is
    // found walking the index backwards, then bm25 runs from there on.
    return sql<{ id: string }>`
      select d.news_id as id
      from (
        select rowid as doc, ${FTS5_SCORE} as score
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

  /** Which of `words` (folded) the vocabulary knows. */
  async function knownWords(words: string[]): Promise<Set<string>> {
    if (words.length === 0) return new Set();
    const rows = await db.selectFrom("search_words").select("word").where("word", "in", words).execute();
    return new Set(rows.map((row) => row.word));
  }

  /** The known word closest to `word` (at least TYPO_SIMILARITY alike), or null. */
  async function closestWord(word: string): Promise<string | null> {
    if (dialect === "postgres") {
      const { rows } = await sql<{ word: string }>`
        select word from search_words
        where word % ${word} and similarity(word, ${word}) >= ${TYPO_SIMILARITY}
        order by similarity(word, ${word}) desc, word
        limit 1
      `.execute(db);
      return rows[0]?.word ?? null;
    }
    // FTS5's trigram tokenizer matches substrings of three characters: the words sharing any trigram with the typed
    // one, those sharing the most first; the same similarity as pg_trgm's then picks among them.
    const inner = [...trigrams(word)].filter((trigram) => !trigram.includes(" "));
    if (inner.length === 0) return null;
    const match = inner.map((trigram) => `"${trigram}"`).join(" OR ");
    const { rows } = await sql<{ word: string }>`
      select w.word from search_word_trigrams t join search_words w on w.id = t.rowid
      where search_word_trigrams match ${match}
      order by t.rank limit ${TYPO_CANDIDATES}
    `.execute(db);
    let best: string | null = null;
    let bestScore = TYPO_SIMILARITY;
    for (const { word: candidate } of rows) {
      const score = trigramSimilarity(word, candidate);
      if (score > bestScore || (score === bestScore && best !== null && candidate < best)) {
        best = candidate;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * The query with each word the stories never use (4 letters or more) replaced by the closest one they do, or null
   * when no word was replaced.
   */
  async function correctedQuery(query: string): Promise<string | null> {
    const words = wordsOf(query).slice(0, MAX_QUERY_TERMS);
    const folded = words.map(foldWord);
    const candidates = folded.filter((word) => isVocabularyWord(word) && stemWord(word) !== null);
    const known = await knownWords([...new Set(candidates)]);
    let changed = false;
    const corrected: string[] = [];
    for (const [index, word] of words.entries()) {
      const fold = folded[index]!;
      if (!candidates.includes(fold) || known.has(fold)) {
        corrected.push(word);
        continue;
      }
      const closest = await closestWord(fold);
      if (closest && closest !== fold) changed = true;
      corrected.push(closest ?? word);
    }
    return changed ? corrected.join(" ") : null;
  }

  /** One page of matches for `terms`, as hits. */
  async function pageOfHits(terms: string[], query: string, page: number, limit: number): Promise<{ hits: SearchHit[]; more: boolean }> {
    const words = wordsOf(query).map(foldWord);
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
    return { hits, more: ids.length > limit && page < MAX_SEARCH_PAGE };
  }

  /**
   * The corrected query as the stories write it: each replaced word spelled as in the first result's title, subtitle
   * or section ("flamengo" → "Flamengo"), else as the vocabulary has it.
   */
  function spelledAsInStories(corrected: string, hit: SearchHit | undefined): string {
    if (!hit) return corrected;
    const written = new Map<string, string>();
    for (const text of [hit.title, hit.subtitle, hit.category]) {
      for (const [word] of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
        const fold = foldWord(word);
        if (!written.has(fold)) written.set(fold, word);
      }
    }
    return corrected.replace(/[\p{L}\p{M}\p{N}]+/gu, (word) => written.get(foldWord(word)) ?? word);
  }

  return {
    relatedIds,
    /**
     * One page of results for `query`. An empty or unsearchable query (punctuation, stop words) finds nothing. When
     * the first page finds nothing, a spelling close to the query (typos: words the stories never use, replaced by
     * the closest ones they do) is tried, and its results come back with it as `suggestion`.
     */
    search({ query, page = 1, limit = SEARCH_PAGE_SIZE }: { query: string; page?: number; limit?: number }): Promise<SearchPage> {
      return wrapFailure("search_failed", t.news.listFailed, async () => {
        const terms = queryTerms(query);
        const found = terms.length > 0 ? await pageOfHits(terms, query, page, limit) : { hits: [], more: false };
        if (found.hits.length === 0 && page === 1) {
          const corrected = await correctedQuery(query);
          const correctedTerms = corrected ? queryTerms(corrected) : [];
          if (corrected && correctedTerms.length > 0) {
            const retried = await pageOfHits(correctedTerms, corrected, 1, limit);
            if (retried.hits.length > 0) {
              return {
                terms: correctedTerms,
                hits: retried.hits,
                page,
                // Its further pages are the corrected query's own (/busca?q={suggestion}&pagina=2).
                nextPage: retried.more ? 2 : null,
                suggestion: spelledAsInStories(corrected, retried.hits[0]),
              };
            }
          }
        }
        return { terms, hits: found.hits, page, nextPage: found.more ? page + 1 : null, suggestion: null };
      });
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
