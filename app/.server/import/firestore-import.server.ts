import fs from "node:fs/promises";
import path from "node:path";
import { fileTypeFromFile } from "file-type";
import type { Kysely } from "kysely";
import { newsInputSchema } from "../../lib/news-schema.ts";
import { terminal } from "../../i18n/pt-BR.ts";
import { IMPORT_DOCUMENT_ID_MAX_LENGTH, NEWS_MEDIA_MAX_BYTES, SPONSOR_IMAGE_MAX_BYTES } from "../../lib/limits.ts";
import type { AppServices } from "../app.server.ts";
import type { Database, MediaRow, NewMediaRow } from "../db/schema.ts";
import type { SiteEvent } from "../events/event-bus.ts";
import { SQLITE_CHANGE_POLL_MS } from "../events/sqlite-event-bus.server.ts";
import { EXTERNAL_STORE, mediaTypeByExtension } from "../media/media-types.ts";
import { newsColumns } from "../news/news-editor.service.server.ts";
import { canonicalNewsTerms } from "../news/taxonomy.server.ts";
import { publishedNewsRow } from "../news/news-rows.server.ts";
import { parseTimestamp, printable, readFirestoreExport } from "./firestore-export.server.ts";

/**
 * `npm run import:firestore`: moves the original product's news, sponsors and admins (an export of its Firestore
 * database, see firestore-export.server.ts) into this installation.
 *
 * - Document ids are kept, so the old `/article/{firestoreId}` links keep working. An id already here is skipped
 *   (counted as "já existente"): running the import twice changes nothing.
 * - Text goes through the news form's rules (`newsInputSchema`) and the original's defaults (fullContent = subtitle,
 *   category 'Geral', author = the newsroom). A document that breaks them is refused with one line naming it and
 *   why; the others are imported.
 * - Media: with `mediaDir`, the file named by the Drive file id (with or without an extension) goes through the
 *   normal media pipeline (type from the bytes, images re-encoded into variants). Otherwise, or when that file is
 *   missing or refused, the media stays where it is as external media: a record of store `external` whose key is the
 *   address plus `#<collection>-<id>`. Nothing is downloaded.
 * - `admins` documents are uids of the original's Firebase accounts, which have no account here: they are reported.
 */

export type ImportedCollection = "news" | "sponsors";

export interface CollectionCounts {
  /** Documents written (or, in a dry run, that would be). */
  imported: number;
  /** Documents whose id is already here (or appeared earlier in this export): skipped. */
  existing: number;
  /** Documents refused (one line each says why). */
  refused: number;
  /** Imported documents whose media stays external. */
  externalMedia: number;
  /** Imported documents whose media file was copied from the media folder. */
  copiedMedia: number;
}

export interface ImportSummary {
  news: CollectionCounts;
  sponsors: CollectionCounts;
  /** The original's admins (uid, and e-mail when the document has one). */
  admins: Array<{ uid: string; email: string | null }>;
  /** Collections that are not imported, with how many documents each had. */
  ignored: Record<string, number>;
  /** Lines of the export that could not be read at all (bad JSON, bad path). */
  unreadable: number;
  /** Origins the imported external media is shown from (for EXTERNAL_MEDIA_ORIGINS). */
  externalOrigins: string[];
  /** The events published for running servers (none in a dry run or when nothing was written). */
  published: SiteEvent[];
}

export interface ImportOptions {
  /** Folder of media files named by Drive file id. */
  mediaDir?: string | null;
  /** Check and count only: nothing is written. */
  dryRun?: boolean;
  /** Where each refused document and each media problem is told (one line each). */
  report: (line: string) => void;
  clock?: () => Date;
}

type ImportServices = Pick<AppServices, "database" | "media" | "store" | "events"> & {
  config: { site: { defaultAuthor: string } };
};

/** The original's Drive thumbnail service: a JPEG up to 1600 px wide, public when the file is shared. */
export const driveThumbnailUrl = (fileId: string) => `https://drive.google.com/thumbnail?id=${encodeURIComponent(fileId)}&sz=w1600`;

/** Ids we keep as they are: what Firestore generates (20 letters and digits) and any other URL-safe id. */
const DOCUMENT_ID = new RegExp(`^[A-Za-z0-9_-][A-Za-z0-9._~-]{0,${IMPORT_DOCUMENT_ID_MAX_LENGTH - 1}}$`);
const DRIVE_FILE_ID = /^[A-Za-z0-9_-]{1,200}$/;
const MAX_URL_LENGTH = 2000;

