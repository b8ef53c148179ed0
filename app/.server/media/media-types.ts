/**
 * The media a URL under /media/ may serve, by file extension, with the Content-Type it is served with: what the
 * upload pipeline stores (images re-encoded as WebP and their original format, videos as uploaded). Anything else is
 * never served from the media folder, whatever is on disk.
 */
export const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
  webm: "video/webm",
};

/**
 * The `store` of media kept where the original product left it (imported from Firestore, see
 * app/.server/import/firestore-import.server.ts): the key is the address plus `#<collection>-<id>` (keys are unique and
 * each record belongs to one news item or sponsor). No store holds these files: they are never written, served,
 * deleted or swept here.
 */
export const EXTERNAL_STORE = "external";
