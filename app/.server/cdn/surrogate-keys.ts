import { pageOfPath } from "#app/lib/data-path.ts";

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
  // The id as the request spelled it (percent-escapes and all): href() would escape its escapes again.
  const bare = `/article/${article[1]}`;
  return page === bare ? `${SITE_KEY} ${ARTICLE_KEY} ${bare}` : `${SITE_KEY} ${ARTICLE_KEY} ${bare} ${page}`;
}

/** The page a path shows (app/lib/data-path.ts), without a trailing slash. */
function pagePathOf(pathname: string): string {
  const path = pageOfPath(pathname);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * The alphabet of a key a purge may name: letters, digits and `/ . _ ~ % -` (the kinds above; a story's paths, made
 * of ids, slugs and percent-escapes). deploy/varnish/default.vcl refuses a purge with any other character (400, nothing
 * banned) and matches each key literally, so a purge names exactly the answers that carry that key.
 */
export const PURGE_KEY = /^[A-Za-z0-9/._~%-]+$/;

/**
 * What a site event must purge at the CDN: a story's change purges its own pages (the event's paths) and every page
 * that lists stories; an event without paths (a resync, the sponsors in every footer), or with a path a purge cannot
 * name (outside `PURGE_KEY`: never one of the site's own), purges the whole site. A live story's update
 * (`liveUpdated`, `lists: false`) changes that story's pages, its updates' JSON and the feeds its paths name, and no
 * list: the lists stay stored (as in the site's own page cache).
 */
export function purgeKeysOf(paths: readonly string[] | undefined, { lists = true }: { lists?: boolean } = {}): string[] {
  if (!paths?.length) return [SITE_KEY];
  const keys = [...(lists ? [LIST_KEY] : []), ...new Set(paths.map(pagePathOf))];
  return keys.every((key) => PURGE_KEY.test(key)) ? keys : [SITE_KEY];
}
