import { insertSponsor, nextSponsorPosition } from "#app/.server/sponsors/sponsors.queries.server.ts";
import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import { terminal } from "#app/i18n/pt-BR.ts";
import { emailSchema } from "#app/lib/auth-schemas.ts";
import { IMPORT_DOCUMENT_ID_MAX_LENGTH } from "#app/lib/limits.ts";
import { type NewsInput, newsInputSchema } from "#app/lib/news-schema.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { newsColumns } from "#app/.server/news/editor/news-save.server.ts";
import { publishedNewsRow } from "#app/.server/news/news-rows.server.ts";
import { canonicalNewsTerms } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import { parseTimestamp, printable, readFirestoreExport } from "./firestore-export.server.ts";
import {
  externalOrigins,
  field,
  type ImportedCollection,
  indexMediaDir,
  type MediaContext,
  type MediaOutcome,
  type MediaPlan,
  planMedia,
  writeWithMedia,
} from "./firestore-media.server.ts";
import type { CollectionCounts, ImportSummary } from "./firestore-report.server.ts";
import { terminalText } from "./terminal-text.ts";

export { driveThumbnailUrl } from "./firestore-media.server.ts";
export type { CollectionCounts, ImportSummary } from "./firestore-report.server.ts";
export { originAllowed, summaryLines } from "./firestore-report.server.ts";
export type { ImportedCollection };

/**
 * `npm run import:firestore`: moves the original product's news, sponsors and admins (an export of its Firestore
 * database, see firestore-export.server.ts) into this installation.
 *
 * - Document ids are kept, so the old `/article/{firestoreId}` links keep working. An id already here is skipped
 *   (counted as "já existente"): running the import twice changes nothing.
 * - Text goes through the news form's rules (`newsInputSchema`) and the original's defaults (fullContent = subtitle,
 *   category 'Geral', author = the newsroom). A document that breaks them is refused with one line naming it and
 *   why; the others are imported.
 * - Media (firestore-media.server.ts): with `mediaDir`, the file named by the Drive file id (with or without an
 *   extension) goes through the normal media pipeline (type from the bytes, images re-encoded into variants).
 *   Otherwise, or when that file is missing or refused, the media stays where it is as external media: a record of
 *   store `external` whose key is the address plus `#<collection>-<id>`. Nothing is downloaded.
 * - `admins` documents are uids of the original's Firebase accounts, which have no account here: they are reported,
 *   with their e-mail when registration would take it.
 * - What it prints (each report line and the summary, firestore-report.server.ts) is terminal-safe
 *   (`terminalText`), and values in a suggested command are quoted for the shell: the export is not trusted.
 */

export interface ImportOptions {
  /** Folder of media files named by Drive file id. */
  mediaDir?: string | null;
  /** Check and count only: nothing is written. */
  dryRun?: boolean;
  /** Where each refused document and each media problem is told (one terminal-safe line each). */
  report: (line: string) => void;
  clock?: () => Date;
}

type ImportServices = Pick<AppServices, "database" | "media" | "store" | "events"> & {
  config: { site: { defaultAuthor: string } };
};

/** One run of the import: what every step reads and adds to. */
interface ImportRun extends MediaContext {
  services: ImportServices;
  summary: ImportSummary;
  origins: Set<string>;
  /** Ids met in this export, per collection (a second one is "already here"). */
  seen: Record<ImportedCollection | "admins", Set<string>>;
  /** Tells one line about `collection/id`. */
  tell: (collection: string, id: string, text: string) => void;
}

/** Ids we keep as they are: what Firestore generates (20 letters and digits) and any other URL-safe id. */
const DOCUMENT_ID = new RegExp(`^[A-Za-z0-9_-][A-Za-z0-9._~-]{0,${IMPORT_DOCUMENT_ID_MAX_LENGTH - 1}}$`);

/** Reasons a document is refused (pt-BR, after `collection/id: `). */
const REFUSED = terminal.import.refused;

const emptyCounts = (): CollectionCounts => ({ imported: 0, existing: 0, refused: 0, externalMedia: 0, copiedMedia: 0 });

async function startRun(services: ImportServices, options: ImportOptions): Promise<ImportRun> {
  const report = (line: string) => options.report(terminalText(line));
  const tell = (collection: string, id: string, text: string) => report(`${collection}/${printable(id)}: ${text}`);
  return {
    services,
    db: services.database.db,
    media: services.media,
    dryRun: options.dryRun ?? false,
    clock: options.clock ?? (() => new Date()),
    mediaFiles: options.mediaDir ? await indexMediaDir(options.mediaDir) : new Map<string, string>(),
    summary: { news: emptyCounts(), sponsors: emptyCounts(), admins: [], ignored: {}, unreadable: 0, externalOrigins: [], published: [] },
    origins: new Set(),
    seen: { news: new Set(), sponsors: new Set(), admins: new Set() },
    tell,
    note: tell,
  };
}

function refuse(run: ImportRun, collection: ImportedCollection, id: string, reason: string): void {
  run.summary[collection].refused++;
  run.tell(collection, id, reason);
}

/** True when the document was already imported (or appeared earlier in this export): it is then skipped. */
async function alreadyHere(run: ImportRun, collection: ImportedCollection, id: string): Promise<boolean> {
  if (run.seen[collection].has(id)) return true;
  run.seen[collection].add(id);
  const row = await run.db.selectFrom(collection).select("id").where("id", "=", id).executeTakeFirst();
  return Boolean(row);
}

/** Counts a written document by its media; remembers the origins external media is shown from. */
function counted(run: ImportRun, collection: ImportedCollection, outcome: MediaOutcome, plan: MediaPlan): void {
  const counts = run.summary[collection];
  counts.imported++;
  if (outcome === "copied") counts.copiedMedia++;
  if (outcome === "external") {
    counts.externalMedia++;
    for (const origin of externalOrigins(plan)) run.origins.add(origin);
  }
}

