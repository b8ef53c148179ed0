import { type RawBuilder, sql } from "kysely";

/**
 * The SQL of full-text search that the readers' search (search.service.server.ts) and the newsroom's list
 * (news/desk/newsroom-list.server.ts) share: how each engine is asked for the reader's words, and how matches are weighed.
 * The indexes themselves: migrations/2026-11-24-001-news-search.ts.
 */

/**
 * PostgreSQL: the words (folded, letters and digits only), through the same normalisation as the indexed text, all
 * of them wanted (plainto_tsquery's AND; stop words drop out).
 */
export function pgWordsQuery(words: string[]): RawBuilder<unknown> {
  return sql`plainto_tsquery('portuguese'::regconfig, eef_search_normalize(${words.join(" ")}))`;
}

/**
 * PostgreSQL's rank of `document` for `query`: a match in the title (weight A) weighs most, then the subtitle (B),
 * then the full text (C); the array is ts_rank's {D, C, B, A}.
 */
export function pgRank(document: RawBuilder<unknown>, query: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`ts_rank('{0.05, 0.2, 0.5, 1.0}', ${document}, ${query})`;
}

/** SQLite's score of a row of `news_fts` (lower is better): the same weights, title 10, subtitle 4, full text 1. */
export const FTS5_SCORE: RawBuilder<number> = sql<number>`bm25(news_fts, 10.0, 4.0, 1.0)`;

/** SQLite: an FTS5 query of `terms`, each quoted (a string, never an operator), joined by AND or OR. */
export function fts5Match(terms: string[], join: "AND" | "OR"): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(` ${join} `);
}
