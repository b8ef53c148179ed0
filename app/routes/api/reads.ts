import type { Route } from "./+types/reads";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { apiError } from "#app/.server/http/api.server.ts";
import { readJsonBody } from "#app/.server/http/read-body.server.ts";
import { isBotAgent, READ_BEACON_HEADER } from "#app/.server/news/reads/read-limiter.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { FORM_BODY_MAX_BYTES } from "#app/lib/limits.ts";
import { clientIpContext } from "#app/lib/request-context.ts";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";
import { NEWS_ID } from "#app/lib/news-view.ts";

/**
 * POST /api/reads `{"id": "<news id>"}`: one read of an article, sent by the article page's own script after it
 * shows (app/lib/read-beacon.ts), so a page served from the page cache or a CDN counts too. Not a read, and silently
 * not counted (204 all the same, nothing to learn from the answer): a request without the beacon's header, a bot's
 * User-Agent, a client over its hourly allowance (read-limiter.server.ts). Other sites cannot send it: the origin
 * guard refuses a foreign Origin, and the custom header needs a CORS preflight this site never grants.
 * See docs/decisions/006-read-counts.md.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  let id: unknown;
  try {
    id = ((await readJsonBody(request, FORM_BODY_MAX_BYTES)) as { id?: unknown } | null)?.id;
  } catch (error) {
    if (error instanceof AppError && error.status === 413) return apiError(413, error.code, error.message);
    id = undefined;
  }
  if (typeof id !== "string" || !NEWS_ID.test(id)) return apiError(400, "invalid_read", t.mostRead.invalidRead);
  const { reads, readLimiter } = servicesOf(context);
  if (
    request.headers.get(READ_BEACON_HEADER) === "1" &&
    !isBotAgent(request.headers.get("User-Agent")) &&
    readLimiter.allow(context.get(clientIpContext), id)
  ) {
    reads.record(id);
  }
  return new Response(null, { status: 204, headers: { "Cache-Control": NO_STORE } });
}

export function loader() {
  return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
