import type { Route } from "./+types/sponsors";
import { servicesOf } from "#app/.server/context.server.ts";
import { isNewsroomViewer, requireRoleApi } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readSponsorSubmission, withUploadSlot } from "#app/.server/http/submissions.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * GET /api/sponsors: sponsors in display order (public). Readers get those inside their window today; the newsroom
 * gets all, each with `active`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { sponsors, log } = servicesOf(context);
  try {
    const includeInactive = await isNewsroomViewer(request, context);
    return Response.json({ sponsors: await sponsors.listSponsors({ includeInactive }) }, { headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** POST /api/sponsors: adds a sponsor from the `image` file and its `name`, `link`, `activeFrom`, `activeUntil` (admin, multipart). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  const services = servicesOf(context);
  const { sponsorEditor, log } = services;
  try {
    const viewer = await requireRoleApi(request, context, handle);
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const { fields, file } = await readSponsorSubmission(request, services);
      return Response.json(await sponsorEditor.addSponsor(file, fields), { status: 201 });
    });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Writes: admins only. */
export const handle = routeFacts({ cache: false, uploads: true, role: "admin" });
