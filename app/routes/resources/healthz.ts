import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/** Liveness: the process is up and answering. */
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE } });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
