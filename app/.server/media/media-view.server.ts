import type { MediaView } from "#app/lib/media-view.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { parseVariants } from "./media-keys.ts";
import { EXTERNAL_STORE } from "./media-types.ts";

/** The columns of `media` a page needs, as read through a join (all nullable). */
export interface JoinedMediaColumns {
  media_store: string | null;
  media_kind: "image" | "video" | null;
  media_key: string | null;
  media_mime_type: string | null;
  media_width: number | null;
  media_height: number | null;
  media_variants: string | null;
  /** The image's description, caption and credit (absent from queries that do not need them). */
  media_description?: string | null;
  media_caption?: string | null;
  media_credit?: string | null;
  /** The point a crop keeps (percent; both null: the centre). */
  media_focus_x?: number | null;
  media_focus_y?: number | null;
}

/** Builds what the browser needs to show a media item, with URLs from the store. */
export function toMediaView(row: JoinedMediaColumns, store: Pick<MediaStore, "publicUrl">): MediaView | null {
  const view = toBareMediaView(row, store);
  if (!view) return null;
  const texts = { description: row.media_description || null, caption: row.media_caption || null, credit: row.media_credit || null };
  // A focus point only where the newsroom set one (the centre otherwise: no `object-position` of its own).
  return row.media_focus_x != null && row.media_focus_y != null
    ? { ...view, ...texts, focus: { x: row.media_focus_x, y: row.media_focus_y } }
    : { ...view, ...texts };
}

function toBareMediaView(row: JoinedMediaColumns, store: Pick<MediaStore, "publicUrl">): MediaView | null {
  if (!row.media_kind || !row.media_key || !row.media_mime_type) return null;
  if (row.media_store === EXTERNAL_STORE) {
    // The address as imported (the `#news-…` fragment never reaches the other server). Dimensions are unknown.
    const src = row.media_key;
    return {
      kind: row.media_kind,
      src,
      mimeType: row.media_mime_type,
      width: null,
      height: null,
      srcSet: null,
      webpSrcSet: null,
      largeSrc: src,
      external: true,
    };
  }
  const src = store.publicUrl(row.media_key);
  const variants = parseVariants(row.media_variants);
  const srcSetOf = (format: string) => {
    const list = variants.filter((variant) => variant.format === format);
    return list.length ? list.map((variant) => `${store.publicUrl(variant.key)} ${variant.width}w`).join(", ") : null;
  };
  if (row.media_kind === "video") {
    // The poster frame's variants (none for a video stored before posters, or whose poster could not be made).
    const webp = variants.filter((variant) => variant.format === "webp");
    const posterVariant = webp.find((variant) => variant.width === 800) ?? webp.at(-1) ?? variants.at(-1);
    return {
      kind: "video",
      src,
      mimeType: row.media_mime_type,
      width: posterVariant ? row.media_width : null,
      height: posterVariant ? row.media_height : null,
      srcSet: srcSetOf("jpeg"),
      webpSrcSet: srcSetOf("webp"),
      largeSrc: src,
      poster: posterVariant ? store.publicUrl(posterVariant.key) : null,
      external: false,
    };
  }
  const originalFormat = variants.find((variant) => variant.key === row.media_key)?.format ?? "jpeg";
  const largest = variants.filter((variant) => variant.format === originalFormat).at(-1);
  return {
    kind: "image",
    src,
    mimeType: row.media_mime_type,
    width: row.media_width,
    height: row.media_height,
    srcSet: srcSetOf(originalFormat),
    webpSrcSet: originalFormat === "webp" ? null : srcSetOf("webp"),
    largeSrc: largest ? store.publicUrl(largest.key) : src,
    external: false,
  };
}
