import type { Route } from "./+types/news";
import { getServices } from "../../.server/app.server.ts";
import { apiError, parseFields, requireAdminApi, toApiError } from "../../.server/http/api.server.ts";
import { readNewsSubmission, withUploadCleanup } from "../../.server/http/submissions.server.ts";
import { newsInputSchema } from "../../lib/news-schema.ts";

/** GET /api/news: every news item, newest first (public). */
export async function loader({ request }: Route.LoaderArgs) {
  try {
    return Response.json({ news: await getServices().news.listNews() });
  } catch (error) {
    return toApiError(error, request);
  }
}

/** POST /api/news: creates a news item (admin; multipart with an optional `media` file, or JSON). */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "method_not_allowed", "Use POST.");
  try {
    await requireAdminApi(request);
    const { newsEditor } = getServices();
    const form = await readNewsSubmission(request);
    const input = await withUploadCleanup(form, (fields) => parseFields(newsInputSchema, fields));
    const result = await newsEditor.createNews(input, form.file);
    return Response.json(result, { status: 201 });
  } catch (error) {
    return toApiError(error, request);
  }
}
