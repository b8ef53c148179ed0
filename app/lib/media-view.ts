/** What a page needs to show a stored image or video. Built on the server, rendered on both sides. */
export interface MediaView {
  kind: "image" | "video";
  /** Default URL: the 800 px variant in the original format for images, the file for videos. */
  src: string;
  mimeType: string;
  width: number | null;
  height: number | null;
  /** `srcset` of the original-format variants (images), of the poster frame's JPEG variants (videos). */
  srcSet: string | null;
  /** `srcset` of the WebP variants (images; for videos, of the poster frame). */
  webpSrcSet: string | null;
  /** Videos: the poster frame (800 px WebP) shown before playing; null or absent when the video has none. */
  poster?: string | null;
  /** The largest variant, for the full-screen view. */
  largeSrc: string;
  /**
   * Media left where the original product kept it (Google Drive), imported by `npm run import:firestore`: `src` is
   * that address, there are no variants and the file was never copied to this server.
   */
  external?: boolean;
  /** What the image shows, for screen readers: its `alt` (the news title when there is none, as on older images). */
  description?: string | null;
  /** Shown under the media on the article and in the full-screen view. */
  caption?: string | null;
  /** Who made it, shown as "Foto: {credit}". */
  credit?: string | null;
}

/** The `alt` of a news item's image: its description, or the title for images stored without one. */
export function imageAlt(media: Pick<MediaView, "description"> | null, title: string): string {
  return media?.description?.trim() || title;
}

export const DEFAULT_IMAGE_URL = "/images/bola-padrao.svg";