/** Reasons a document is refused, and media problems that do not refuse it (pt-BR, after `collection/id: `). */
const REFUSED = terminal.import.refused;
const MEDIA_NOTES = terminal.import.mediaNotes;

const emptyCounts = (): CollectionCounts => ({ imported: 0, existing: 0, refused: 0, externalMedia: 0, copiedMedia: 0 });

/** A field's value, with Firestore's `null` meaning "not set" (the original's defaults then apply). */
const field = (data: Record<string, unknown>, name: string) => (data[name] === null ? undefined : data[name]);

/** What to do with a document's media. */
type MediaPlan =
  | { kind: "none" }
  | { kind: "external"; mediaKind: "image" | "video"; url: string }
  | { kind: "file"; mediaKind: "image" | "video"; file: string; mimeType: string; size: number; fallback: MediaPlan };

export async function importFirestore(services: ImportServices, input: string, options: ImportOptions): Promise<ImportSummary> {
  const { db } = services.database;
  const { report, dryRun = false } = options;
  const clock = options.clock ?? (() => new Date());
  const summary: ImportSummary = {
    news: emptyCounts(),
    sponsors: emptyCounts(),
    admins: [],
    ignored: {},
    unreadable: 0,
    externalOrigins: [],
    published: [],
  };
  const origins = new Set<string>();
  const seen = { news: new Set<string>(), sponsors: new Set<string>(), admins: new Set<string>() };
  const mediaFiles = options.mediaDir ? await indexMediaDir(options.mediaDir) : new Map<string, string>();

  const refuse = (collection: ImportedCollection, id: string, reason: string) => {
    summary[collection].refused++;
    report(`${collection}/${printable(id)}: ${reason}`);
  };

  /** The media plan of a document: the local file when there is a usable one, else the external address. */
  async function planMedia(collection: ImportedCollection, id: string, data: Record<string, unknown>): Promise<MediaPlan> {
    const note = (text: string) => report(`${collection}/${printable(id)}: ${text}`);
    let mediaKind: "image" | "video" = "image";
    if (collection === "news") {
      const declared = field(data, "mediaType");
      if (declared === "video") mediaKind = "video";
      else if (declared !== undefined && declared !== "image") {
        if (data.mediaUrl || data.driveFileId) note(MEDIA_NOTES.badMediaType(printable(String(declared))));
        return { kind: "none" };
      }
    }
    let driveId = typeof data.driveFileId === "string" && data.driveFileId.trim() ? data.driveFileId.trim() : null;
    if (driveId && !DRIVE_FILE_ID.test(driveId)) {
      note(MEDIA_NOTES.badDriveId);
      driveId = null;
    }

    const candidates =
      mediaKind === "image"
        ? [driveId ? driveThumbnailUrl(driveId) : null, field(data, "mediaUrl"), field(data, "imageUrl"), field(data, "thumbnailUrl")]
        : [field(data, "mediaUrl")];
    const given = candidates.find((candidate) => typeof candidate === "string" && candidate.trim() !== "") as string | undefined;
    let external: MediaPlan = { kind: "none" };
    if (given !== undefined) {
      const url = httpUrl(given.trim());
      if (url) external = { kind: "external", mediaKind, url };
      else note(MEDIA_NOTES.badUrl);
    }

    const file = driveId ? mediaFiles.get(driveId) : undefined;
    if (!file) return external;
    const refused = (reason: string) => {
      note(MEDIA_NOTES.fileRefused(path.basename(file), reason));
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

  /**
   * Stores a copied file (images re-encoded into variants): the record, or null when the pipeline refused it (told
   * on its line; the caller falls back to the external address).
   */
  async function storeFile(collection: ImportedCollection, id: string, plan: Extract<MediaPlan, { kind: "file" }>): Promise<MediaRow | null> {
    const name = path.basename(plan.file);
    if (plan.mediaKind === "video") return services.media.saveVideoFile(plan.file, plan.mimeType, plan.size, name);
    try {
      return await services.media.saveImage(await fs.readFile(plan.file), name);
    } catch {
      report(`${collection}/${printable(id)}: ${MEDIA_NOTES.fileRefused(name, MEDIA_NOTES.corrupt)}`);
      return null;
    }
  }

  function externalRecord(collection: ImportedCollection, id: string, plan: Extract<MediaPlan, { kind: "external" }>): NewMediaRow {
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
      created_at: clock().toISOString(),
    };
  }

  /**
   * Writes one document with its media: external media in the same transaction as the row; a copied file first (its
   * record removed again when the row fails). Returns which kind of media it ended with.
   */
  async function write(
    collection: ImportedCollection,
    id: string,
    plan: MediaPlan,
    insert: (trx: Kysely<Database>, mediaId: string | null) => Promise<void>,
  ): Promise<"external" | "copied" | "none"> {
    if (plan.kind === "file") {
      const stored = dryRun ? null : await storeFile(collection, id, plan);
      if (dryRun) return "copied";
      if (stored) {
        try {
          await insert(db, stored.id);
        } catch (error) {
          await services.media.deleteMedia(stored.id).catch(() => undefined);
          throw error;
        }
        return "copied";
      }
      return write(collection, id, plan.fallback, insert);
    }
    if (dryRun) return plan.kind === "external" ? "external" : "none";
    if (plan.kind === "none") {
      await insert(db, null);
      return "none";
    }
    const record = externalRecord(collection, id, plan);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("media").values(record).execute();
      await insert(trx, record.id);
    });
    return "external";
  }

  /** Counts a written document by its media; remembers the origins external media is shown from. */
  function counted(collection: ImportedCollection, outcome: "external" | "copied" | "none", plan: MediaPlan) {
    summary[collection].imported++;
    if (outcome === "copied") summary[collection].copiedMedia++;
    if (outcome === "external") {
      summary[collection].externalMedia++;
      const external = plan.kind === "file" ? plan.fallback : plan;
      if (external.kind === "external") {
        origins.add(new URL(external.url).origin);
        // Drive's thumbnail answers with a redirect to its image servers, which the policy must allow too.
        if (new URL(external.url).hostname === "drive.google.com") origins.add("https://*.googleusercontent.com");
      }
    }
  }

  /** True when the document was already imported (or appeared earlier in this export): it is then skipped. */
  async function alreadyHere(collection: ImportedCollection, id: string): Promise<boolean> {
    if (seen[collection].has(id)) return true;
    seen[collection].add(id);
    const row = await db.selectFrom(collection).select("id").where("id", "=", id).executeTakeFirst();
    return Boolean(row);
  }

  async function importNews(id: string, data: Record<string, unknown>) {
    if (!DOCUMENT_ID.test(id)) return refuse("news", id, REFUSED.badId);
    if (await alreadyHere("news", id)) {
      summary.news.existing++;
      return;
    }
    const highlighted = field(data, "isHighlighted");
    if (highlighted !== undefined && typeof highlighted !== "boolean") return refuse("news", id, REFUSED.highlight);
    const parsed = newsInputSchema.safeParse({
      title: field(data, "title"),
      subtitle: field(data, "subtitle"),
      fullContent: field(data, "fullContent"),
      category: field(data, "category"),
      author: field(data, "author"),
      isHighlighted: highlighted ?? false,
    });
    if (!parsed.success) return refuse("news", id, parsed.error.issues[0]?.message ?? REFUSED.invalidData);
    const createdAt = parseTimestamp(field(data, "createdAt"));
    if (!createdAt) return refuse("news", id, REFUSED.createdAt);
    const updatedValue = field(data, "updatedAt");
    const updatedAt = updatedValue === undefined ? createdAt : parseTimestamp(updatedValue);
    if (!updatedAt) return refuse("news", id, REFUSED.updatedAt);
    const plan = await planMedia("news", id, data);
    const columns = newsColumns(parsed.data, services.config.site.defaultAuthor);
    try {
      const outcome = await write("news", id, plan, async (trx, mediaId) => {
        const terms = await canonicalNewsTerms(trx, columns, createdAt);
        await trx
          .insertInto("news")
          .values(publishedNewsRow({ id, content: columns, terms, mediaId, createdAt, updatedAt }))
          .execute();
      });
      counted("news", outcome, plan);
    } catch (error) {
      refuse("news", id, REFUSED.writeFailed(error instanceof Error ? error.message : String(error)));
    }
  }

  async function importSponsor(id: string, data: Record<string, unknown>) {
    if (!DOCUMENT_ID.test(id)) return refuse("sponsors", id, REFUSED.badId);
    if (await alreadyHere("sponsors", id)) {
      summary.sponsors.existing++;
      return;
    }
    const createdAt = parseTimestamp(field(data, "createdAt"));
    if (!createdAt) return refuse("sponsors", id, REFUSED.createdAt);
    const plan = await planMedia("sponsors", id, data);
    if (plan.kind === "none") return refuse("sponsors", id, REFUSED.noSponsorImage);
    try {
      const outcome = await write("sponsors", id, plan, async (trx, mediaId) => {
        if (!mediaId) throw new Error(REFUSED.noSponsorImage);
        await trx.insertInto("sponsors").values({ id, media_id: mediaId, created_at: createdAt }).execute();
      });
      counted("sponsors", outcome, plan);
    } catch (error) {
      refuse("sponsors", id, REFUSED.writeFailed(error instanceof Error ? error.message : String(error)));
    }
  }

  for await (const entry of readFirestoreExport(input)) {
    if (entry.type === "problem") {
      summary.unreadable++;
      report(entry.message);
      continue;
    }
    const { collection, id, data } = entry;
    if (collection === "news") await importNews(id, data);
    else if (collection === "sponsors") await importSponsor(id, data);
    else if (collection === "admins") {
      if (seen.admins.has(id)) continue;
      seen.admins.add(id);
      const email = typeof data.email === "string" && /^[^\s@]+@[^\s@]+$/.test(data.email.trim()) ? data.email.trim() : null;
      summary.admins.push({ uid: printable(id), email });
    } else summary.ignored[collection] = (summary.ignored[collection] ?? 0) + 1;
  }

  summary.externalOrigins = [...origins].sort();
  if (!dryRun) {
    // With PostgreSQL the events reach every running server (LISTEN/NOTIFY): their page caches and open pages refresh.
    // Servers on the same SQLite file see the commits themselves (sqlite-event-bus.server.ts).
    if (summary.news.imported) summary.published.push("newsUpdated");
    if (summary.sponsors.imported) summary.published.push("sponsorsUpdated");
    for (const event of summary.published) await services.events.publish(event);
  }
  return summary;
}

