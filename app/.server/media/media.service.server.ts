import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database, MediaRow, NewMediaRow } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { hashFile, putFileUnchanged } from "./file-hash.server.ts";
import { type EncodeOptions, extensionFor, type ProcessedImage, processImage } from "./image-variants.server.ts";
import { createInstallation, type Installation, ownPrefix } from "./installation.server.ts";
import { mediaKeys, objectFolder, type StoredVariant } from "./media-keys.ts";
import { deleteMediaRow, findMedia, insertMedia } from "./media.queries.server.ts";
import { EXTERNAL_STORE, mediaTypeByMimeType } from "./media-types.ts";
import { UPLOAD_MESSAGES } from "./upload-messages.ts";
import { UploadError, type UploadedFile } from "./upload.server.ts";
import { makeVideoPoster, type VideoPoster } from "./video-poster.server.ts";

export interface MediaServiceDeps {
  db: Kysely<Database>;
  store: MediaStore;
  /** Whose objects these are: every key starts with the installation id (default: the one in `db`). */
  installation?: Installation;
  clock?: () => Date;
  /**
   * Where file removals that failed are reported (they are retried by the orphan sweeper), and videos stored
   * without a poster because ffmpeg could not make one.
   */
  log?: Pick<Logger, "warn">;
  /** Reads a video's poster frame and duration (default: ffmpeg, `makeVideoPoster`). */
  videoPoster?: (path: string, mimeType: string) => Promise<VideoPoster>;
}

/**
 * Stores media files and their records. Files are written first and the record after; when the record cannot
 * be written the files are removed again, so nothing is left half-saved.
 */
