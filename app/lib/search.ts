/** Longest search query read (characters): a search is a few words, not a document. */
export const MAX_QUERY_LENGTH = 200;
