import type { Route } from "./+types/news-live-update";
import { servicesOf } from "#app/.server/context.server.ts";
import { isNewsroomViewer, requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { parseUpdatePatch } from "#app/.server/news/live/live-input.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { LIVE_PUBLIC_CACHE, NO_STORE, PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * GET /api/news/:id/updates/:updateId (public for a published story): one update (`{ update, media }`), what an open
 * page fetches when an update it shows was edited. 404 `update_not_found` when there is none.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { liveCoverage, log } = servicesOf(context);
  try {
    const newsroom = await isNewsroomViewer(request, context);
    const found = await liveCoverage.getUpdate(params.id, params.updateId, { includeUnpublished: newsroom });
    return Response.json(found, { headers: { "Cache-Control": newsroom ? PRIVATE_NO_STORE : LIVE_PUBLIC_CACHE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * PATCH (JSON, any of `text`, `keyEvent`, `pinned`, `minute`, `eventType`; null removes the last two) changes an
 * update, answering it (`{ update }`); DELETE removes it (204). Editors and admins on any story, a reporter on their
 * own (403 `story_not_yours`).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { liveCoverage, log } = servicesOf(context);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    const actor = memberActor(viewer);
    if (request.method !== "DELETE" && request.method !== "PATCH")
      return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PATCH ou DELETE"));
    // The story's owner (a reporter) or an editor, before the body is read.
    await liveCoverage.authorize(params.id, actor);
    if (request.method === "DELETE") {
      await liveCoverage.deleteUpdate(params.id, params.updateId, actor);
      return new Response(null, { status: 204 });
    }
    const patch = parseUpdatePatch(await readJsonObject(request));
    const update = await liveCoverage.editUpdate(params.id, params.updateId, patch, actor);
    return Response.json({ update }, { headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** Readers' GET is shared by the page cache (a `liveUpdated` event drops it); writes: reporters and up, per story. */
export const handle = routeFacts({ cache: "file", uploads: false, role: "reporter" });
