import type { Route } from "./+types/push-subscriptions";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { parseSubscriptionInput } from "#app/.server/push/push-alerts.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";
import { PUSH_LIMITS } from "#app/lib/push-topics.ts";
import { clientIpContext } from "#app/lib/request-context.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/** Changes of alerts one address may make in an hour (a phone following a few clubs and matches stays far below). */
const CHANGES_PER_HOUR = 60;

/**
 * A reader's alerts (no account: the browser's push subscription is the key).
 * - POST (JSON `{ subscription, topics }`, `subscription` as `PushSubscription.toJSON()` gives it): this browser
 *   follows exactly `topics` (1 to 50: `geral`, `secao:{slug}`, `time:{slug}`, `jogo:{news id}`); 200 `{ topics }`.
 *   The endpoint must be at a push service of PUSH_SERVICES (400 `push_service_not_allowed`).
 * - DELETE (JSON `{ endpoint }`): no more alerts to this browser; 204, or 404 `not_subscribed`.
 * At most 60 changes per address and hour (429). Writes pass the Origin check like every other (server/origin-guard.ts).
 */
/** Nothing to read here (a browser's topics are on the browser): 405 for everyone. */
export function loader() {
  return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST, DELETE"));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { pushAlerts, rateLimiter, config, log } = servicesOf(context);
  try {
    if (request.method !== "POST" && request.method !== "DELETE") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST, DELETE"));
    const limit = await rateLimiter.hit(`push-alerts:${context.get(clientIpContext) ?? "?"}`, CHANGES_PER_HOUR, 3600);
    if (!limit.allowed) {
      throw new AppError("alerts_rate_limited", t.alerts.rateLimited(Math.ceil(limit.retryAfterSeconds / 60)), 429, {
        retryAfterSeconds: limit.retryAfterSeconds,
      });
    }
    const body = await readJsonObject(request);
    if (request.method === "DELETE") {
      const endpoint = body.endpoint;
      if (typeof endpoint !== "string" || endpoint.length > PUSH_LIMITS.endpointMaxLength) {
        return apiError(400, "invalid_subscription", t.alerts.invalidSubscription);
      }
      if (!(await pushAlerts.unsubscribe(endpoint))) return apiError(404, "not_subscribed", t.alerts.notSubscribed);
      return new Response(null, { status: 204, headers: { "Cache-Control": NO_STORE } });
    }
    const input = parseSubscriptionInput(body, config.push.services);
    await pushAlerts.subscribe(input);
    return Response.json({ topics: input.topics }, { headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

export const handle = routeFacts({ cache: false, uploads: false });
