import { z } from "zod";
import { t } from "../i18n/pt-BR.ts";

/** Largest news media file: 10 MB (10485760 bytes). */
export const NEWS_MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/** Largest sponsor image: 5 MB (5242880 bytes). */
export const SPONSOR_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message });
const checkbox = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((value) => value === true || value === "on" || value === "true" || value === "1");

/**
 * The news form, checked in the browser before sending and again by the server action. Every field but the author
 * is required after trimming, with the original's messages.
 */
export const newsFormSchema = z.object({
  title: required(t.newsForm.titleRequired).max(300),
  subtitle: required(t.newsForm.subtitleRequired).max(1000),
  fullContent: required(t.newsForm.fullContentRequired).max(100_000),
  category: required(t.newsForm.categoryRequired).max(60),
  author: z.string().trim().max(120).optional().default(""),
  isHighlighted: checkbox,
  removeMedia: checkbox,
});

export type NewsFormInput = z.infer<typeof newsFormSchema>;

/** Each field of a news item as the service takes it (forms and the JSON API). */
const newsFields = {
  title: required(t.newsForm.titleRequired).max(300),
  subtitle: required(t.newsForm.subtitleRequired).max(1000),
  fullContent: z.string({ error: t.api.fieldType("fullContent") }).trim().max(100_000),
  category: z.string({ error: t.api.fieldType("category") }).trim().max(60),
  author: z.string({ error: t.api.fieldType("author") }).trim().max(120),
};

/**
 * A whole news item (creating, or replacing with PUT): as the original service did, fullContent defaults to the
 * subtitle, the category to 'Geral' and the author to the newsroom.
 */
export const newsInputSchema = z.object({
  ...newsFields,
  fullContent: newsFields.fullContent.optional(),
  category: newsFields.category.optional(),
  author: newsFields.author.optional(),
  isHighlighted: checkbox,
  removeMedia: checkbox,
});

export type NewsInput = z.infer<typeof newsInputSchema>;

const flag = z.union([z.boolean(), z.string()], { error: t.api.fieldType("isHighlighted") }).transform(
  (value) => value === true || value === "on" || value === "true" || value === "1",
);

/**
 * A partial change (PATCH): only the fields sent change, each under the same rules as a whole item (a title sent
 * empty is refused; an empty fullContent, category or author takes its default). At least one field.
 */
export const newsPatchSchema = z
  .object({
    ...newsFields,
    isHighlighted: flag,
    removeMedia: flag,
  })
  .partial()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: t.api.emptyPatch });

export type NewsPatch = z.infer<typeof newsPatchSchema>;

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
