import type { Route } from "./+types/sitemap-index";
import { respondWith } from "./respond.server.ts";

/** GET /sitemap.xml: the sitemap index (pages, Google News, the article parts). */
export function loader({ request }: Route.LoaderArgs) {
  return respondWith(request, "application/xml; charset=utf-8", (syndication) => syndication.sitemapIndex());
}
