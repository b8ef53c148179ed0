import { z } from "#app/lib/zod.ts";
import type { Route } from "./+types/news-media-focus";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, toApiError } from "#app/.server/http/api.server.ts";
import { readJsonObject } from "#app/.server/http/submissions.server.ts";
import { setStoryMediaFocus, storyForMediaFocus } from "#app/.server/media/media-focus.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

const percent = z.number().int().min(0).max(100);
/** Both set, or both null (the centre). */
const focusSchema = z.union([z.object({ focusX: percent, focusY: percent }), z.object({ focusX: z.null(), focusY: z.null() })]);

/**
 * PUT /api/news/:id/media-focus `{ "focusX": 0–100, "focusY": 0–100 }` (or both null: the centre): the point of the
 * story's image that boxes of other shapes keep when they crop it (cards, the home's lead). Whoever may change the
 * story (a reporter: their own drafts). 400 `invalid_focus`, 404 `news_not_found`, 409 `media_not_image`. The
 * story's pages stop being served at once, like after a save.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { database, events, log } = servicesOf(context);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    const actor = memberActor(viewer);
    // Whether this member may change the story, before anything they sent is read.
    await storyForMediaFocus(database.db, params.id, actor);
    if (request.method !== "PUT") return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PUT"));
    const parsed = focusSchema.safeParse(await readJsonObject(request));
    if (!parsed.success) return apiError(400, "invalid_focus", t.mediaFocus.invalid);
    const { focusX, focusY } = parsed.data;
    const focus = focusX === null || focusY === null ? null : { x: focusX, y: focusY };
    const saved = await setStoryMediaFocus({ db: database.db, events }, params.id, focus, actor);
    return Response.json(saved, { headers: { "Cache-Control": NO_STORE } });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** GET: nothing to read here (405), once the caller is known to be a newsroom member (401 / 403 otherwise). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { log } = servicesOf(context);
  try {
    await requireRoleApi(request, context, handle);
    return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PUT"));
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts): the newsroom, any role. */
export const handle = routeFacts({ cache: false, uploads: false, role: "reporter" });
