import { z } from "./zod.ts";
import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "./clean-text.ts";
import { LOCAL_DATE_TIME, ZONED_DATE_TIME } from "./zoned-time.ts";
import { NEWS_LIMITS, NEWS_MEDIA_MAX_BYTES, SPONSOR_IMAGE_MAX_BYTES } from "./limits.ts";
import { isMergeField, type MergeChoice, type MergeField } from "./news-merge.ts";
import type { RichDoc } from "./rich-text.ts";
import { docToPlainText, isEmptyDoc } from "./rich-text-plain.ts";
import { richDocSchema } from "./rich-text-schema.ts";

type NewsTextField = keyof typeof NEWS_LIMITS;

/**
 * One text field: cleaned (app/lib/clean-text.ts: invisible, control and direction characters dropped, no-break
 * space runs made one space, NFC), trimmed; refused with its own pt-BR message only when it holds a character that
 * cannot be cleaned (naming the word), when it is longer than its limit, and (when required) when it is empty. Only
 * strings are accepted (a number or an object is a type error, never its text).
 */
function text(field: NewsTextField, requiredMessage: string | null) {
  const label = t.newsForm.fieldLabel[field];
  return z
    .string({ error: requiredMessage ?? t.api.fieldType(field) })
    .transform((value) => cleanText(value).trim())
    .superRefine((value, ctx) => {
      const unsaveable = findUnsaveableCharacter(value);
      if (unsaveable) ctx.addIssue({ code: "custom", message: t.newsForm.unsaveableCharacter(label, unsaveable.word, unsaveable.codePoint) });
      else if (value.length > NEWS_LIMITS[field]) ctx.addIssue({ code: "custom", message: t.newsForm.tooLong(label, NEWS_LIMITS[field]) });
      else if (value === "" && requiredMessage) ctx.addIssue({ code: "custom", message: requiredMessage });
    });
}

const required = (field: NewsTextField, message: string) => text(field, message);
const checkbox = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((value) => value === true || value === "on" || value === "true" || value === "1");

/** A request to take a published item offline: true when sent as true/"on"/"true"/"1", else absent. */
const unpublishFlag = z
  .union([z.boolean(), z.string()])
  .transform((value) => value === true || value === "on" || value === "true" || value === "1")
  .optional();

/** Draft, scheduled or published; absent: published for a new item, unchanged for an edit. */
const status = z.enum(["draft", "review", "scheduled", "published"], { error: t.newsForm.invalidStatus }).optional();
/** When a scheduled item goes live: "2026-11-25T10:00" on the site's clock, or an ISO instant with its zone. */
const publishAt = z
  .string({ error: t.newsForm.invalidPublishAt })
  .trim()
  .refine((value) => value === "" || LOCAL_DATE_TIME.test(value) || ZONED_DATE_TIME.test(value), { error: t.newsForm.invalidPublishAt })
  .optional();
/** The version the editor started from (a whole number); a save based on an older one is a conflict. */
const version = z
  .union([z.number(), z.string()], { error: t.newsForm.invalidVersion })
  .transform((value, ctx) => {
    if (value === "") return undefined;
    const number = typeof value === "number" ? value : /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < 1) {
      ctx.addIssue({ code: "custom", message: t.newsForm.invalidVersion });
      return z.NEVER;
    }
    return number;
  })
  .optional();
const publishing = { status, publishAt, version };

/** A list of merge fields: "title,body" (a form field) or an array (JSON). */
const mergeFieldList = z
  .union([z.string(), z.array(z.string())], { error: t.newsForm.invalidMerge })
  .transform((value, ctx) => {
    const names = (Array.isArray(value) ? value : value.split(",")).map((name) => name.trim()).filter(Boolean);
    if (!names.every(isMergeField)) {
      ctx.addIssue({ code: "custom", message: t.newsForm.invalidMerge });
      return z.NEVER;
    }
    return [...new Set(names)];
  })
  .optional();
