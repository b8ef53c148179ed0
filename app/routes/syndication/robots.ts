import type { Route } from "./+types/robots";
import { servicesOf } from "#app/.server/context.server.ts";
import { respondWith } from "#app/.server/syndication/respond.server.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/** GET /robots.txt */
export function loader({ request, context }: Route.LoaderArgs) {
  return respondWith(request, servicesOf(context), "text/plain; charset=utf-8", (syndication) => syndication.robotsTxt());
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });
