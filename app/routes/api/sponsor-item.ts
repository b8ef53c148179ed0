import type { Route } from "./+types/sponsor-item";
import { servicesOf } from "../../.server/context.server.ts";
import { apiError, requireAdminApi, toApiError } from "../../.server/http/api.server.ts";
import { t } from "../../i18n/pt-BR.ts";
import { routeFacts } from "../../lib/route-facts.ts";

/** DELETE /api/sponsors/:id (admin). */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "DELETE") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("DELETE"));
  const { sponsorEditor, log } = servicesOf(context);
  try {
    await requireAdminApi(request, context);
    await sponsorEditor.deleteSponsor(params.id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

export function loader() {
  return apiError(405, "method_not_allowed", t.api.methodNotAllowed("DELETE"));
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: false, uploads: true });
