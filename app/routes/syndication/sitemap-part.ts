import type { Route } from "./+types/sitemap-part";
import { servicesOf } from "#app/.server/context.server.ts";
import { respondWith } from "#app/.server/syndication/respond.server.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/** GET /sitemaps/pages.xml, /sitemaps/news.xml (Google News, last 48 h) and /sitemaps/articles-N.xml. */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return respondWith(request, servicesOf(context), "application/xml; charset=utf-8", (syndication) => {
    const file = params.file;
    if (file === "pages.xml") return syndication.sitemapPages();
    if (file === "news.xml") return syndication.sitemapNews();
    const part = /^articles-([1-9]\d{0,5})\.xml$/.exec(file)?.[1];
    return part ? syndication.sitemapArticles(Number(part)) : null;
  });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });
