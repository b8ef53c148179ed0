import type { ReactNode } from "react";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import { encodeChoices, type MergeChoice, type MergeField } from "#app/lib/news-merge.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import type { NewsAutosaveView, NewsFormValues } from "#app/lib/news-autosave.ts";
import type { DriveStatusView } from "./drive-connection.tsx";
import { checkNewsMediaFile, missingImageDescription, newsFormSchema } from "#app/lib/news-schema.ts";
import type { NewsStatus } from "#app/lib/news-view.ts";
import { isEmptyDoc, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import type { PickedFile } from "./media-picker.tsx";
import type { AutosaveDraft } from "./use-news-autosave.ts";

export type { NewsFormValues };

/** A field that can show an error (the body's errors show under `fullContent`). */
export type Field = Exclude<keyof NewsFormValues, "body"> | "fullContent" | "media" | "publishAt";
export type FieldErrors = Partial<Record<Field, string>>;

/** Where an edited item stands now: its status, publication date, version and media (what a conflict compares). */
export interface NewsFormPublication {
  status: NewsStatus;
  publishedAt: string;
  version: number;
  mediaId: string | null;
}

export const EMPTY_NEWS_FORM: NewsFormValues = {
  title: "",
  subtitle: "",
  body: { type: "doc", content: [] },
  category: "",
  author: "",
  mediaDescription: "",
  mediaCaption: "",
  mediaCredit: "",
  isHighlighted: false,
};

/** `base` with the text fields a refused submission sent (no JavaScript) put back. */
export function valuesFrom(sent: Record<string, string> | undefined, base: NewsFormValues): NewsFormValues {
  if (!sent) return base;
  const values = { ...base, isHighlighted: sent.isHighlighted === "on" };
  for (const key of Object.keys(base) as Array<keyof NewsFormValues>) {
    if (key !== "isHighlighted" && key !== "body" && typeof sent[key] === "string") values[key] = sent[key];
  }
  // Without JavaScript the body is sent as plain text.
  if (typeof sent.fullContent === "string") values.body = plainTextToDoc(sent.fullContent);
  return values;
}

/** The first message of each field, from a server's answer (`body` shows under the body, as `fullContent`). */
export function firstErrors(fieldErrors: Partial<Record<string, string[]>> | undefined): FieldErrors {
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(fieldErrors ?? {})) {
    if (messages?.[0]) result[(field === "body" ? "fullContent" : field) as Field] ??= messages[0];
  }
  return result;
}

/** The browser's check before sending: the schema's messages, the picked file's, and a new image's description. */
export function validateNews(values: NewsFormValues, intent: NewsStatus, publishAt: string, picked: PickedFile | null): FieldErrors {
  const parsed = newsFormSchema.safeParse({ ...values, status: intent, publishAt: intent === "scheduled" ? publishAt : undefined });
  const errors: FieldErrors = {};
  if (!parsed.success) {
    // The body's problems show under the body, whichever of its two fields they were found in.
    for (const issue of parsed.error.issues) errors[(issue.path[0] === "body" ? "fullContent" : issue.path[0]) as Field] ??= issue.message;
  }
  const fileProblem = picked ? checkNewsMediaFile(picked.file) : null;
  if (fileProblem) errors.media = fileProblem;
  const noDescription = missingImageDescription(Boolean(picked?.file.type.startsWith("image/")), values.mediaDescription);
  if (noDescription) errors.mediaDescription = noDescription;
  return errors;
}

/** What the JSON API is sent for a save. */
/** A merge save's extra fields: what this editor changed, and (after a 409 with both sides) the choices. */
export interface MergeRequest {
  changed: MergeField[];
  choices?: Partial<Record<MergeField, MergeChoice>> | undefined;
  /** The version saved now that the choices were made against. */
  seen?: number | undefined;
}

export function saveBody(
  values: NewsFormValues,
  options: {
    intent: NewsStatus;
    publishAt: string;
    version: number | undefined;
    unpublish: boolean;
    removeMedia: boolean;
    picked: PickedFile | null;
    /** "Salvar mesmo assim": the fields changed since `version`, and the choices made (news-merge.ts). */
    merge?: MergeRequest | undefined;
  },
): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(values)) {
    if (key === "isHighlighted") {
      if (value) body.append(key, "on");
    } else if (key === "body") body.append(key, JSON.stringify(value));
    else body.append(key, String(value));
  }
  if (options.removeMedia && !options.picked) body.append("removeMedia", "on");
  if (options.unpublish) body.append("unpublish", "on");
  body.append("status", options.intent);
  if (options.intent === "scheduled") body.append("publishAt", options.publishAt);
  if (options.version !== undefined) body.append("version", String(options.version));
  if (options.merge) {
    body.append("merge", "on");
    body.append("mergeChanged", options.merge.changed.join(","));
    if (options.merge.choices && options.merge.seen !== undefined) {
      body.append("mergeChoices", encodeChoices(options.merge.choices));
      body.append("mergeSeen", String(options.merge.seen));
    }
  }
  if (options.picked) body.append("media", options.picked.file, options.picked.file.name);
  return body;
}