/** An absolute http(s) address, or null. */
function httpUrl(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The files of the media folder by Drive file id: `<id>` or `<id>.<extension>` (the first in name order wins). */
async function indexMediaDir(dir: string): Promise<Map<string, string>> {
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

/** Whether `origin` is allowed by one of `allowed` (exact, or a `https://*.host` wildcard for its subdomains). */
export function originAllowed(origin: string, allowed: string[]): boolean {
  return allowed.some((entry) => {
    if (entry === origin) return true;
    const wildcard = /^(https?:\/\/)\*\.(.+)$/.exec(entry);
    return Boolean(wildcard && origin.startsWith(wildcard[1]!) && origin.endsWith(`.${wildcard[2]}`));
  });
}

/**
 * What the command prints at the end (pt-BR): counts per collection, the admins to create again, what to set so
 * readers see external media, and how running servers learn about the import.
 */
export function summaryLines(
  summary: ImportSummary,
  context: { dryRun: boolean; externalOrigins: string[]; database: "sqlite" | "postgres" },
): string[] {
  const text = terminal.import.summary;
  const lines: string[] = [];
  lines.push(text.title(context.dryRun));
  for (const collection of ["news", "sponsors"] as const) {
    lines.push(`  ${text.counts(collection, summary[collection])}`);
  }
  lines.push(`  ${text.admins(summary.admins.length)}`);
  for (const [collection, count] of Object.entries(summary.ignored)) {
    lines.push(`  ${text.ignored(printable(collection), count)}`);
  }
  if (summary.unreadable) lines.push(`  ${text.unreadable(summary.unreadable)}`);

  if (summary.admins.length) {
    lines.push("", text.adminsTitle, text.adminsHint);
    for (const admin of summary.admins) {
      lines.push(`  ${text.adminCommand(admin.email, admin.uid)}`);
    }
  }

  const missing = summary.externalOrigins.filter((origin) => !originAllowed(origin, context.externalOrigins));
  if (missing.length) {
    lines.push(
      "",
      text.externalMediaHidden,
      text.externalMediaSetting([...context.externalOrigins, ...missing].join(" ")),
      ...text.externalMediaCopy,
    );
  }

  if (summary.published.length) {
    lines.push("");
    lines.push(context.database === "postgres" ? text.postgresNotified : text.sqliteNoticed((2 * SQLITE_CHANGE_POLL_MS) / 1000));
  }
  return lines;
}
