import type { Kysely } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { removeStalePartFiles } from "#app/.server/storage/local-store.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { ownPrefix } from "./installation.server.ts";
import { mediaKeys } from "./media-keys.ts";
import { allMediaKeyColumns, deleteMediaIfUnreferenced, findUnreferencedMedia, namedByABody } from "./media.queries.server.ts";

export interface SweepDeps {
  db: Kysely<Database>;
  store: MediaStore;
  log: Pick<Logger, "info" | "warn" | "error">;
  /**
   * This installation's id: only objects whose key starts with it are ever removed (see installation.server.ts).
   * Objects of another installation sharing the bucket, and objects stored before ids existed, are never touched.
   */
  installationId: string;
  /**
   * Nothing younger than this is touched: a media record not yet attached to its news item, the files of a save
   * still in progress, the temporary file of an upload still streaming in. Make it much longer than any upload.
   */
  graceMs: number;
  now?: () => Date;
  /** Folders holding upload temporary files (`*.part`), e.g. the upload parser's tmpDir. */
  tmpDirs?: string[];
  /**
   * The sweep refuses to remove anything when the objects it would remove outnumber
   * max(`refuseAbove.minimum`, `refuseAbove.ratio` × the objects the database references): that is not a few
   * failed uploads but a database that does not match the store (restored to an earlier point, or the wrong one).
   * Default: more than max(50, 50 %).
   */
  refuseAbove?: { minimum: number; ratio: number };
  /** Objects removed per batch, with a pause between batches (default 100 and 200 ms). */
  batchSize?: number;
  batchPauseMs?: number;
  /** List what would be removed, remove nothing. */
  dryRun?: boolean;
  /** Remove even when the refusal rule says no (an operator who has checked, through the command line). */
  force?: boolean;
}

export interface SweepResult {
  /** Media records removed because no news item and no sponsor used them. */
  removedRecords: number;
  /** Store objects removed: the files of those records plus files no record points to. */
  removedFiles: number;
  /** Stale temporary files removed (upload tmpDirs and the store's own temporary folder). */
  removedTempFiles: number;
  /** Old unreferenced objects left alone because they do not carry this installation's mark. */
  skippedUnowned: number;
  /** Why nothing was removed, when the sweep refused (see `refuseAbove`). */
  refused?: string;
  /** With `dryRun`: the keys that would go (records' files and stray files). */
  wouldRemove?: string[];
  /** With `dryRun`: the stale temporary files (`*.part`) that would go, as paths. */
  wouldRemoveTemp?: string[];
}

/**
 * Cleans up what failed or interrupted operations leave behind, in this installation's objects only:
 * (a) media records no news item, no news revision, no sponsor and no body (image blocks, its own or a revision's)
 *     refers to, older than the grace period, and their files;
 * (b) objects older than the grace period that no media record points to (main key or any variant);
 * (c) temporary `*.part` files older than the grace period in `tmpDirs` and in the store's temporary folder.
 * It first works out everything it would remove, refuses when that is out of proportion with what the database
 * references, and removes in small batches. A file whose removal fails is logged and retried on the next sweep.
 */
export async function sweepOrphans(deps: SweepDeps): Promise<SweepResult> {
  const cutoff = new Date((deps.now ?? (() => new Date()))().getTime() - deps.graceMs);
  const owned = ownedBy(deps.installationId);
  const result: SweepResult = { removedRecords: 0, removedFiles: 0, removedTempFiles: 0, skippedUnowned: 0 };

  const found = await findOrphans(deps, cutoff, owned);
  result.skippedUnowned = found.skippedUnowned;
  const candidates = [...new Set(found.records.flatMap((row) => mediaKeys(row))), ...found.stray];

  const refused = refusal(deps, candidates.length, found.ownReferenced);
  if (refused) return { ...result, refused };
  if (deps.dryRun) {
    result.wouldRemove = candidates.sort();
    result.wouldRemoveTemp = (await sweepTempFiles(deps, cutoff, true)).sort();
    return result;
  }

  await removeOrphans(deps, found, result);
  // (c) Stale temporary files (this installation's own folders).
  result.removedTempFiles = (await sweepTempFiles(deps, cutoff, false)).length;

  if (result.removedRecords || result.removedFiles || result.removedTempFiles || result.skippedUnowned) {
    deps.log.info({ ...result }, "orphan media swept");
  }
  return result;
}

type MediaKeyColumns = { key: string; variants: string };

interface Orphans {
  /** (a) Unreferenced old records of this store whose files are all ours. */
  records: (MediaKeyColumns & { id: string })[];
  /** (b) Stray objects: ours, old, and pointed to by no record. */
  stray: string[];
  /** How many of this installation's objects the database references. */
  ownReferenced: number;
  /** Unreferenced old records left alone because one of their files is not ours. */
  skippedUnowned: number;
}

function ownedBy(installationId: string): (key: string) => boolean {
  const mine = ownPrefix(installationId);
  return (key) => key.startsWith(mine);
}

