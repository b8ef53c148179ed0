import { t } from "#app/i18n/newsroom.ts";
import { cleanText, findUnsaveableCharacter } from "./clean-text.ts";
import { PROFILE_LIMITS, PROFILE_PHOTO_MAX_BYTES } from "./limits.ts";
import { z } from "./zod.ts";

/** The pt-BR problem with a profile link, or null: http or https only, a host, no user or password in it. */
export function profileLinkProblem(value: string): string | null {
  if (value.length > PROFILE_LIMITS.link) return t.profile.linkTooLong;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return t.profile.linkInvalid;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname) return t.profile.linkInvalid;
  if (url.username || url.password) return t.profile.linkCredentials;
  return null;
}

const link = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : null))
  .superRefine((value, context) => {
    const problem = value === null ? null : profileLinkProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** A character that cannot be cleaned (app/lib/clean-text.ts) is refused, naming its word and the field. */
function saveable(label: string) {
  return (value: string, context: z.RefinementCtx) => {
    const unsaveable = findUnsaveableCharacter(value);
    if (unsaveable) context.addIssue({ code: "custom", message: t.newsForm.unsaveableCharacter(label, unsaveable.word, unsaveable.codePoint) });
  };
}

/**
 * A member's public profile as /perfil sends it (text; an empty link clears it). Checked in the browser and again
 * by the server. The bio keeps its line breaks.
 */
export const profileFieldsSchema = z.object({
  // Cleaned as the newsroom's texts are (a name pasted from a web page loses its invisible characters), then checked.
  displayName: z
    .string({ error: t.profile.displayNameRequired })
    .transform((value) => cleanText(value, { lines: false }).trim())
    .pipe(
      z
        .string()
        .min(1, { error: t.profile.displayNameRequired })
        .max(PROFILE_LIMITS.displayName, { error: t.profile.displayNameTooLong })
        .superRefine(saveable(t.profile.displayName)),
    ),
  bio: z
    .string()
    .optional()
    .transform((value) => cleanText(value ?? "").trim())
    .refine((value) => value.length <= PROFILE_LIMITS.bio, { error: t.profile.bioTooLong })
    .superRefine(saveable(t.profile.bio)),
  linkX: link,
  linkInstagram: link,
  linkSite: link,
  removePhoto: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true" || value === "1"),
});

export type ProfileFields = z.infer<typeof profileFieldsSchema>;

/** Browser-side check of a picked profile photo (the server checks the real bytes again). */
export function checkProfilePhotoFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return t.profile.photoOnly;
  if (file.size > PROFILE_PHOTO_MAX_BYTES) return t.profile.photoTooLarge;
  return null;
}
