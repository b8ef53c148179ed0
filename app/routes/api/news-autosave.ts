import type { Route } from "./+types/news-autosave";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, parseFields, toApiError } from "#app/.server/http/api.server.ts";
import { jsonFields, readJsonObject } from "#app/.server/http/submissions.server.ts";
import { deleteNewsAutosave, findNewsAutosave, saveNewsAutosave } from "#app/.server/news/editor/news-autosave.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { NEWS_AUTOSAVE_MAX_BYTES } from "#app/lib/limits.ts";
import { newsAutosaveSchema } from "#app/lib/news-schema.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";

const PRIVATE = { "Cache-Control": PRIVATE_NO_STORE };

/**
 * GET /api/news/:id/autosave: the signed-in admin's own autosave of a story (`{ autosave: null }` when there is
 * none); another member's is never read. The newsroom (401 / 403 as JSON); a reporter, only for their own drafts.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { database, newsEditor, log } = servicesOf(context);
  try {
    const viewer = await requireRoleApi(request, context, handle);
    // A reporter keeps autosaves only of the stories they may edit (their own drafts): 403 / 404 as a save would.
    await newsEditor.requireMayEdit(params.id, memberActor(viewer));
    const autosave = await findNewsAutosave(database.db, params.id, viewer.userId);
    return Response.json({ autosave }, { headers: PRIVATE });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * PUT /api/news/:id/autosave (JSON): keeps what the admin has typed in the story's form, as their autosave of it
 * (one per story per user, overwritten), without changing the story: readers keep seeing the saved version, no
 * version or revision is added. Fields as the form's, none required, each under the same limits and character rules
 * as a save (400 with the field's message). DELETE discards it (204; 404 when there was none). The newsroom; a reporter, only for their own drafts.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { database, newsEditor, log } = servicesOf(context);
  try {
    if (request.method !== "PUT" && request.method !== "DELETE") {
      return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PUT ou DELETE"));
    }
    const viewer = await requireRoleApi(request, context, handle);
    await newsEditor.requireMayEdit(params.id, memberActor(viewer));
    if (request.method === "DELETE") {
      if (!(await deleteNewsAutosave(database.db, params.id, viewer.userId))) return apiError(404, "autosave_not_found", t.autosave.notFound);
      return new Response(null, { status: 204 });
    }
    const fields = parseFields(newsAutosaveSchema, jsonFields(await readJsonObject(request, NEWS_AUTOSAVE_MAX_BYTES)));
    const saved = await saveNewsAutosave(database.db, params.id, viewer.userId, fields);
    return Response.json(saved, { headers: PRIVATE });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * What the server knows of this route before rendering it (app/lib/route-facts.ts). `uploads`: its JSON may be longer
 * than the 32 KiB form cap (a whole body); it carries no file, and its own cap is NEWS_AUTOSAVE_MAX_BYTES.
 */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });
