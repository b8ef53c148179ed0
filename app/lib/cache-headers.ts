import type { HeadersFunction } from "react-router";

/** Public pages: browsers revalidate every time, a CDN may serve a copy for 30 s while it refreshes. */
export const PUBLIC_CACHE = "public, max-age=0, s-maxage=30, stale-while-revalidate=60";
/** Anything personal (a signed-in viewer) or failed is never stored. */
export const PRIVATE_NO_STORE = "private, no-store";

/**
 * The Cache-Control of a page: the route's own (errors, failures) wins, then its parents' (the root marks every
 * page of a signed-in viewer private), then the public default.
 */
export const pageHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders, parentHeaders }) => {
  const cacheControl =
    errorHeaders?.get("Cache-Control") ?? loaderHeaders.get("Cache-Control") ?? parentHeaders.get("Cache-Control");
  return { "Cache-Control": cacheControl ?? PUBLIC_CACHE };
};
