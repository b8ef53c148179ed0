import type { Route } from "./+types/robots";
import { servicesOf } from "../../.server/context.server.ts";
import { respondWith } from "../../.server/syndication/respond.server.ts";
import { routeFacts } from "../../lib/route-facts.ts";

/** GET /robots.txt */
export function loader({ request, context }: Route.LoaderArgs) {
  return respondWith(request, servicesOf(context), "text/plain; charset=utf-8", (syndication) => syndication.robotsTxt());
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "file", uploads: false });
