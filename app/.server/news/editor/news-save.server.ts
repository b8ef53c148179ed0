import { t } from "#app/i18n/newsroom.ts";
import type { MergeConflict } from "#app/lib/news-merge.ts";
import { missingImageDescription, type NewsInput } from "#app/lib/news-schema.ts";
import type { NewsConflictCurrent, NewsStatus } from "#app/lib/news-view.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { isEmptyDoc, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import type { StoredNewsStatus } from "#app/.server/db/schema.ts";
import { AppError, FieldsError } from "#app/.server/errors.ts";
import type { MediaTextColumns } from "#app/.server/media/media.queries.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { inReview, type NewsContentColumns, newsContentColumns } from "#app/.server/news/news-rows.server.ts";
import type { ReviewEventKind } from "#app/.server/news/publishing/news-review.server.ts";

/*
 * What a save of the news editor (news-editor.service.server.ts) reads from checked input and answers: the columns
 * and media texts of the input, the conflicts it refuses with, what it says it did, the review step it makes.
 */

/**
 * A save based on an older version than the saved one (someone else saved in between): a 409 with a stable code,
 * carrying what is saved now so the editor can see what changed, reload, or overwrite on purpose.
 */
export class NewsConflictError extends AppError {
  override name = "NewsConflictError";
  readonly current: NewsConflictCurrent;
  constructor(current: NewsConflictCurrent, code = "news_version_conflict", message: string = t.newsForm.conflict) {
    super(code, message, 409);
    this.current = current;
  }
}

/**
 * "Salvar mesmo assim" found fields both editors changed (app/lib/news-merge.ts): a 409 with both values of each, and
 * who saved the other version and when. Nothing was written.
 */
export class NewsMergeConflictError extends NewsConflictError {
  override name = "NewsMergeConflictError";
  readonly merge: MergeConflict;
  constructor(merge: MergeConflict) {
    super(merge.current, "news_merge_conflict", t.newsForm.mergeConflict);
    this.merge = merge;
  }
}

/**
 * The body of checked input: the structured `body` when it has text, else the plain `fullContent` (a blank line
 * between paragraphs), else the subtitle (the original's default).
 */
export function bodyOfInput(input: { body?: RichDoc | undefined; fullContent?: string | undefined }, subtitle: string): RichDoc {
  if (input.body && !isEmptyDoc(input.body)) return input.body;
  return plainTextToDoc(input.fullContent?.trim() ? input.fullContent : subtitle);
}

/**
 * The columns of a news item from checked input, with the original's defaults: the body is the subtitle, the
 * category 'Geral' and the author the newsroom (also used by the Firestore import).
 */
export function newsColumns(input: NewsInput, defaultAuthor: string): NewsContentColumns {
  return newsContentColumns({
    title: input.title,
    subtitle: input.subtitle,
    fullContent: "",
    body: bodyOfInput(input, input.subtitle),
    category: input.category?.trim() || t.news.defaultCategory,
    author: input.author?.trim() || defaultAuthor,
    isHighlighted: Boolean(input.isHighlighted),
  });
}

/** The description, caption and credit of a news item's media: a text, null to clear, absent to leave as it is. */
export type MediaText = MediaTextColumns;

/** The media text of checked input: every field (a whole item) or only those sent (a PATCH). Blank clears. */
export function mediaTextOf(input: { mediaDescription?: string; mediaCaption?: string; mediaCredit?: string }, whole: boolean): MediaText {
  const value = (text: string | undefined) => (text === undefined ? (whole ? null : undefined) : text.trim() || null);
  const result: MediaText = {};
  for (const [key, text] of [
    ["description", input.mediaDescription],
    ["caption", input.mediaCaption],
    ["credit", input.mediaCredit],
  ] as const) {
    const next = value(text);
    if (next !== undefined) result[key] = next;
  }
  return result;
}

/** A new image without a description is refused before anything is stored (its temporary file removed). */
export async function requireImageDescription(file: UploadedFile | null, description: string | null | undefined) {
  const message = missingImageDescription(file?.kind === "image", description ?? undefined);
  if (!message) return;
  await file?.cleanup();
  throw new FieldsError("media_description_required", { mediaDescription: [message] });
}

/** What happened to the media of a saved news item (drives the success message). */
export type MediaOutcome = "saved" | "new" | "existing" | "none";

/** What a save answers. */
export interface SavedNews {
  id: string;
  media: MediaOutcome;
  status: NewsStatus;
  publishedAt: string;
  version: number;
}

/**
 * The review step a save makes: sent for review, or approved (a story in review published or scheduled). A
 * reporter's (`byReporter`) save of a story already published or scheduled is a correction, and a reporter publishing
 * or scheduling (with the "publica sem revisão" right) publishes directly: no editor approved either.
 */
export function reviewStepOf(
  before: { status: StoredNewsStatus; review_requested_at: string | null } | null,
  after: { status: StoredNewsStatus; review_requested_at: string | null },
  byReporter = false,
): ReviewEventKind | null {
  if (byReporter && before && before.status !== "draft") return "corrected";
  if (byReporter && after.status !== "draft") return "published_directly";
  if (inReview(after) && !(before && inReview(before))) return "submitted";
  if (before && inReview(before) && after.status !== "draft") return "approved";
  return null;
}
