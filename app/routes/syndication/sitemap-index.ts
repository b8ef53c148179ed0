import type { Route } from "./+types/sitemap-index";
import { servicesOf } from "#app/.server/context.server.ts";
import { respondWith } from "#app/.server/syndication/respond.server.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/** GET /sitemap.xml: the sitemap index (pages, Google News, the article parts). */
export function loader({ request, context }: Route.LoaderArgs) {
  return respondWith(request, servicesOf(context), "application/xml; charset=utf-8", (syndication) => syndication.sitemapIndex());
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });
