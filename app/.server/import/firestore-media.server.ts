import fs from "node:fs/promises";
import path from "node:path";
import { fileTypeFromFile } from "file-type";
import type { Kysely } from "kysely";
import { terminal } from "#app/i18n/pt-BR.ts";
import { NEWS_MEDIA_MAX_BYTES, SPONSOR_IMAGE_MAX_BYTES } from "#app/lib/limits.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import type { Database, MediaRow, NewMediaRow } from "#app/.server/db/schema.ts";
import { EXTERNAL_STORE, mediaTypeByExtension } from "#app/.server/media/media-types.ts";
import { printable } from "./firestore-export.server.ts";

/**
 * The media of an imported document (see firestore-import.server.ts): the file named by its Drive id in the media
 * folder when there is a usable one, else its address kept as external media; and writing it with the document.
 */

export type ImportedCollection = "news" | "sponsors";

/** What to do with a document's media. */
export type MediaPlan =
  | { kind: "none" }
  | { kind: "external"; mediaKind: "image" | "video"; url: string }
  | { kind: "file"; mediaKind: "image" | "video"; file: string; mimeType: string; size: number; fallback: MediaPlan };

/** Which media a written document ended with. */
export type MediaOutcome = "external" | "copied" | "none";

/** What planning and writing media need from the import run. */
export interface MediaContext {
  db: Kysely<Database>;
  media: AppServices["media"];
  dryRun: boolean;
  clock: () => Date;
  /** Files of the media folder by Drive file id. */
  mediaFiles: Map<string, string>;
  /** Tells one media problem of `collection/id` (the document is not refused for it). */
  note: (collection: ImportedCollection, id: string, text: string) => void;
}

const MEDIA_NOTES = terminal.import.mediaNotes;
const DRIVE_FILE_ID = /^[A-Za-z0-9_-]{1,200}$/;
const MAX_URL_LENGTH = 2000;
/** A host name as DNS writes it (the URL parser lower-cases it and turns other scripts into punycode). */
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** The original's Drive thumbnail service: a JPEG up to 1600 px wide, public when the file is shared. */
export const driveThumbnailUrl = (fileId: string) => `https://drive.google.com/thumbnail?id=${encodeURIComponent(fileId)}&sz=w1600`;

/** A field's value, with Firestore's `null` meaning "not set" (the original's defaults then apply). */
export const field = (data: Record<string, unknown>, name: string) => (data[name] === null ? undefined : data[name]);

/**
 * An absolute http(s) address on a plain host name (letters, digits, hyphens, dots; a port allowed), without
 * credentials, or null. A host with anything else in it (`$(…)`, quotes, `;`) is not an address worth keeping, and
 * its origin would be printed for the operator.
 */
export function httpUrl(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    if (url.username || url.password || !HOST_NAME.test(url.hostname)) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The files of the media folder by Drive file id: `<id>` or `<id>.<extension>` (the first in name order wins). */
export async function indexMediaDir(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await fs.readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isFile()) continue;
    const dot = entry.name.indexOf(".");
    const id = dot === -1 ? entry.name : entry.name.slice(0, dot);
    if (DRIVE_FILE_ID.test(id) && !files.has(id)) files.set(id, path.join(dir, entry.name));
  }
  return files;
}

/** The kind of media a document declares: news may say video; anything else but image (or nothing) is null. */
function declaredKind(context: MediaContext, collection: ImportedCollection, id: string, data: Record<string, unknown>) {
  if (collection !== "news") return "image";
  const declared = field(data, "mediaType");
  if (declared === "video") return "video";
  if (declared === undefined || declared === "image") return "image";
  if (data.mediaUrl || data.driveFileId) context.note(collection, id, MEDIA_NOTES.badMediaType(printable(String(declared))));
  return null;
}

/** The document's Drive file id, when it has a well-formed one. */
function driveIdOf(context: MediaContext, collection: ImportedCollection, id: string, data: Record<string, unknown>): string | null {
  const driveId = typeof data.driveFileId === "string" && data.driveFileId.trim() ? data.driveFileId.trim() : null;
  if (driveId && !DRIVE_FILE_ID.test(driveId)) {
    context.note(collection, id, MEDIA_NOTES.badDriveId);
    return null;
  }
  return driveId;
}

/** The address the media stays at: the Drive thumbnail (images with a Drive id) or the first address field set. */
function externalPlan(
  context: MediaContext,
  collection: ImportedCollection,
  id: string,
  data: Record<string, unknown>,
  mediaKind: "image" | "video",
  driveId: string | null,
): MediaPlan {
  const candidates =
    mediaKind === "image"
      ? [driveId ? driveThumbnailUrl(driveId) : null, field(data, "mediaUrl"), field(data, "imageUrl"), field(data, "thumbnailUrl")]
      : [field(data, "mediaUrl")];
  const given = candidates.find((candidate) => typeof candidate === "string" && candidate.trim() !== "") as string | undefined;
  if (given === undefined) return { kind: "none" };
  const url = httpUrl(given.trim());
  if (url) return { kind: "external", mediaKind, url };
  context.note(collection, id, MEDIA_NOTES.badUrl);
  return { kind: "none" };
}

