import type { Route } from "./+types/push";
import { servicesOf } from "#app/.server/context.server.ts";
import { toApiError } from "#app/.server/http/api.server.ts";
import { ONE_HOUR_CACHE } from "#app/lib/cache-headers.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * GET /api/push (public): the site's Web Push public key (VAPID, base64url), which a reader's browser subscribes
 * with after "Receber alertas". The same for everyone and for months: a CDN keeps it an hour. 404 `push_disabled`
 * when PUSH_ALERTS=0.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { pushAlerts, log } = servicesOf(context);
  try {
    return Response.json({ publicKey: await pushAlerts.publicKey() }, { headers: { "Cache-Control": ONE_HOUR_CACHE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

export const handle = routeFacts({ cache: false, uploads: false });
