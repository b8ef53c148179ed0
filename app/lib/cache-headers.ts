import type { HeadersFunction } from "react-router";

/**
 * Public pages: browsers revalidate every time, a CDN may serve a copy for 30 s. No `stale-while-revalidate` in
 * Cache-Control: browsers honour it too, and then answer a live update's reload (`newsUpdated` →
 * `<path>.data`) from their stale copy, always one change behind. The CDN gets its stale window from
 * CDN-Cache-Control (RFC 9213), which browsers ignore.
 */
export const PUBLIC_CACHE = "public, max-age=0, s-maxage=30";
/** What a CDN that reads CDN-Cache-Control does with a public page: 30 s fresh, then 60 s stale while it refreshes. */
export const PUBLIC_CDN_CACHE = "public, max-age=30, stale-while-revalidate=60";
/** Anything personal (a signed-in viewer) or failed is never stored. */
export const PRIVATE_NO_STORE = "private, no-store";
/** Never stored anywhere: answers to writes, errors, streams, health checks, one-time links. */
export const NO_STORE = "no-store";
/**
 * A live story's updates (JSON): browsers ask again each time; a CDN keeps it 2 s at most (open pages fetch it right
 * after each `liveUpdated` event; the site's page cache drops it with the event).
 */
export const LIVE_PUBLIC_CACHE = "public, max-age=0, s-maxage=2";
/** A stale page the page cache serves while it renders the page again: a shared cache keeps it a second at most. */
export const STALE_PAGE_CACHE = "public, max-age=0, s-maxage=1";
/** The same for a CDN that reads CDN-Cache-Control. */
export const STALE_PAGE_CDN_CACHE = "max-age=1";
/** Feeds, sitemaps, robots.txt: crawlers and feed readers poll, and a few minutes of freshness is plenty. */
export const SYNDICATION_CACHE = "public, max-age=300, s-maxage=300";
/** Media: keys are content-hashed, so what a URL serves never changes (also the S3 objects' own Cache-Control). */
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";
/** Kept, but asked again each time (a 304 when unchanged): the service worker, whose new version must be seen at once. */
export const REVALIDATE_CACHE = "no-cache";
/** Kept an hour by browsers and CDNs: what changes only with a deploy (the web app manifest, a canonical redirect). */
export const ONE_HOUR_CACHE = "public, max-age=3600";

/**
 * The Cache-Control of a page: the route's own (errors, failures) wins, then its parents' (the root marks every
 * page of a signed-in viewer private), then the public default (with its CDN-Cache-Control).
 */
export const pageHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders, parentHeaders }): Record<string, string> => {
  const cacheControl = errorHeaders?.get("Cache-Control") ?? loaderHeaders.get("Cache-Control") ?? parentHeaders.get("Cache-Control");
  if (cacheControl && cacheControl !== PUBLIC_CACHE) return { "Cache-Control": cacheControl };
  return { "Cache-Control": PUBLIC_CACHE, "CDN-Cache-Control": PUBLIC_CDN_CACHE };
};

/**
 * Whether a shared cache (a CDN, Varnish) may store an answer with this Cache-Control: unless it says `private` or
 * `no-store` (RFC 9111 §3; deploy/varnish/default.vcl reads the same two), including when there is none. Such an
 * answer is the same for every reader, so it never carries a per-response nonce in its Content-Security-Policy.
 */
export function sharedCacheMayStore(cacheControl: string | readonly string[] | number | null | undefined): boolean {
  const value = Array.isArray(cacheControl) ? cacheControl.join(",") : String(cacheControl ?? "");
  return !/(^|[\s,])(private|no-store)\b/i.test(value);
}

/** The headers of a page that is never stored (the newsroom's pages). */
export const privatePageHeaders: HeadersFunction = () => ({ "Cache-Control": PRIVATE_NO_STORE });
