import type { Route } from "./+types/news-item";
import { getServices } from "../../.server/app.server.ts";
import { apiError, parseFields, requireAdminApi, toApiError } from "../../.server/http/api.server.ts";
import { readNewsSubmission, withUploadCleanup } from "../../.server/http/submissions.server.ts";
import { newsInputSchema } from "../../lib/news-schema.ts";

/** GET /api/news/:id (public). */
export async function loader({ params }: Route.LoaderArgs) {
  try {
    return Response.json({ news: await getServices().news.getNews(params.id) });
  } catch (error) {
    return toApiError(error);
  }
}

/** PUT/PATCH/POST /api/news/:id updates (multipart with an optional new `media`, or JSON); DELETE removes. */
export async function action({ request, params }: Route.ActionArgs) {
  try {
    await requireAdminApi(request);
    const { newsEditor } = getServices();
    if (request.method === "DELETE") {
      await newsEditor.deleteNews(params.id);
      return new Response(null, { status: 204 });
    }
    if (!["PUT", "PATCH", "POST"].includes(request.method)) return apiError(405, "method_not_allowed", "Use PUT ou DELETE.");
    const form = await readNewsSubmission(request);
    const input = await withUploadCleanup(form, (fields) => parseFields(newsInputSchema, fields));
    return Response.json(await newsEditor.updateNews(params.id, input, form.file));
  } catch (error) {
    return toApiError(error);
  }
}
