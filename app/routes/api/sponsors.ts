import type { Route } from "./+types/sponsors";
import { servicesOf } from "../../.server/context.server.ts";
import { apiError, requireAdminApi, toApiError } from "../../.server/http/api.server.ts";
import { readSponsorSubmission, withUploadSlot } from "../../.server/http/submissions.server.ts";
import { t } from "../../i18n/pt-BR.ts";
import { routeFacts } from "../../lib/route-facts.ts";

/** GET /api/sponsors: every sponsor, oldest first (public). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { sponsors, log } = servicesOf(context);
  try {
    return Response.json({ sponsors: await sponsors.listSponsors() });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** POST /api/sponsors: adds a sponsor from the `image` file (admin, multipart). */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  const services = servicesOf(context);
  const { sponsorEditor, log } = services;
  try {
    const viewer = await requireAdminApi(request, context);
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const { file } = await readSponsorSubmission(request, services);
      return Response.json(await sponsorEditor.addSponsor(file), { status: 201 });
    });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: false, uploads: true });