/** Writes a checked document with its media, counting it, or refusing it when the write fails. */
async function writeDocument(
  run: ImportRun,
  collection: ImportedCollection,
  id: string,
  plan: MediaPlan,
  insert: (trx: Kysely<Database>, mediaId: string | null) => Promise<void>,
): Promise<void> {
  try {
    counted(run, collection, await writeWithMedia(run, collection, id, plan, insert), plan);
  } catch (error) {
    refuse(run, collection, id, REFUSED.writeFailed(error instanceof Error ? error.message : String(error)));
  }
}

/** The news document's fields under the form's rules and its dates, or the reason it is refused. */
function checkNews(data: Record<string, unknown>): { refused: string } | { input: NewsInput; createdAt: string; updatedAt: string } {
  const highlighted = field(data, "isHighlighted");
  if (highlighted !== undefined && typeof highlighted !== "boolean") return { refused: REFUSED.highlight };
  const parsed = newsInputSchema.safeParse({
    title: field(data, "title"),
    subtitle: field(data, "subtitle"),
    fullContent: field(data, "fullContent"),
    category: field(data, "category"),
    author: field(data, "author"),
    isHighlighted: highlighted ?? false,
  });
  if (!parsed.success) return { refused: parsed.error.issues[0]?.message ?? REFUSED.invalidData };
  const createdAt = parseTimestamp(field(data, "createdAt"));
  if (!createdAt) return { refused: REFUSED.createdAt };
  const updatedValue = field(data, "updatedAt");
  const updatedAt = updatedValue === undefined ? createdAt : parseTimestamp(updatedValue);
  if (!updatedAt) return { refused: REFUSED.updatedAt };
  return { input: parsed.data, createdAt, updatedAt };
}

async function importNews(run: ImportRun, id: string, data: Record<string, unknown>): Promise<void> {
  if (!DOCUMENT_ID.test(id)) return refuse(run, "news", id, REFUSED.badId);
  if (await alreadyHere(run, "news", id)) {
    run.summary.news.existing++;
    return;
  }
  const checked = checkNews(data);
  if ("refused" in checked) return refuse(run, "news", id, checked.refused);
  const { createdAt, updatedAt } = checked;
  const plan = await planMedia(run, "news", id, data);
  const columns = newsColumns(checked.input, run.services.config.site.defaultAuthor);
  await writeDocument(run, "news", id, plan, async (trx, mediaId) => {
    const terms = await canonicalNewsTerms(trx, columns, createdAt);
    await trx
      .insertInto("news")
      .values(publishedNewsRow({ id, content: columns, terms, mediaId, createdAt, updatedAt }))
      .execute();
  });
}

async function importSponsor(run: ImportRun, id: string, data: Record<string, unknown>): Promise<void> {
  if (!DOCUMENT_ID.test(id)) return refuse(run, "sponsors", id, REFUSED.badId);
  if (await alreadyHere(run, "sponsors", id)) {
    run.summary.sponsors.existing++;
    return;
  }
  const createdAt = parseTimestamp(field(data, "createdAt"));
  if (!createdAt) return refuse(run, "sponsors", id, REFUSED.createdAt);
  const plan = await planMedia(run, "sponsors", id, data);
  if (plan.kind === "none") return refuse(run, "sponsors", id, REFUSED.noSponsorImage);
  await writeDocument(run, "sponsors", id, plan, async (trx, mediaId) => {
    if (!mediaId) throw new Error(REFUSED.noSponsorImage);
    // The original had no names, links or order: each imported sponsor goes at the end, named by its place.
    const position = await nextSponsorPosition(trx);
    await insertSponsor(trx, {
      id,
      media_id: mediaId,
      created_at: createdAt,
      name: t.sponsors.defaultName(position),
      link: null,
      position,
      active_from: null,
      active_until: null,
    });
  });
}

/** Lists one of the original's admins, with its e-mail only when registration would take it. */
function readAdmin(run: ImportRun, id: string, data: Record<string, unknown>): void {
  if (run.seen.admins.has(id)) return;
  run.seen.admins.add(id);
  const given = field(data, "email");
  const email = given === undefined ? null : emailSchema.safeParse(given);
  if (email && !email.success) run.tell("admins", id, terminal.import.adminEmailInvalid);
  run.summary.admins.push({ uid: printable(id), email: email?.success ? email.data : null });
}

/** With PostgreSQL the events reach every running server (LISTEN/NOTIFY): their page caches and open pages refresh. */
async function publishEvents(run: ImportRun): Promise<void> {
  if (run.dryRun) return;
  if (run.summary.news.imported) run.summary.published.push("newsUpdated");
  if (run.summary.sponsors.imported) run.summary.published.push("sponsorsUpdated");
  for (const event of run.summary.published) await run.services.events.publish(event);
}

export async function importFirestore(services: ImportServices, input: string, options: ImportOptions): Promise<ImportSummary> {
  const run = await startRun(services, options);
  for await (const entry of readFirestoreExport(input)) {
    if (entry.type === "problem") {
      run.summary.unreadable++;
      options.report(terminalText(entry.message));
      continue;
    }
    const { collection, id, data } = entry;
    if (collection === "news") await importNews(run, id, data);
    else if (collection === "sponsors") await importSponsor(run, id, data);
    else if (collection === "admins") readAdmin(run, id, data);
    else run.summary.ignored[collection] = (run.summary.ignored[collection] ?? 0) + 1;
  }
  run.summary.externalOrigins = [...run.origins].sort();
  await publishEvents(run);
  return run.summary;
}
