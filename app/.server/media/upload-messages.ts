import { t } from "#app/i18n/newsroom.ts";

/**
 * pt-BR texts of the upload pipeline, from the catalogue. The size and type texts are the original's (SPEC §5);
 * the others are ours, for failures the original could not detect (corrupt files, decompression bombs, broken forms).
 */
export const UPLOAD_MESSAGES = {
  newsTooLarge: t.newsForm.mediaTooLarge,
  newsInvalidType: t.newsForm.invalidMedia,
  sponsorTooLarge: t.sponsors.tooLarge,
  sponsorInvalidType: t.sponsors.imageOnly,
  profileTooLarge: t.profile.photoTooLarge,
  profileInvalidType: t.profile.photoOnly,
  ...t.upload,
} as const;