/** The editor's choice per field both changed: "title=mine,body=theirs" (a form field) or an object (JSON). */
const mergeChoices = z
  .union([z.string(), z.record(z.string(), z.string())], { error: t.newsForm.invalidMerge })
  .transform((value, ctx) => {
    const pairs =
      typeof value === "string"
        ? value
            .split(",")
            .filter((pair) => pair.trim())
            .map((pair) => pair.split("="))
        : Object.entries(value);
    const choices: Partial<Record<MergeField, MergeChoice>> = {};
    for (const [field = "", choice = ""] of pairs) {
      const name = field.trim();
      if (!isMergeField(name) || (choice.trim() !== "mine" && choice.trim() !== "theirs")) {
        ctx.addIssue({ code: "custom", message: t.newsForm.invalidMerge });
        return z.NEVER;
      }
      choices[name] = choice.trim() as MergeChoice;
    }
    return choices;
  })
  .optional();
/**
 * "Salvar mesmo assim" (app/lib/news-merge.ts): `merge` on, `version` the base, `mergeChanged` the fields changed
 * from it; after a choice, `mergeChoices` and `mergeSeen` (the version the choices were made against).
 */
const merging = { merge: unpublishFlag, mergeChanged: mergeFieldList, mergeChoices, mergeSeen: version };

/**
 * The structured body (`body`: ProseMirror JSON, as a value or as JSON text in a form field), checked against the
 * editor's schema (which cleans each text); its text is then held to the same rules as the plain-text `fullContent`
 * (length, characters that cannot be cleaned), reported under `body`.
 */
const body = richDocSchema.optional();
const bodyText = text("fullContent", null);
function checkBodyText(doc: RichDoc | undefined, ctx: z.RefinementCtx) {
  if (!doc) return;
  const parsed = bodyText.safeParse(docToPlainText(doc));
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: ["body"], message: issue.message });
}
/** Whether a body was given: a structured one with visible text, else the plain text. */
export function hasBody(value: { body?: RichDoc | undefined; fullContent?: string | undefined }): boolean {
  return value.body ? !isEmptyDoc(value.body) : Boolean(value.fullContent?.trim());
}

/**
 * The news form, checked in the browser before sending and again by the server action. Every field but the author
 * is required after trimming, with the original's messages.
 */
export const newsFormSchema = z
  .object({
    title: required("title", t.newsForm.titleRequired),
    subtitle: required("subtitle", t.newsForm.subtitleRequired),
    // The body: the editor's `body` (with JavaScript) or the plain-text `fullContent` (without); one is required.
    fullContent: text("fullContent", null).optional().default(""),
    body,
    category: required("category", t.newsForm.categoryRequired),
    author: text("author", null).optional().default(""),
    mediaDescription: text("mediaDescription", null).optional().default(""),
    mediaCaption: text("mediaCaption", null).optional().default(""),
    mediaCredit: text("mediaCredit", null).optional().default(""),
    isHighlighted: checkbox,
    removeMedia: checkbox,
    unpublish: unpublishFlag,
    ...publishing,
  })
  .superRefine((value, ctx) => {
    checkBodyText(value.body, ctx);
    if (!hasBody(value)) ctx.addIssue({ code: "custom", path: ["fullContent"], message: t.newsForm.fullContentRequired });
    if (value.status === "scheduled" && !value.publishAt)
      ctx.addIssue({ code: "custom", path: ["publishAt"], message: t.newsForm.publishAtRequired });
  });

export type NewsFormInput = z.infer<typeof newsFormSchema>;

/** Each field of a news item as the service takes it (forms and the JSON API). */
const newsFields = {
  title: required("title", t.newsForm.titleRequired),
  subtitle: required("subtitle", t.newsForm.subtitleRequired),
  fullContent: text("fullContent", null),
  category: text("category", null),
  author: text("author", null),
  /** The image's description for screen readers (required with a new image), caption and credit. */
  mediaDescription: text("mediaDescription", null),
  mediaCaption: text("mediaCaption", null),
  mediaCredit: text("mediaCredit", null),
};

/**
 * A whole news item (creating, or replacing with PUT): as the original service did, the body defaults to the
 * subtitle, the category to 'Geral' and the author to the newsroom. The body is `body` (structured) or `fullContent`
 * (plain text, a blank line between paragraphs); `body` wins when both are sent.
 */
