import type { Route } from "./+types/sponsors";
import { getServices } from "../../.server/app.server.ts";
import { apiError, requireAdminApi, toApiError } from "../../.server/http/api.server.ts";
import { readSponsorSubmission, withUploadSlot } from "../../.server/http/submissions.server.ts";
import { t } from "../../i18n/pt-BR.ts";

/** GET /api/sponsors: every sponsor, oldest first (public). */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    return Response.json({ sponsors: await getServices().sponsors.listSponsors() });
  } catch (error) {
    return toApiError(error, request);
  }
}

/** POST /api/sponsors: adds a sponsor from the `image` file (admin, multipart). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
  try {
    const viewer = await requireAdminApi(request);
    const { sponsorEditor } = getServices();
    return await withUploadSlot(request, viewer.userId, async () => {
      const { file } = await readSponsorSubmission(request);
      return Response.json(await sponsorEditor.addSponsor(file), { status: 201 });
    });
  } catch (error) {
    return toApiError(error, request);
  }
}
