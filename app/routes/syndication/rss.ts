import type { Route } from "./+types/rss";
import { servicesOf } from "../../.server/context.server.ts";
import { respondWith } from "../../.server/syndication/respond.server.ts";
import { routeFacts } from "../../lib/route-facts.ts";

/** GET /rss.xml (the latest 50 news) and /rss/destaques.xml (the latest 50 highlights). */
export function loader({ request, context }: Route.LoaderArgs) {
  const highlightedOnly = new URL(request.url).pathname === "/rss/destaques.xml";
  return respondWith(request, servicesOf(context), "application/rss+xml; charset=utf-8", (syndication) => syndication.rss({ highlightedOnly }));
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });
