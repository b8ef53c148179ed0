import { createHash, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { MediaView } from "../../lib/media-view.ts";
import type { Database, MediaRow, NewMediaRow } from "../db/schema.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { extensionFor, processImage } from "./image-variants.server.ts";

export interface StoredVariant {
  width: number;
  height: number;
  format: string;
  mimeType: string;
  key: string;
}

export interface MediaServiceDeps {
  db: Kysely<Database>;
  store: MediaStore;
  clock?: () => Date;
}

/**
 * Stores media files and their records. Files are written first and the record after; when the record cannot
 * be written the files are removed again, so nothing is left half-saved.
 */
export function createMediaService({ db, store, clock = () => new Date() }: MediaServiceDeps) {
  async function insertRecord(row: NewMediaRow, keys: string[]): Promise<MediaRow> {
    try {
      await db.insertInto("media").values(row).execute();
      return { ...row, variants: row.variants ?? "[]" } as MediaRow;
    } catch (error) {
      await Promise.allSettled(keys.map((key) => store.delete(key)));
      throw error;
    }
  }

  return {
    /** Re-encodes an image into variants, stores them and records the media. */
    async saveImage(input: Buffer, originalName: string | null = null): Promise<MediaRow> {
      const image = await processImage(input);
      const id = randomUUID();
      const folder = objectFolder(image.hash, id);
      const stored: StoredVariant[] = [];
      try {
        for (const variant of image.variants) {
          const key = `img/${folder}/${variant.width}.${extensionFor(variant.format)}`;
          await store.put(key, variant.data, variant.mimeType);
          stored.push({ width: variant.width, height: variant.height, format: variant.format, mimeType: variant.mimeType, key });
        }
      } catch (error) {
        await Promise.allSettled(stored.map((variant) => store.delete(variant.key)));
        throw error;
      }
      const main = pickDefault(stored, image.format);
      return insertRecord(
        {
          id,
          kind: "image",
          store: store.name,
          key: main.key,
          mime_type: main.mimeType,
          size_bytes: input.length,
          width: image.width,
          height: image.height,
          variants: JSON.stringify(stored),
          original_name: originalName,
          created_at: clock().toISOString(),
        },
        stored.map((variant) => variant.key),
      );
    },

    /** Stores a video as it is. */
    async saveVideo(input: Buffer, mimeType: string, originalName: string | null = null): Promise<MediaRow> {
      const id = randomUUID();
      const hash = createHash("sha256").update(input).digest("hex");
      const key = `vid/${objectFolder(hash, id)}.${VIDEO_EXTENSIONS[mimeType] ?? "mp4"}`;
      await store.put(key, input, mimeType);
      return insertRecord(
        {
          id,
          kind: "video",
          store: store.name,
          key,
          mime_type: mimeType,
          size_bytes: input.length,
          width: null,
          height: null,
          variants: "[]",
          original_name: originalName,
          created_at: clock().toISOString(),
        },
        [key],
      );
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;

const VIDEO_EXTENSIONS: Record<string, string> = {
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/x-msvideo": "avi",
  "video/webm": "webm",
};

/**
 * Where a media item's files live: the content hash (so a URL's bytes never change) plus the record's id (so
 * two uploads of the same file never share, or delete, each other's files).
 */
function objectFolder(hash: string, id: string): string {
  return `${hash.slice(0, 24)}-${id.slice(0, 8)}`;
}

function pickDefault(variants: StoredVariant[], originalFormat: string): StoredVariant {
  const original = variants.filter((variant) => variant.format === originalFormat);
  const chosen = original.find((variant) => variant.width === 800) ?? original.at(-1) ?? variants[0];
  if (!chosen) throw new Error("Nenhuma variante gerada");
  return chosen;
}

/** The columns of `media` a page needs, as read through a join (all nullable). */
export interface JoinedMediaColumns {
  media_kind: "image" | "video" | null;
  media_key: string | null;
  media_mime_type: string | null;
  media_width: number | null;
  media_height: number | null;
  media_variants: string | null;
}

/** Builds what the browser needs to show a media item, with URLs from the store. */
export function toMediaView(row: JoinedMediaColumns, store: Pick<MediaStore, "publicUrl">): MediaView | null {
  if (!row.media_kind || !row.media_key || !row.media_mime_type) return null;
  const src = store.publicUrl(row.media_key);
  if (row.media_kind === "video") {
    return { kind: "video", src, mimeType: row.media_mime_type, width: null, height: null, srcSet: null, webpSrcSet: null, largeSrc: src };
  }
  const variants = JSON.parse(row.media_variants ?? "[]") as StoredVariant[];
  const srcSetOf = (format: string) => {
    const list = variants.filter((variant) => variant.format === format);
    return list.length ? list.map((variant) => `${store.publicUrl(variant.key)} ${variant.width}w`).join(", ") : null;
  };
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
  };
}
