import type { Route } from "./+types/news-item";
import { servicesOf } from "#app/.server/context.server.ts";
import { isNewsroomViewer, requireRoleApi, memberActor } from "#app/.server/auth/permissions.server.ts";
import { apiError, parseFields, toApiError } from "#app/.server/http/api.server.ts";
import { isLivePatch, parseLivePatch } from "#app/.server/news/live/live-input.server.ts";
import { jsonFields, readJsonObject, readNewsSubmission, withUploadCleanup, withUploadSlot } from "#app/.server/http/submissions.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { NEWS_SUBMISSION_MAX_BYTES } from "#app/lib/limits.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * GET /api/news/:id (public): a published item. For an admin also a draft or a scheduled one (with its `status`,
 * `publishedAt` and the `version` to send back with a save); for anyone else those are a 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { news: newsService, log } = servicesOf(context);
  try {
    const newsroom = await isNewsroomViewer(request, context);
    const news = await newsService.getNews(params.id, { includeUnpublished: newsroom });
    return Response.json({ news }, newsroom ? { headers: { "Cache-Control": PRIVATE_NO_STORE } } : undefined);
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/**
 * PUT /api/news/:id replaces the item (absent optional fields take their defaults); PATCH changes only the fields
 * sent; POST (the form without JavaScript, older clients) replaces. Multipart with an optional new `media`, or JSON.
 * DELETE removes. An item that no longer exists is a 404, and a file sent with it is not kept. `status` (draft,
 * scheduled, published) and `publishAt` (for scheduled) change its publication; absent, the status stays. With
 * `version` (from GET), a save based on an older version is refused with 409 `news_version_conflict` and the saved
 * item in `error.current`; without it the save is not checked. With `merge` ("Salvar mesmo assim"), `mergeChanged`
 * and an older `version`, only the fields changed from that version are written; fields both changed differently are
 * a 409 `news_merge_conflict` with both values, until `mergeChoices` (made against `mergeSeen`) settle them.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = servicesOf(context);
  const { newsEditor, log } = services;
  try {
    const viewer = await requireRoleApi(request, context, handle);
    const actor = memberActor(viewer);
    if (request.method === "DELETE") {
      await newsEditor.deleteNews(params.id, actor);
      return new Response(null, { status: 204 });
    }
    if (!["PUT", "PATCH", "POST"].includes(request.method)) {
      return apiError(405, "method_not_allowed", t.api.methodNotAllowed("PUT, PATCH ou DELETE"));
    }
    // A JSON PATCH is read once (capped as it arrives): `{"coverage": …}` / `{"scoreboard": …}` is the story's live
    // coverage (live-coverage.server.ts), anything else a save of the story.
    const json =
      request.method === "PATCH" && (request.headers.get("Content-Type") ?? "").startsWith("application/json")
        ? await readJsonObject(request, NEWS_SUBMISSION_MAX_BYTES)
        : null;
    if (json && isLivePatch(json)) {
      return Response.json({
        id: params.id,
        coverage: await services.liveCoverage.changeCoverage(params.id, parseLivePatch(json, services.config.timeZone), actor),
      });
    }
    return await withUploadSlot(request, viewer.userId, services, async () => {
      const form = json ? { fields: jsonFields(json), file: null } : await readNewsSubmission(request, services);
      if (request.method === "PATCH") {
        const patch = await withUploadCleanup(form, (fields) => parseFields(newsPatchSchema, fields));
        return Response.json(await newsEditor.patchNews(params.id, patch, form.file, actor));
      }
      const input = await withUploadCleanup(form, (fields) => parseFields(newsInputSchema, fields));
      return Response.json(await newsEditor.updateNews(params.id, input, form.file, actor));
    });
  } catch (error) {
    return toApiError(error, request, log);
  }
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Writes: reporters and up; a reporter changes or deletes only their own drafts (news-editor.service.server.ts). */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });
