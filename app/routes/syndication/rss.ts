import { href } from "react-router";
import type { Route } from "./+types/rss";
import { servicesOf } from "#app/.server/context.server.ts";
import { respondWith } from "#app/.server/syndication/respond.server.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * GET /rss.xml (the latest 50 news), /rss/destaques.xml (the latest 50 highlights), /categoria/{slug}/rss.xml and
 * /time/{slug}/rss.xml (a category's or a club's latest 50; 404 like their pages when there is none).
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  return respondWith(request, servicesOf(context), "application/rss+xml; charset=utf-8", (syndication) => {
    // A club's feed by its route's prefix (/time/:slug/rss.xml), a category's otherwise.
    if (params.slug !== undefined) return syndication.termRss(pathname.startsWith("/time/") ? "team" : "category", params.slug);
    return syndication.rss({ highlightedOnly: pathname === href("/rss/destaques.xml") });
  });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });
