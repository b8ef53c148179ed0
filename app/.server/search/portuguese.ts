import { stemmer } from "@orama/stemmers/portuguese";
import { stopwords } from "@orama/stopwords/portuguese";
import { MAX_QUERY_LENGTH } from "#app/lib/search.ts";

/**
 * How the search reads Portuguese text, the same on both databases:
 *
 * 1. words are runs of letters and digits (combining accents included);
 * 2. each word is folded: accents removed (NFKD, then the marks dropped), lower case ("Seleção" → "selecao");
 * 3. a final "s" after a consonant is dropped ("gols" → "gol", "Corinthians" → "corinthian"): the Snowball
 *    stemmer leaves these plurals alone;
 * 4. Snowball's Portuguese stop words ("de", "o", "que"…) are left out;
 * 5. the Snowball Portuguese stemmer gives the stem ("jogadores" → "jogador").
 *
 * PostgreSQL does steps 2–5 itself (`unaccent`, a regexp, the `portuguese` configuration, whose stop list and
 * Snowball stemmer are the ones used here); SQLite's FTS5 index stores the output of `searchText` (registered as
 * the SQL function `eef_search_text`, see migrations/2026-11-24-001-news-search.ts).
 *
 * Changing any step changes what is stored in SQLite's index: it then needs a migration that re-indexes.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;
const MARKS = /\p{M}+/gu;
const CONSONANT_PLURAL = /([bcdfghjklmnpqrtvwxz])s$/;
const STOP_WORDS: ReadonlySet<string> = new Set(stopwords);

export function foldWord(word: string): string {
  return word.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/**
 * Stems already computed, by word as written. News use a few tens of thousands of distinct words, and indexing
 * 100 000 news stems tens of millions: the cache made the bulk seed several times faster. Emptied when full.
 */
const stems = new Map<string, string | null>();
const MAX_CACHED_STEMS = 200_000;

/** The stem of one word, or null for a stop word. */
export function stemWord(word: string): string | null {
  let stem = stems.get(word);
  if (stem !== undefined) return stem;
  const folded = foldWord(word).replace(CONSONANT_PLURAL, "$1");
  stem = !folded || STOP_WORDS.has(folded) ? null : stemmer(folded);
  if (stems.size >= MAX_CACHED_STEMS) stems.clear();
  stems.set(word, stem);
  return stem;
}

/** The stems of a text, in order, separated by spaces: what SQLite's index stores for a column. */
export function searchText(text: string | null | undefined): string {
  if (!text) return "";
  let result = "";
  for (const word of text.split(NOT_WORD)) {
    const stem = word ? stemWord(word) : null;
    if (stem) result = result ? `${result} ${stem}` : stem;
  }
  return result;
}

export { MAX_QUERY_LENGTH };
/** Most words used from a query. */
export const MAX_QUERY_TERMS = 8;

/**
 * A reader's query as a list of distinct stems. Only words are kept: quotes, `*`, `-`, `:`, parentheses and the
 * like are separators, and words such as AND, OR, NEAR are just words (their stems), so no query syntax of either
 * database ever reaches it. Empty when the query has no searchable word (nothing, punctuation, stop words only).
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const [word] of query.slice(0, MAX_QUERY_LENGTH).matchAll(WORD)) {
    const stem = stemWord(word);
    if (stem) terms.add(stem);
    if (terms.size >= MAX_QUERY_TERMS) break;
  }
  return [...terms];
}

/** A piece of text, marked when it is one of the words searched for. */
export interface TextSegment {
  text: string;
  mark: boolean;
}

/**
 * Splits `text` into plain and matched pieces (a word matches when its stem is one of `terms`). Plain data, to be
 * rendered as text and <mark> elements: nothing in it is ever read as HTML.
 */
export function highlight(text: string, terms: readonly string[]): TextSegment[] {
  const wanted = new Set(terms);
  const segments: TextSegment[] = [];
  let last = 0;
  const push = (piece: string, mark: boolean) => {
    if (!piece) return;
    const previous = segments.at(-1);
    if (previous && previous.mark === mark) previous.text += piece;
    else segments.push({ text: piece, mark });
  };
  if (wanted.size) {
    for (const match of text.matchAll(WORD)) {
      const stem = stemWord(match[0]);
      if (!stem || !wanted.has(stem)) continue;
      push(text.slice(last, match.index), false);
      push(match[0], true);
      last = match.index + match[0].length;
    }
  }
  push(text.slice(last), false);
  return segments;
}

/**
 * A short passage of `text` around its first matched word (for results found in the full text only), cut at word
 * boundaries, with "…" where it was cut. Null when no word of `text` matches.
 */
export function excerpt(text: string, terms: readonly string[], length = 180): string | null {
  const wanted = new Set(terms);
  for (const match of text.matchAll(WORD)) {
    const stem = stemWord(match[0]);
    if (!stem || !wanted.has(stem)) continue;
    let start = Math.max(0, match.index - Math.floor(length / 3));
    let end = Math.min(text.length, start + length);
    if (start > 0) {
      const space = text.indexOf(" ", start);
      start = space >= 0 && space < match.index ? space + 1 : match.index;
    }
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > match.index) end = space;
    }
    const piece = text.slice(start, end).replace(/\s+/g, " ").trim();
    return `${start > 0 ? "…" : ""}${piece}${end < text.length ? "…" : ""}`;
  }
  return null;
}

/** Shortest and longest word the typo correction knows (shorter words are too ambiguous to correct). */
export const VOCABULARY_WORD_LENGTH = { min: 4, max: 32 } as const;

/**
 * The distinct words of a text as the typo correction's vocabulary keeps them: folded (accents, case), letters only,
 * VOCABULARY_WORD_LENGTH long. PostgreSQL computes the same list in SQL (migrations/2026-11-29-101-search-typos.ts);
 * on SQLite the vocabulary trigger calls this as `eef_search_words`.
 */
export function vocabularyWords(text: string | null | undefined): string[] {
  const words = new Set<string>();
  if (!text) return [];
  for (const [word] of text.matchAll(WORD)) {
    const folded = foldWord(word);
    if (isVocabularyWord(folded)) words.add(folded);
  }
  return [...words];
}

/** Whether a folded word is one the vocabulary keeps (and the typo correction may correct): letters only, 4–32. */
export function isVocabularyWord(folded: string): boolean {
  return folded.length >= VOCABULARY_WORD_LENGTH.min && folded.length <= VOCABULARY_WORD_LENGTH.max && !/\P{L}/u.test(folded);
}

/** The words of a reader's text as written (runs of letters, marks and digits), from its first MAX_QUERY_LENGTH characters. */
export function wordsOf(text: string): string[] {
  return [...text.slice(0, MAX_QUERY_LENGTH).matchAll(WORD)].map(([word]) => word);
}

/** The trigrams of a folded word as PostgreSQL's pg_trgm counts them: padded with two spaces before, one after. */
export function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const result = new Set<string>();
  for (let index = 0; index + 3 <= padded.length; index++) result.add(padded.slice(index, index + 3));
  return result;
}

/** pg_trgm's `similarity`: shared trigrams over all distinct trigrams of both words (0 to 1). */
export function trigramSimilarity(a: string, b: string): number {
  const first = trigrams(a);
  const second = trigrams(b);
  let shared = 0;
  for (const trigram of first) if (second.has(trigram)) shared++;
  return shared / (first.size + second.size - shared);
}
