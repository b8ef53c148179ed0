import { pageOfPath } from "../../lib/data-path.ts";

/**
 * The surrogate keys of a public answer (`Surrogate-Key` header, space separated): what a CDN in front may purge it by.
 * Every answer has `site`; an article has `article`, every other page (home, lists, categories, authors, search,
 * feeds, sitemaps) `list`, since it shows stories; and its path, with the article's path without the slug too, so the
 * paths of a `newsUpdated` event (story-paths.server.ts: `/article/{id}`, `/article/{id}/{slug}`, `/categoria/{slug}`,
 * `/autor/{slug}`) are keys. A `.data` request (an open page's reload) has its page's keys.
 */
export const SITE_KEY = "site";
export const LIST_KEY = "list";
export const ARTICLE_KEY = "article";

export function surrogateKeys(pathname: string): string {
  const page = pagePathOf(pathname);
  const article = /^\/article\/([^/]+)/.exec(page);
  if (!article) return `${SITE_KEY} ${LIST_KEY} ${page}`;
  const bare = `/article/${article[1]}`;
  return page === bare ? `${SITE_KEY} ${ARTICLE_KEY} ${bare}` : `${SITE_KEY} ${ARTICLE_KEY} ${bare} ${page}`;
}

/** The page a path shows (app/lib/data-path.ts), without a trailing slash. */
function pagePathOf(pathname: string): string {
  const path = pageOfPath(pathname);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * What a site event must purge at the CDN: a story's change purges its own pages (the event's paths) and every page
 * that lists stories; an event without paths (a resync, the sponsors in every footer) purges the whole site.
 */
export function purgeKeysOf(paths: readonly string[] | undefined): string[] {
  if (!paths?.length) return [SITE_KEY];
  return [LIST_KEY, ...new Set(paths.map(pagePathOf))];
}
