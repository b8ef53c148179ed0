import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { removeStalePartFiles } from "../storage/local-store.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { mediaKeys } from "./media.service.server.ts";

export interface SweepDeps {
  db: Kysely<Database>;
  store: MediaStore;
  log: Pick<Logger, "info" | "warn" | "error">;
  /**
   * Nothing younger than this is touched: a media record not yet attached to its news item, the files of a save
   * still in progress, the temporary file of an upload still streaming in. Make it much longer than any upload.
   */
  graceMs: number;
  now?: () => Date;
  /** Folders holding upload temporary files (`*.part`), e.g. the upload parser's tmpDir. */
  tmpDirs?: string[];
}

export interface SweepResult {
  /** Media records removed because no news item and no sponsor used them. */
  removedRecords: number;
  /** Store objects removed: the files of those records plus files no record points to. */
  removedFiles: number;
  /** Stale temporary files removed (upload tmpDirs and the store's own temporary folder). */
  removedTempFiles: number;
}

/**
 * Cleans up what failed or interrupted operations leave behind:
 * (a) media records no news item and no sponsor refers to, older than the grace period, and their files;
 * (b) store files older than the grace period that no media record points to (main key or any variant);
 * (c) temporary `*.part` files older than the grace period in `tmpDirs` and in the store's temporary folder.
 * A file whose removal fails is logged and retried on the next sweep.
 */
export async function sweepOrphans(deps: SweepDeps): Promise<SweepResult> {
  const { db, store, log } = deps;
  const cutoff = new Date((deps.now ?? (() => new Date()))().getTime() - deps.graceMs);
  const result: SweepResult = { removedRecords: 0, removedFiles: 0, removedTempFiles: 0 };

  // (a) Unreferenced records of this store. The delete repeats the "unreferenced" test, so a record attached to a
  // news item between the select and the delete is kept.
  const unreferenced = await db
    .selectFrom("media")
    .select(["id", "key", "variants"])
    .where("store", "=", store.name)
    .where("created_at", "<", cutoff.toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("news").select("news.id").whereRef("news.media_id", "=", "media.id"))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("sponsors").select("sponsors.id").whereRef("sponsors.media_id", "=", "media.id"))),
    )
    .execute();
  for (const row of unreferenced) {
    const deleted = await db
      .deleteFrom("media")
      .where("id", "=", row.id)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("news").select("news.id").whereRef("news.media_id", "=", "media.id"))),
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom("sponsors").select("sponsors.id").whereRef("sponsors.media_id", "=", "media.id"))),
      )
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) continue;
    result.removedRecords++;
    for (const key of mediaKeys(row)) {
      if (await removeFile(store, key, log, row.id)) result.removedFiles++;
    }
  }

  // (b) Stray files. The store is listed before the records are read, so a record written meanwhile is seen.
  const oldFiles: string[] = [];
  for await (const entry of store.list()) {
    if (entry.modifiedAt < cutoff) oldFiles.push(entry.key);
  }
  if (oldFiles.length) {
    const referenced = new Set<string>();
    for (const row of await db.selectFrom("media").select(["key", "variants"]).execute()) {
      for (const key of mediaKeys(row)) referenced.add(key);
    }
    for (const key of oldFiles) {
      if (!referenced.has(key) && (await removeFile(store, key, log))) result.removedFiles++;
    }
  }

  // (c) Stale temporary files.
  for (const dir of deps.tmpDirs ?? []) {
    try {
      result.removedTempFiles += await removeStalePartFiles(dir, cutoff);
    } catch (error) {
      log.warn({ err: error, dir }, "could not sweep temporary upload files");
    }
  }
  if (store.removeStaleTemp) {
    try {
      result.removedTempFiles += await store.removeStaleTemp(cutoff);
    } catch (error) {
      log.warn({ err: error }, "could not sweep the media store's temporary files");
    }
  }

  if (result.removedRecords || result.removedFiles || result.removedTempFiles) {
    log.info({ ...result }, "orphan media swept");
  }
  return result;
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
 * Sweeps once right away, then every `intervalMs`. The timer does not keep the process alive, and a sweep never
 * overlaps the previous one. Failures are logged, never thrown.
 */
export function startOrphanSweeper(
  deps: SweepDeps & {
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
    running = exclusive(() => sweepOrphans(deps))
      .then(
        () => undefined,
        (error: unknown) => deps.log.error({ err: error }, "orphan media sweep failed"),
      )
      .finally(() => {
        running = null;
      });
  };

  run();
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