async function findOrphans(deps: SweepDeps, cutoff: Date, owned: (key: string) => boolean): Promise<Orphans> {
  const { db, store } = deps;
  const records: Orphans["records"] = [];
  let skippedUnowned = 0;
  for (const row of await findUnreferencedMedia(db, store.name, cutoff)) {
    if (!mediaKeys(row).every(owned)) skippedUnowned++;
    else if (!(await namedByABody(db, row.id))) records.push(row);
  }
  // The store is listed before the records are read, so a record written meanwhile is seen.
  const oldObjects: string[] = [];
  for await (const entry of store.list(ownPrefix(deps.installationId))) {
    if (owned(entry.key) && entry.modifiedAt < cutoff) oldObjects.push(entry.key);
  }
  const referenced = new Set((await allMediaKeyColumns(db)).flatMap((row) => mediaKeys(row)));
  return {
    records,
    stray: oldObjects.filter((key) => !referenced.has(key)),
    ownReferenced: [...referenced].filter(owned).length,
    skippedUnowned,
  };
}

/** Why the sweep must remove nothing (see `refuseAbove`), logged; undefined when it may go on. */
function refusal(deps: SweepDeps, candidates: number, ownReferenced: number): string | undefined {
  const limit = deps.refuseAbove ?? { minimum: 50, ratio: 0.5 };
  const allowed = Math.max(limit.minimum, Math.floor(limit.ratio * ownReferenced));
  if (candidates <= allowed || deps.force) return undefined;
  const refused =
    `would remove ${candidates} objects while the database references ${ownReferenced} of this installation's ` +
    `(at most ${allowed} allowed): the database may not match the store (restored, or another one); nothing removed`;
  deps.log.error({ candidates, referenced: ownReferenced, allowed }, `orphan media sweep refused: ${refused}`);
  return refused;
}

/** Removes the orphan records and their files, then the stray objects, pausing after every `batchSize` files. */
async function removeOrphans(deps: SweepDeps, orphans: Orphans, result: SweepResult): Promise<void> {
  const { db, store, log } = deps;
  const pace = pacer(deps.batchSize ?? 100, deps.batchPauseMs ?? 200);
  for (const row of orphans.records) {
    if (!(await deleteMediaIfUnreferenced(db, row.id))) continue;
    result.removedRecords++;
    for (const key of mediaKeys(row)) {
      if (await removeFile(store, key, log, row.id)) result.removedFiles++;
      await pace();
    }
  }
  for (const key of orphans.stray) {
    if (await removeFile(store, key, log)) result.removedFiles++;
    await pace();
  }
}

/** A function to await after each removal: every `batchSize`-th call waits `pauseMs`. */
function pacer(batchSize: number, pauseMs: number): () => Promise<void> {
  let inBatch = 0;
  return async () => {
    if (++inBatch < batchSize) return;
    inBatch = 0;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  };
}

/**
 * The `*.part` files older than `cutoff` in the upload folders and the store's temporary folder: removed, or with
 * `dryRun` only listed. Returns their paths. A folder that cannot be read is logged and skipped.
 */
async function sweepTempFiles(deps: SweepDeps, cutoff: Date, dryRun: boolean): Promise<string[]> {
  const files: string[] = [];
  for (const dir of deps.tmpDirs ?? []) {
    try {
      files.push(...(await removeStalePartFiles(dir, cutoff, { dryRun })));
    } catch (error) {
      deps.log.warn({ err: error, dir }, "could not sweep temporary upload files");
    }
  }
  if (deps.store.removeStaleTemp) {
    try {
      files.push(...(await deps.store.removeStaleTemp(cutoff, { dryRun })));
    } catch (error) {
      deps.log.warn({ err: error }, "could not sweep the media store's temporary files");
    }
  }
  return files;
}

async function removeFile(store: MediaStore, key: string, log: SweepDeps["log"], mediaId?: string): Promise<boolean> {
  try {
    await store.delete(key);
    return true;
  } catch (error) {
    log.warn({ err: error, key, mediaId }, "orphan media file removal failed; will retry on the next sweep");
    return false;
  }
}

export interface OrphanSweeper {
  stop(): void;
  /** Resolves when no sweep is running (for shutdown and tests). */
  idle(): Promise<void>;
}

/**
 * Sweeps every `intervalMs`, the first time one interval after start, never at start-up: a server started on the
 * wrong database must not delete anything before anyone looks at it. The timer does not keep the process alive, and
 * a sweep never overlaps the previous one. Failures are logged, never thrown.
 */
export function startOrphanSweeper(
  deps: Omit<SweepDeps, "installationId"> & {
    installationId: () => Promise<string>;
    intervalMs: number;
    /** Runs the sweep only if no other instance is sweeping (e.g. under a PostgreSQL advisory lock). */
    exclusive?: (task: () => Promise<unknown>) => Promise<unknown>;
  },
): OrphanSweeper {
  let running: Promise<void> | null = null;
  let stopped = false;

  const run = () => {
    if (running || stopped) return;
    const exclusive = deps.exclusive ?? ((task) => task());
    running = exclusive(async () => sweepOrphans({ ...deps, installationId: await deps.installationId() }))
      .then(
        () => undefined,
        (error: unknown) => deps.log.error({ err: error }, "orphan media sweep failed"),
      )
      .finally(() => {
        running = null;
      });
  };

  const timer = setInterval(run, deps.intervalMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    async idle() {
      while (running) await running;
    },
  };
}
