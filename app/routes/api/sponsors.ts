import type { Route } from "./+types/sponsors";
import { getServices } from "../../.server/app.server.ts";
import { apiError, requireAdminApi, toApiError } from "../../.server/http/api.server.ts";
import { readSponsorSubmission } from "../../.server/http/submissions.server.ts";

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
  if (request.method !== "POST") return apiError(405, "method_not_allowed", "Use POST.");
  try {
    await requireAdminApi(request);
    const { file } = await readSponsorSubmission(request);
    const { sponsorEditor } = getServices();
    return Response.json(await sponsorEditor.addSponsor(file), { status: 201 });
  } catch (error) {
    return toApiError(error, request);
  }
}