export const newsInputSchema = z
  .object({
    ...newsFields,
    fullContent: newsFields.fullContent.optional(),
    body,
    category: newsFields.category.optional(),
    author: newsFields.author.optional(),
    mediaDescription: newsFields.mediaDescription.optional(),
    mediaCaption: newsFields.mediaCaption.optional(),
    mediaCredit: newsFields.mediaCredit.optional(),
    isHighlighted: checkbox,
    removeMedia: checkbox,
    /** Take a published item offline (to a draft, or to `status: "scheduled"`); without it a published item stays live. */
    unpublish: unpublishFlag,
    ...publishing,
    ...merging,
  })
  .superRefine((value, ctx) => checkBodyText(value.body, ctx));

export type NewsInput = z.infer<typeof newsInputSchema>;

const flag = z
  .union([z.boolean(), z.string()], { error: t.api.fieldType("isHighlighted") })
  .transform((value) => value === true || value === "on" || value === "true" || value === "1");

/**
 * A partial change (PATCH): only the fields sent change, each under the same rules as a whole item (a title sent
 * empty is refused; an empty fullContent, category or author takes its default). At least one field.
 */
export const newsPatchSchema = z
  .object({
    ...newsFields,
    body: richDocSchema,
    isHighlighted: flag,
    removeMedia: flag,
    unpublish: unpublishFlag,
    status: status.unwrap(),
    publishAt: z
      .string({ error: t.newsForm.invalidPublishAt })
      .trim()
      .refine((value) => LOCAL_DATE_TIME.test(value) || ZONED_DATE_TIME.test(value), {
        error: t.newsForm.invalidPublishAt,
      }),
  })
  .partial()
  .extend({ version })
  .refine((patch) => Object.entries(patch).some(([key, value]) => key !== "version" && value !== undefined), { error: t.api.emptyPatch })
  .superRefine((value, ctx) => checkBodyText(value.body, ctx));

export type NewsPatch = z.infer<typeof newsPatchSchema>;

/**
 * A new image must say what it shows (for screen readers): the pt-BR message when `description` is blank, else
 * null. Videos and images already stored (older ones have none) are not asked.
 */
export function missingImageDescription(newFileIsImage: boolean, description: string | undefined): string | null {
  return newFileIsImage && !description?.trim() ? t.newsForm.mediaDescriptionRequired : null;
}

/** Browser-side check of a picked news media file (the server checks the real bytes again). */
export function checkNewsMediaFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/") && !file.type.startsWith("video/")) return t.newsForm.invalidMedia;
  if (file.size > NEWS_MEDIA_MAX_BYTES) return t.newsForm.mediaTooLarge;
  return null;
}

/** Browser-side check of a picked sponsor image. */
export function checkSponsorImageFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return t.sponsors.imageOnly;
  if (file.size > SPONSOR_IMAGE_MAX_BYTES) return t.sponsors.tooLarge;
  return null;
}

/** The schedule field as typed: empty, or a date and time (at most this long; checked again on a real save). */
const AUTOSAVE_PUBLISH_AT_MAX = 40;

/**
 * An autosave of the news form (PUT /api/news/:id/autosave): the work in progress as typed, so nothing is required
 * (an empty title is fine), but every text is held to the same rules as a save: cleaned, its limit, no character that
 * cannot be cleaned; the body to the editor's schema and its size cap. `version`: the version the form opened.
 */
export const newsAutosaveSchema = z
  .object({
    title: text("title", null).optional().default(""),
    subtitle: text("subtitle", null).optional().default(""),
    body: richDocSchema.optional(),
    category: text("category", null).optional().default(""),
    author: text("author", null).optional().default(""),
    mediaDescription: text("mediaDescription", null).optional().default(""),
    mediaCaption: text("mediaCaption", null).optional().default(""),
    mediaCredit: text("mediaCredit", null).optional().default(""),
    isHighlighted: checkbox,
    publishAt: z
      .string({ error: t.newsForm.invalidPublishAt })
      .trim()
      .refine((value) => value === "" || (value.length <= AUTOSAVE_PUBLISH_AT_MAX && (LOCAL_DATE_TIME.test(value) || ZONED_DATE_TIME.test(value))), {
        error: t.newsForm.invalidPublishAt,
      })
      .optional()
      .default(""),
    version,
  })
  .superRefine((value, ctx) => checkBodyText(value.body, ctx));

export type NewsAutosaveInput = z.infer<typeof newsAutosaveSchema>;