/** The copied file's plan, or `external` when the file is of a refused type or size (told on its line). */
async function filePlan(context: MediaContext, collection: ImportedCollection, id: string, file: string, external: MediaPlan): Promise<MediaPlan> {
  const refused = (reason: string) => {
    context.note(collection, id, MEDIA_NOTES.fileRefused(path.basename(file), reason));
    return external;
  };
  const detected = await fileTypeFromFile(file).catch(() => undefined);
  const mimeType = detected ? mediaTypeByExtension(detected.ext)?.mimeType : undefined;
  if (!mimeType) return refused(MEDIA_NOTES.unknownType);
  const fileKind = mimeType.startsWith("video/") ? "video" : "image";
  if (collection === "sponsors" && fileKind !== "image") return refused(MEDIA_NOTES.notAnImage);
  const max = collection === "sponsors" ? SPONSOR_IMAGE_MAX_BYTES : NEWS_MEDIA_MAX_BYTES;
  const { size } = await fs.stat(file);
  if (size > max) return refused(MEDIA_NOTES.tooLarge(max));
  return { kind: "file", mediaKind: fileKind, file, mimeType, size, fallback: external };
}

/** The media plan of a document: the local file when there is a usable one, else the external address. */
export async function planMedia(
  context: MediaContext,
  collection: ImportedCollection,
  id: string,
  data: Record<string, unknown>,
): Promise<MediaPlan> {
  const mediaKind = declaredKind(context, collection, id, data);
  if (!mediaKind) return { kind: "none" };
  const driveId = driveIdOf(context, collection, id, data);
  const external = externalPlan(context, collection, id, data, mediaKind, driveId);
  const file = driveId ? context.mediaFiles.get(driveId) : undefined;
  return file ? filePlan(context, collection, id, file, external) : external;
}

/**
 * Stores a copied file (images re-encoded into variants): the record, or null when the pipeline refused it (told
 * on its line; the caller falls back to the external address).
 */
async function storeFile(
  context: MediaContext,
  collection: ImportedCollection,
  id: string,
  plan: Extract<MediaPlan, { kind: "file" }>,
): Promise<MediaRow | null> {
  const name = path.basename(plan.file);
  if (plan.mediaKind === "video") return context.media.saveVideoFile(plan.file, plan.mimeType, plan.size, name);
  try {
    return await context.media.saveImage(await fs.readFile(plan.file), name);
  } catch {
    context.note(collection, id, MEDIA_NOTES.fileRefused(name, MEDIA_NOTES.corrupt));
    return null;
  }
}

function externalRecord(
  context: MediaContext,
  collection: ImportedCollection,
  id: string,
  plan: Extract<MediaPlan, { kind: "external" }>,
): NewMediaRow {
  return {
    id: crypto.randomUUID(),
    kind: plan.mediaKind,
    store: EXTERNAL_STORE,
    key: `${plan.url}#${collection}-${id}`,
    mime_type: plan.mediaKind === "video" ? "video/mp4" : "image/jpeg",
    size_bytes: 0,
    width: null,
    height: null,
    variants: "[]",
    original_name: null,
    created_at: context.clock().toISOString(),
  };
}

/** Writes the row with a copied file: the file first, its record removed again when the row fails. */
async function writeWithFile(
  context: MediaContext,
  collection: ImportedCollection,
  id: string,
  plan: Extract<MediaPlan, { kind: "file" }>,
  insert: (trx: Kysely<Database>, mediaId: string | null) => Promise<void>,
): Promise<MediaOutcome> {
  if (context.dryRun) return "copied";
  const stored = await storeFile(context, collection, id, plan);
  if (!stored) return writeWithMedia(context, collection, id, plan.fallback, insert);
  try {
    await insert(context.db, stored.id);
  } catch (error) {
    await context.media.deleteMedia(stored.id).catch(() => undefined);
    throw error;
  }
  return "copied";
}

/**
 * Writes one document with its media: external media in the same transaction as the row; a copied file first.
 * Returns which kind of media it ended with (in a dry run, which it would).
 */
export async function writeWithMedia(
  context: MediaContext,
  collection: ImportedCollection,
  id: string,
  plan: MediaPlan,
  insert: (trx: Kysely<Database>, mediaId: string | null) => Promise<void>,
): Promise<MediaOutcome> {
  if (plan.kind === "file") return writeWithFile(context, collection, id, plan, insert);
  if (context.dryRun) return plan.kind;
  if (plan.kind === "none") {
    await insert(context.db, null);
    return "none";
  }
  const record = externalRecord(context, collection, id, plan);
  await context.db.transaction().execute(async (trx) => {
    await trx.insertInto("media").values(record).execute();
    await insert(trx, record.id);
  });
  return "external";
}

/** The origins a document's external media is shown from (Drive's thumbnail redirects to its image servers). */
export function externalOrigins(plan: MediaPlan): string[] {
  const external = plan.kind === "file" ? plan.fallback : plan;
  if (external.kind !== "external") return [];
  const url = new URL(external.url);
  return url.hostname === "drive.google.com" ? [url.origin, "https://*.googleusercontent.com"] : [url.origin];
}
