import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { removeStalePartFiles } from "../storage/local-store.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { ownPrefix } from "./installation.server.ts";
import { mediaKeys } from "./media.service.server.ts";

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

const UNREFERENCED = {
  news: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("news").select("news.id").whereRef("news.media_id", "=", "media.id"))),
  sponsors: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("sponsors").select("sponsors.id").whereRef("sponsors.media_id", "=", "media.id"))),
  // An older version of a news item can be restored with its media: kept as long as a revision refers to it.
  revisions: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("news_revisions").select("news_revisions.id").whereRef("news_revisions.media_id", "=", "media.id"))),
};

/**
 * Not named by an image block of a news body or of a revision's body (app/lib/rich-text.ts). The body is JSON text,
 * so this is a LIKE on the id as the checked body writes it (`"mediaId":"<id>"`); ids are letters, digits, `-` and
 * `_` (a LIKE wildcard that can only match more, i.e. keep more). Asked per candidate record, never as a correlated
 * condition over every media row: the few old unreferenced records are checked against the bodies one by one.
 */
function notInBodies(mediaId: string) {
  const pattern = `%"mediaId":"${mediaId}"%`;
  return (eb: ExpressionBuilder<Database, "media">) =>
    eb.and([
      eb.not(eb.exists(eb.selectFrom("news").select("news.id").where("news.body", "like", pattern))),
      eb.not(eb.exists(eb.selectFrom("news_revisions").select("news_revisions.id").where("news_revisions.body", "like", pattern))),
    ]);
}

async function namedByABody(db: Kysely<Database>, mediaId: string): Promise<boolean> {
  const row = await db.selectFrom("media").select("id").where("id", "=", mediaId).where(notInBodies(mediaId)).executeTakeFirst();
  return !row;
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
  const { db, store, log } = deps;
  const cutoff = new Date((deps.now ?? (() => new Date()))().getTime() - deps.graceMs);
  const mine = ownPrefix(deps.installationId);
  const owned = (key: string) => key.startsWith(mine);
  const result: SweepResult = { removedRecords: 0, removedFiles: 0, removedTempFiles: 0, skippedUnowned: 0 };

  // (a) Unreferenced old records of this store whose files are all ours.
  const unattached = (
    await db
      .selectFrom("media")
      .select(["id", "key", "variants"])
      .where("store", "=", store.name)
      .where("created_at", "<", cutoff.toISOString())
      .where(UNREFERENCED.news)
      .where(UNREFERENCED.sponsors)
      .where(UNREFERENCED.revisions)
      .execute()
  ).filter((row) => {
    const mark = mediaKeys(row).every(owned);
    if (!mark) result.skippedUnowned++;
    return mark;
  });
  const unreferenced: typeof unattached = [];
  for (const row of unattached) if (!(await namedByABody(db, row.id))) unreferenced.push(row);

  // (b) Stray objects: ours, old, and pointed to by no record. The store is listed before the records are read, so a
  // record written meanwhile is seen.
  const oldObjects: string[] = [];
  for await (const entry of store.list(mine)) {
    if (owned(entry.key) && entry.modifiedAt < cutoff) oldObjects.push(entry.key);
  }
  const referenced = new Set<string>();
  for (const row of await db.selectFrom("media").select(["key", "variants"]).execute()) {
    for (const key of mediaKeys(row)) referenced.add(key);
  }
  const recordKeys = new Set(unreferenced.flatMap((row) => mediaKeys(row)));
  const stray = oldObjects.filter((key) => !referenced.has(key));
  const candidates = [...recordKeys, ...stray];

  const limit = deps.refuseAbove ?? { minimum: 50, ratio: 0.5 };
  const ownReferenced = [...referenced].filter(owned).length;
  const allowed = Math.max(limit.minimum, Math.floor(limit.ratio * ownReferenced));
  if (candidates.length > allowed && !deps.force) {
    result.refused =
      `would remove ${candidates.length} objects while the database references ${ownReferenced} of this installation's ` +
      `(at most ${allowed} allowed): the database may not match the store (restored, or another one); nothing removed`;
    log.error({ candidates: candidates.length, referenced: ownReferenced, allowed }, `orphan media sweep refused: ${result.refused}`);
    return result;
  }
  if (deps.dryRun) {
    result.wouldRemove = candidates.sort();
    result.wouldRemoveTemp = (await sweepTempFiles(deps, cutoff, true)).sort();
    return result;
  }

  const batchSize = deps.batchSize ?? 100;
  const pause = () => new Promise((resolve) => setTimeout(resolve, deps.batchPauseMs ?? 200));
  let inBatch = 0;
  const budget = async () => {
    if (++inBatch < batchSize) return;
    inBatch = 0;
    await pause();
  };

  for (const row of unreferenced) {
    // The delete repeats the "unreferenced" test, so a record attached to a news item since the select is kept.
    const deleted = await db
      .deleteFrom("media")
      .where("id", "=", row.id)
      .where(UNREFERENCED.news)
      .where(UNREFERENCED.sponsors)
      .where(UNREFERENCED.revisions)
      .where(notInBodies(row.id))
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) continue;
    result.removedRecords++;
    for (const key of mediaKeys(row)) {
      if (await removeFile(store, key, log, row.id)) result.removedFiles++;
      await budget();
    }
  }
  for (const key of stray) {
    if (await removeFile(store, key, log)) result.removedFiles++;
    await budget();
  }

  // (c) Stale temporary files (this installation's own folders).
  result.removedTempFiles = (await sweepTempFiles(deps, cutoff, false)).length;

  if (result.removedRecords || result.removedFiles || result.removedTempFiles || result.skippedUnowned) {
    log.info({ ...result }, "orphan media swept");
  }
  return result;
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