export function createMediaService({
  db,
  store,
  clock = () => new Date(),
  log,
  installation = createInstallation(db),
  videoPoster = makeVideoPoster,
}: MediaServiceDeps) {
  async function insertRecord(row: NewMediaRow, keys: string[]): Promise<MediaRow> {
    try {
      await insertMedia(db, row);
      return {
        description: null,
        caption: null,
        credit: null,
        focus_x: null,
        focus_y: null,
        ...row,
        variants: row.variants ?? "[]",
        duration_ms: row.duration_ms ?? null,
      } as MediaRow;
    } catch (error) {
      await Promise.allSettled(keys.map((key) => store.delete(key)));
      throw error;
    }
  }

  /** Writes an image's variants under `img/…`; on a failure the ones already written are removed again. */
  async function putVariants(image: ProcessedImage, id: string): Promise<StoredVariant[]> {
    const folder = objectFolder(image.hash, id);
    const owner = await installation.id();
    const stored: StoredVariant[] = [];
    try {
      for (const variant of image.variants) {
        const key = `${ownPrefix(owner)}img/${folder}/${variant.width}.${extensionFor(variant.format)}`;
        await store.put(key, variant.data, variant.mimeType);
        stored.push({ width: variant.width, height: variant.height, format: variant.format, mimeType: variant.mimeType, key });
      }
    } catch (error) {
      await Promise.allSettled(stored.map((variant) => store.delete(variant.key)));
      throw error;
    }
    return stored;
  }

  async function storeImage(image: ProcessedImage, sizeBytes: number, originalName: string | null): Promise<MediaRow> {
    const id = randomUUID();
    const stored = await putVariants(image, id);
    const main = pickDefault(stored, image.format);
    return insertRecord(
      {
        id,
        kind: "image",
        store: store.name,
        key: main.key,
        mime_type: main.mimeType,
        size_bytes: sizeBytes,
        width: image.width,
        height: image.height,
        variants: JSON.stringify(stored),
        original_name: originalName,
        created_at: clock().toISOString(),
      },
      stored.map((variant) => variant.key),
    );
  }

  interface PosterFiles {
    variants: StoredVariant[];
    width: number | null;
    height: number | null;
    durationMs: number | null;
  }

  /**
   * Makes and stores the poster frame of the video at `filePath` (the media item `id`'s). A video whose poster cannot
   * be made (ffmpeg missing, an undecodable file, a store failure) is still stored: without a poster, logged.
   */
  async function storePoster(id: string, filePath: string, mimeType: string): Promise<PosterFiles> {
    try {
      const poster = await videoPoster(filePath, mimeType);
      const variants = await putVariants(poster.image, id);
      return { variants, width: poster.image.width, height: poster.image.height, durationMs: poster.durationMs };
    } catch (error) {
      log?.warn({ err: error, mediaId: id, mimeType }, "video poster could not be made; the video is stored without one");
      return { variants: [], width: null, height: null, durationMs: null };
    }
  }

  function videoRecord(id: string, key: string, mimeType: string, size: number, originalName: string | null, poster: PosterFiles): NewMediaRow {
    return {
      id,
      kind: "video",
      store: store.name,
      key,
      mime_type: mimeType,
      size_bytes: size,
      width: poster.width,
      height: poster.height,
      variants: JSON.stringify(poster.variants),
      duration_ms: poster.durationMs,
      original_name: originalName,
      created_at: clock().toISOString(),
    };
  }

  /** Stores a video and its poster's files, then the record; a failure removes whatever was written. */
  async function storeVideo(key: string, poster: PosterFiles, put: () => Promise<void>, record: NewMediaRow): Promise<MediaRow> {
    const posterKeys = poster.variants.map((variant) => variant.key);
    try {
      await put();
    } catch (error) {
      await Promise.allSettled(posterKeys.map((posterKey) => store.delete(posterKey)));
      throw error;
    }
    return insertRecord(record, [key, ...posterKeys]);
  }

  /**
   * Stores a video file from disk without reading it into memory: one streaming pass computes the content hash
   * (the key carries it), a second streams the bytes into the store while checking they are the same bytes.
   */
  async function saveVideoFile(filePath: string, mimeType: string, size: number, originalName: string | null = null): Promise<MediaRow> {
    const first = await hashFile(filePath);
    if (first.size !== size) throw new Error(`video size changed: expected ${size}, read ${first.size}`);
    const id = randomUUID();
    const key = `${ownPrefix(await installation.id())}vid/${objectFolder(first.hash, id)}.${mediaTypeByMimeType(mimeType)?.extension ?? "mp4"}`;
    const poster = await storePoster(id, filePath, mimeType);
    const record = videoRecord(id, key, mimeType, size, originalName, poster);
    return storeVideo(key, poster, () => putFileUnchanged(store, key, filePath, mimeType, first), record);
  }

  return {
    /** Re-encodes an image into variants (`encoding`: how hard the encoders work), stores them and records the media. */
    async saveImage(input: Buffer, originalName: string | null = null, encoding: EncodeOptions = {}): Promise<MediaRow> {
      return storeImage(await processImage(input, encoding), input.length, originalName);
    },

    /**
     * Stores an image already re-encoded by `processImage`, under keys and a record of its own. For bulk seeding:
     * one picture is encoded once and stored for many news, each owning its copy (deleting a news item deletes its
     * media, so two news never share one record or one file).
     */
    async saveProcessedImage(image: ProcessedImage, sizeBytes: number, originalName: string | null = null): Promise<MediaRow> {
      return storeImage(image, sizeBytes, originalName);
    },

    /** Stores a video as it is, with a poster frame when ffmpeg can make one. */
    async saveVideo(input: Buffer, mimeType: string, originalName: string | null = null): Promise<MediaRow> {
      const id = randomUUID();
      const hash = createHash("sha256").update(input).digest("hex");
      const key = `${ownPrefix(await installation.id())}vid/${objectFolder(hash, id)}.${mediaTypeByMimeType(mimeType)?.extension ?? "mp4"}`;
      // ffmpeg reads files: the bytes go to a private temporary one for the poster.
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "eef-video-"));
      let poster: PosterFiles;
      try {
        const file = path.join(dir, `video.${mediaTypeByMimeType(mimeType)?.extension ?? "mp4"}`);
        await fs.writeFile(file, input, { mode: 0o600 });
        poster = await storePoster(id, file, mimeType);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
      const record = videoRecord(id, key, mimeType, input.length, originalName, poster);
      return storeVideo(key, poster, () => store.put(key, input, mimeType), record);
    },

    saveVideoFile,

    /**
     * Stores a file received by `parseUploadForm` (its type already checked from its magic bytes) and records it.
     * Images are decoded and re-encoded: an image that cannot be decoded to the end is refused as `upload_corrupt`,
     * one with too many pixels as `upload_too_large`. Videos are streamed into the store as they are. The temporary
     * file is always removed, whatever happens.
     */
    async saveUpload(file: UploadedFile): Promise<MediaRow> {
      try {
        const originalName = file.originalName || null;
        if (file.kind === "video") return await saveVideoFile(file.path, file.mimeType, file.size, originalName);
        // At most the upload limit (10 MB): the decoder needs the bytes anyway.
        const input = await fs.readFile(file.path);
        let image: ProcessedImage;
        try {
          image = await processImage(input);
        } catch (error) {
          throw imageUploadError(error);
        }
        return await storeImage(image, input.length, originalName);
      } finally {
        await file.cleanup();
      }
    },

    /**
     * Removes a media record, then its files (every variant). A file that cannot be removed is logged and left to
     * the orphan sweeper. Returns false when there was no such record.
     */
    async deleteMedia(mediaId: string): Promise<boolean> {
      const row = await findMedia(db, mediaId);
      if (!row) return false;
      await deleteMediaRow(db, mediaId);
      // External media has no file of ours: only the record goes.
      if (row.store === EXTERNAL_STORE) return true;
      const keys = mediaKeys(row);
      const results = await Promise.allSettled(keys.map((key) => store.delete(key)));
      results.forEach((result, index) => {
        if (result.status === "rejected") {
          log?.warn({ err: result.reason, mediaId, key: keys[index] }, "media file removal failed; the orphan sweeper will retry");
        }
      });
      return true;
    },
  };
}

/** Maps a failure to decode an uploaded image to the error the user sees. */
function imageUploadError(error: unknown): UploadError {
  const detail = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(detail)) {
    return new UploadError("upload_too_large", UPLOAD_MESSAGES.imageTooManyPixels, { cause: error });
  }
  return new UploadError("upload_corrupt", UPLOAD_MESSAGES.corruptImage, { cause: error });
}

export type MediaService = ReturnType<typeof createMediaService>;

function pickDefault(variants: StoredVariant[], originalFormat: string): StoredVariant {
  const original = variants.filter((variant) => variant.format === originalFormat);
  const chosen = original.find((variant) => variant.width === 800) ?? original.at(-1) ?? variants[0];
  if (!chosen) throw new Error("no variant generated");
  return chosen;
}
