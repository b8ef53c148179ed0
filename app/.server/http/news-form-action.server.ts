import { data, href, redirect } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { editPageAfterSave, UNPUBLISHED_OUTCOME } from "#app/lib/news-landing.ts";
import { newsFormSchema } from "#app/lib/news-schema.ts";
import { docToPlainText, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { fieldErrorsOf } from "#app/lib/zod.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { type Member, requireRole, memberActor } from "#app/.server/auth/permissions.server.ts";
import { type RequestContext, servicesOf } from "#app/.server/context.server.ts";
import { AppError, diskFullOr, FieldsError, publicErrorMessage, requestIdFrom, retryAfterHeaders } from "#app/.server/errors.ts";
import { findMemberRights } from "#app/.server/admins/team.queries.server.ts";
import { NewsConflictError } from "#app/.server/news/editor/news-save.server.ts";
import { storeLabelOf, storeStatusOf } from "#app/.server/storage/store-status.server.ts";
import { readNewsSubmission, withUploadSlot } from "./submissions.server.ts";

export interface NewsFormActionData {
  success?: string;
  error?: string;
  fieldErrors?: Partial<Record<string, string[]>>;
  /** The text fields as sent, when they were refused: the form shows them again (a file cannot be kept). */
  values?: Record<string, string>;
  /** "Despublicar" sent without JavaScript: nothing saved yet, the page asks first (see the news form). */
  confirmUnpublish?: boolean;
}

/** The form's text fields as sent (what the form draws again after a refusal). */
function sentValues(fields: Record<string, string>): Record<string, string> {
  const names = ["title", "subtitle", "fullContent", "category", "author", "mediaDescription", "mediaCaption", "mediaCredit", "isHighlighted"];
  return Object.fromEntries(names.filter((name) => typeof fields[name] === "string").map((name) => [name, fields[name]!]));
}

/** What the news form's page (add-news, edit-news) needs besides the news item: suggestions, defaults, the store. */
export async function newsFormLoaderData(
  request: Request,
  services: Pick<AppServices, "config" | "news" | "store" | "drive" | "profiles" | "database">,
  viewerId?: string,
) {
  const { config, news, store, profiles } = services;
  const rights = viewerId ? await findMemberRights(services.database.db, viewerId) : undefined;
  const { storeConnected, drive } = await storeStatusOf(request, services);
  // The author field's choices: every team member's signing name (a free text stays possible).
  const members = await profiles.memberAuthors();
  return {
    authorChoices: members.map((member) => member.displayName),
    /** The viewer's own signing name (a reporter's new story starts signed by them). */
    selfAuthor: members.find((member) => member.userId === viewerId)?.displayName ?? "",
    /** A reporter with "publica sem revisão": the form offers publishing and scheduling (the server decides again). */
    publishesWithoutReview: Number(rights?.publishes_without_review ?? 0) === 1,
    categorySuggestions: await news.listCategories(),
    defaultAuthor: config.site.defaultAuthor,
    timeZone: config.timeZone,
    storeConnected,
    storeLabel: storeLabelOf(store),
    storeName: t.storage.names[store.name] ?? store.name,
    drive,
  };
}

/**
 * The news form's action when it is sent without JavaScript (multipart). With JavaScript the form uses the JSON
 * API instead; both end in the same service calls.
 */
export async function handleNewsFormAction(request: Request, context: RequestContext, newsId: string | null) {
  // The pages that use it (add-news, edit-news) are for reporters and up; the story's rules decide the rest.
  const viewer = await requireRole(request, context, "reporter");
  const services = servicesOf(context);
  const { newsEditor, log } = services;
  const editing = newsId !== null;
  try {
    return await withUploadSlot(request, viewer.userId, services, () => save(request, newsId, viewer));
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown;
    const error = diskFullOr(thrown);
    const requestId = requestIdFrom(request);
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) log.error({ err: error, reqId: requestId }, "news form failed");
    if (error instanceof NewsConflictError) {
      // Without JavaScript the page reloads with the saved version; the message says the save did not happen.
      return data<NewsFormActionData>({ error: `${t.newsForm.conflict} ${t.newsForm.conflictNoScript}` }, { status });
    }
    return data<NewsFormActionData>(
      { error: t.newsForm.submitError(editing, publicErrorMessage(error, requestId)) },
      { status, headers: retryAfterHeaders(error) },
    );
  }

  async function save(request: Request, newsId: string | null, actor: Member) {
    const { fields, file } = await readNewsSubmission(request, services);
    if (newsId !== null && fields.unpublish === "ask") {
      // The first press of "Despublicar" without JavaScript saves nothing: the form comes back with the question.
      await file?.cleanup();
      return data<NewsFormActionData>({ confirmUnpublish: true, values: sentValues(fields) });
    }
    const parsed = newsFormSchema.safeParse(fields);
    if (!parsed.success) {
      await file?.cleanup();
      return data<NewsFormActionData>({ fieldErrors: fieldErrorsOf(parsed.error), values: sentValues(fields) }, { status: 400 });
    }
    if (newsId !== null && parsed.data.body === undefined) {
      // Without JavaScript the body comes back as plain text: when that text is the body's own, unchanged, the
      // formatting it had (subheads, links, lists) stays; an edited text becomes paragraphs again.
      const current = await services.news.getNews(newsId, { includeUnpublished: true }).catch(() => null);
      if (current && docToPlainText(plainTextToDoc(parsed.data.fullContent)) === docToPlainText(current.body)) parsed.data.body = current.body;
    }
    let result: Awaited<ReturnType<typeof newsEditor.createNews>>;
    try {
      result =
        newsId !== null
          ? await newsEditor.updateNews(newsId, parsed.data, file, memberActor(actor))
          : await newsEditor.createNews(parsed.data, file, memberActor(actor));
    } catch (error) {
      if (error instanceof FieldsError) return data<NewsFormActionData>({ fieldErrors: error.fields, values: sentValues(fields) }, { status: 400 });
      // The media store cannot take the file now: nothing is saved, and the form comes back with what was typed.
      if (error instanceof AppError && error.code === "storage_not_connected") {
        return data<NewsFormActionData>(
          { error: t.newsForm.submitError(editing, error.publicMessage), values: sentValues(fields) },
          { status: error.status },
        );
      }
      throw error;
    }
    // An unpublish, and a new story's first save, land on its edit page (which says what happened, with links).
    if (editing && parsed.data.unpublish) throw redirect(editPageAfterSave(result.id, UNPUBLISHED_OUTCOME, result.version));
    if (editing) throw redirect(href("/article/:id/:slug?", { id: result.id }));
    throw redirect(editPageAfterSave(result.id, result.status, result.version, result.media));
  }
}