/** What an autosave keeps of the form. */
export function draftOf(values: NewsFormValues, publishAt: string, version: number): AutosaveDraft {
  return { ...values, publishAt, version };
}

/**
 * The form's content as compared to tell a change: the draft, with an empty body always the same (the editor writes
 * an empty document as one empty paragraph).
 */
export function comparable(draft: AutosaveDraft): string {
  return JSON.stringify({ ...draft, body: isEmptyDoc(draft.body) ? null : draft.body });
}

/** The form's values from an autosave. */
export function valuesOfAutosave(saved: NewsAutosaveView): NewsFormValues {
  return {
    title: saved.title,
    subtitle: saved.subtitle,
    body: saved.body,
    category: saved.category,
    author: saved.author,
    mediaDescription: saved.mediaDescription,
    mediaCaption: saved.mediaCaption,
    mediaCredit: saved.mediaCredit,
    isHighlighted: saved.isHighlighted,
  };
}

/**
 * After a refused submit: the first field marked invalid, in the form's order, scrolled to the middle of the screen
 * and focused (a phone's keyboard then opens on it; the message is read with it through aria-describedby).
 */
export function focusFirstInvalid(form: HTMLElement | null): void {
  const first = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!first) return;
  first.scrollIntoView({ block: "center" });
  first.focus({ preventScroll: true });
}

/** What the news form is given by its route (add-news.tsx, edit-news.tsx). */
export interface NewsFormProps {
  mode: "create" | "edit";
  newsId?: string;
  initial: NewsFormValues;
  currentMedia: MediaView | null;
  defaultAuthor: string;
  storeConnected: boolean;
  storeLabel: string;
  /** The media store's name in the "not answering" messages ("S3", "disco local"); the label when absent. */
  storeName?: string;
  /** Categories already in use, suggested as the editor types (a <datalist>). */
  categorySuggestions?: string[];
  /** The team members' signing names: the author field's list (a free text stays possible). */
  authorChoices?: string[];
  /** A reporter with the "publica sem revisão" right: offered "Publicar" and "Agendar" on their own stories. */
  publishesWithoutReview?: boolean;
  /** The Google Drive connection (MEDIA_STORE=gdrive only): shows its card instead of the plain warning. */
  drive?: DriveStatusView | null;
  /** What the server action answered when the form was sent without JavaScript. */
  serverResult?:
    | {
        success?: string;
        error?: string;
        fieldErrors?: Partial<Record<string, string[]>>;
        values?: Record<string, string>;
        confirmUnpublish?: boolean;
      }
    | undefined;
  /** Above the fields: a notice about the story (the editor's note when it was returned to its reporter). */
  notice?: ReactNode;
  /** Where a save landed the editor (a new story's first save, an unpublish): the banner's message and the links to see it. */
  landed?: { message: string; published: boolean } | null | undefined;
  /** The site's time zone: the schedule field is on its clock. */
  timeZone: string;
  /** Editing: the item's status, dates and version as loaded. */
  publication?: NewsFormPublication | undefined;
  /** Editing a scheduled item: its time as the schedule field shows it ("2026-11-25T10:00"). */
  initialPublishAt?: string | undefined;
  /** After a conflict: load the saved version (`savedVersion`, or a later one) into a new form (the editor's changes are dropped on purpose). */
  onReload?: ((savedVersion: number) => void) | undefined;
  /** The signed-in user: a new story's autosave in this browser is kept under their id. */
  autosaveUser?: string | null | undefined;
  /** Editing: this user's autosave of the story, when newer than its last save (offered to recover). */
  autosave?: NewsAutosaveView | null | undefined;
}

/** What an edit's save says it did (a draft, a schedule, or the story updated with its media). */
export function savedMessage(
  answer: { status?: NewsStatus | undefined; publishedAt?: string | undefined; media: "saved" | "new" | "existing" | "none" },
  timeZone: string,
  storeLabel: string,
): string {
  if (answer.status === "review") return t.newsForm.reviewSaved;
  if (answer.status === "draft") return t.newsForm.draftSaved;
  if (answer.status === "scheduled" && answer.publishedAt) return t.newsForm.scheduledSaved(formatDateTime(answer.publishedAt, timeZone));
  return t.newsForm.success(true, answer.media, storeLabel);
}
