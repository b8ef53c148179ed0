/** Whether a stored file is a picture or a video. */
export type MediaKind = "image" | "video";

export interface MediaType {
  kind: MediaKind;
  /** The Content-Type it is served with, and what its magic bytes are detected as. */
  mimeType: string;
  /** Its extension in media keys, without the dot (what `file-type` reports for its magic bytes). */
  extension: string;
  /**
   * Videos: the ffmpeg demuxer that reads it (video posters). Naming it keeps ffmpeg from guessing the format from
   * the content: a file that is really a playlist or a concat script is then just a broken video, never a list of
   * other files or addresses to open.
   */
  demuxer?: string;
}

/**
 * Every media type the site accepts, stores and serves: the one table behind the upload check (by detected magic
 * bytes), the keys' extensions and the Content-Type of /media/ responses. Images are stored re-encoded as WebP next to
 * their original format; videos as uploaded. A file whose extension is not here is never served from the media
 * folder, whatever is on disk.
 */
export const MEDIA_TYPES: readonly MediaType[] = [
  { kind: "image", mimeType: "image/jpeg", extension: "jpg" },
  { kind: "image", mimeType: "image/png", extension: "png" },
  { kind: "image", mimeType: "image/gif", extension: "gif" },
  { kind: "image", mimeType: "image/webp", extension: "webp" },
  { kind: "image", mimeType: "image/avif", extension: "avif" },
  { kind: "video", mimeType: "video/mp4", extension: "mp4", demuxer: "mov" },
  { kind: "video", mimeType: "video/quicktime", extension: "mov", demuxer: "mov" },
  { kind: "video", mimeType: "video/x-msvideo", extension: "avi", demuxer: "avi" },
  { kind: "video", mimeType: "video/webm", extension: "webm", demuxer: "matroska" },
];

const BY_EXTENSION = new Map(MEDIA_TYPES.map((type) => [type.extension, type]));
const BY_MIME_TYPE = new Map(MEDIA_TYPES.map((type) => [type.mimeType, type]));

/** The media type of an extension (`jpg`, `mp4`…), or undefined for one we do not handle. */
export function mediaTypeByExtension(extension: string): MediaType | undefined {
  return BY_EXTENSION.get(extension.toLowerCase());
}

/** The media type of a MIME type (`image/jpeg`…), or undefined for one we do not handle. */
export function mediaTypeByMimeType(mimeType: string): MediaType | undefined {
  return BY_MIME_TYPE.get(mimeType);
}

/** The Content-Type a media key (or path) is served with, from its extension; undefined when it is not media. */
export function contentTypeOfKey(key: string): string | undefined {
  const dot = key.lastIndexOf(".");
  return dot < 0 ? undefined : BY_EXTENSION.get(key.slice(dot + 1))?.mimeType;
}

/**
 * The `store` of media kept where the original product left it (imported from Firestore, see
 * app/.server/import/firestore-import.server.ts): the key is the address plus `#<collection>-<id>` (keys are unique and
 * each record belongs to one news item or sponsor). No store holds these files: they are never written, served,
 * deleted or swept here.
 */
export const EXTERNAL_STORE = "external";
