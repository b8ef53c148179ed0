import type { Route } from "./+types/robots";
import { servicesOf } from "../../.server/context.server.ts";
import { respondWith } from "./respond.server.ts";

/** GET /robots.txt */
export function loader({ request, context }: Route.LoaderArgs) {
  return respondWith(request, servicesOf(context), "text/plain; charset=utf-8", (syndication) => syndication.robotsTxt());
}
