import type { Route } from "./+types/sponsor-item";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRoleApi } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readSponsorSubmission } from "#app/.server/http/submissions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * PATCH /api/sponsors/:id (admin, JSON): any of `name`, `link`, `activeFrom`, `activeUntil` (those left out keep
 * their value; an empty link or date clears it) and/or `position` (1 = first) to move it. The logo is not touched.
 * Answers the sponsor as GET lists it.
 * DELETE /api/sponsors/:id (admin).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "DELETE" && request.method !== "PATCH") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PATCH, DELETE"));
  const services = servicesOf(context);
  const { sponsorEditor, sponsors, log } = services;
  try {
    await requireRoleApi(request, context, handle);
    if (request.method === "DELETE") {
      await sponsorEditor.deleteSponsor(params.id);
      return new Response(null, { status: 204 });
    }
    const { fields, file } = await readSponsorSubmission(request, services);
    await file?.cleanup();
    const { position, ...rest } = fields;
    if (Object.keys(rest).length > 0) {
      // Fields left out keep their value; an empty link or date clears it.
      const current = (await sponsors.listSponsors({ includeInactive: true })).find((item) => item.id === params.id);
      if (!current) return apiError(404, "sponsor_not_found", t.sponsors.notFound);
      const kept = { name: current.name, link: current.link ?? "", activeFrom: current.activeFrom ?? "", activeUntil: current.activeUntil ?? "" };
      await sponsorEditor.updateSponsor(params.id, { ...kept, ...rest });
    }
    if (position !== undefined) await sponsorEditor.moveSponsor(params.id, /^\d{1,9}$/.test(position) ? Number(position) : Number.NaN);
    const sponsor = (await sponsors.listSponsors({ includeInactive: true })).find((item) => item.id === params.id);
    if (!sponsor) return apiError(404, "sponsor_not_found", t.sponsors.notFound);
    return Response.json({ sponsor });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

export function loader() {
  return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PATCH, DELETE"));
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Writes: admins only. */
export const handle = routeFacts({ cache: false, uploads: true, role: "admin" });
