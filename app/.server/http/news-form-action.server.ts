import { data, redirect } from "react-router";
import { t } from "../../i18n/pt-BR.ts";
import { newsFormSchema } from "../../lib/news-schema.ts";
import { getServices } from "../app.server.ts";
import { requireAdmin } from "../auth/guards.server.ts";
import { AppError, FieldsError, publicErrorMessage, requestIdFrom, retryAfterHeaders } from "../errors.ts";
import { readNewsSubmission, withUploadSlot } from "./submissions.server.ts";

export interface NewsFormActionData {
  success?: string;
  error?: string;
  fieldErrors?: Partial<Record<string, string[]>>;
  /** The text fields as sent, when they were refused: the form shows them again (a file cannot be kept). */
  values?: Record<string, string>;
}

/** The form's text fields as sent (what the form draws again after a refusal). */
function sentValues(fields: Record<string, string>): Record<string, string> {
  const names = ["title", "subtitle", "fullContent", "category", "author", "mediaDescription", "mediaCaption", "mediaCredit", "isHighlighted"];
  return Object.fromEntries(names.filter((name) => typeof fields[name] === "string").map((name) => [name, fields[name]!]));
}

/**
 * The news form's action when it is sent without JavaScript (multipart). With JavaScript the form uses the JSON
 * API instead; both end in the same service calls.
 */
export async function handleNewsFormAction(request: Request, newsId: string | null) {
  const viewer = await requireAdmin(request);
  const { newsEditor, store } = getServices();
  const editing = newsId !== null;
  try {
    return await withUploadSlot(request, viewer.userId, () => save(request, newsId));
  } catch (error) {
    if (error instanceof Response) throw error;
    const requestId = requestIdFrom(request);
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) getServices().log.error({ err: error, reqId: requestId }, "news form failed");
    return data<NewsFormActionData>(
      { error: t.newsForm.submitError(editing, publicErrorMessage(error, requestId)) },
      { status, headers: retryAfterHeaders(error) },
    );
  }

  async function save(request: Request, newsId: string | null) {
    const { fields, file } = await readNewsSubmission(request);
    const parsed = newsFormSchema.safeParse(fields);
    if (!parsed.success) {
      await file?.cleanup();
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
      return data<NewsFormActionData>({ fieldErrors, values: sentValues(fields) }, { status: 400 });
    }
    let result: Awaited<ReturnType<typeof newsEditor.createNews>>;
    try {
      result = newsId !== null ? await newsEditor.updateNews(newsId, parsed.data, file) : await newsEditor.createNews(parsed.data, file);
    } catch (error) {
      if (error instanceof FieldsError) return data<NewsFormActionData>({ fieldErrors: error.fields, values: sentValues(fields) }, { status: 400 });
      throw error;
    }
    if (editing) throw redirect(`/article/${result.id}`);
    return data<NewsFormActionData>({ success: t.newsForm.success(false, result.media, t.storage.labels[store.name] ?? store.name) });
  }
}
