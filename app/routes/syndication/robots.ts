import type { Route } from "./+types/robots";
import { respondWith } from "./respond.server.ts";

/** GET /robots.txt */
export function loader({ request }: Route.LoaderArgs) {
  return respondWith(request, "text/plain; charset=utf-8", (syndication) => syndication.robotsTxt());
}
