import type { Route } from "./+types/news-live-updates";
import { servicesOf } from "#app/.server/context.server.ts";
import { isNewsroomViewer, memberActor, requireMayAlert, requireRoleApi } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { parseNewUpdate } from "#app/.server/news/live/live-input.server.ts";
import { sendUpdateAlert } from "#app/.server/push/push-alerts.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { LIVE_PUBLIC_CACHE, NO_STORE, PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * GET /api/news/:id/updates?cursor= (public): a page of the story's live updates, newest first (`updates`, pinned
 * ones apart in `pinned` and the key events in `keyEvents` on the first page), `nextCursor` for the older page,
 * `coverage` (state, times, scoreboard). A story readers do not see (draft, scheduled) is a 404 for them; the
 * newsroom sees its updates. A cursor this site did not make is a 400 `invalid_cursor`.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { liveCoverage, log } = servicesOf(context);
  try {
    const newsroom = await isNewsroomViewer(request, context);
    const cursor = new URL(request.url).searchParams.get("cursor");
    const page = await liveCoverage.loadPage(params.id, { cursor, includeUnpublished: newsroom });
    const published = !newsroom;
    return Response.json(page, { headers: { "Cache-Control": published ? LIVE_PUBLIC_CACHE : PRIVATE_NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * POST /api/news/:id/updates (JSON `{ text, keyEvent?, pinned?, minute?, eventType? }`): a new update, 201 with it
 * (`{ update }`, its `id`). `minute` is the match minute ("32", "45+2" or a whole number, 0–130, added time 1–30) and
 * `eventType` what happened (`goal`, `yellow_card`, `red_card`, `substitution`, `kickoff`, `half_time`, `full_time`):
 * both optional (400 `live_minute_invalid` / `live_event_invalid`). `text` is plain text (a blank line between paragraphs) or the rich document as an object, under the body's
 * rules, with at most one image or embed. `alert: true` (editors and admins; a reporter's is refused, 403
 * `alert_forbidden`, before anything is posted) sends it as a Web Push alert too: the answer says to how many
 * browsers (`alert`), or why not (`alertError`, the update posted all the same). Editors and admins on any story, a reporter on their own (403
 * `story_not_yours`); the coverage must be on (409 `coverage_off`).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { liveCoverage, pushAlerts, log } = servicesOf(context);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    const actor = memberActor(viewer);
    if (request.method !== "POST") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("POST"));
    await liveCoverage.authorize(params.id, actor);
    const body = await readJsonObject(request);
    const input = parseNewUpdate(body);
    // Refused before anything is posted: a reporter's update never goes out as an alert.
    const asAlert = body.alert === true;
    if (asAlert) requireMayAlert(actor);
    const update = await liveCoverage.postUpdate(params.id, input, actor);
    const alert = asAlert ? await sendUpdateAlert(pushAlerts, params.id, update.id, actor) : {};
    return Response.json({ update, ...alert }, { status: 201, headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** Readers' GET is shared by the page cache (a `liveUpdated` event drops it); writes: reporters and up, per story. */
export const handle = routeFacts({ cache: "file", params: { cursor: "cursor" }, uploads: false, role: "reporter" });
