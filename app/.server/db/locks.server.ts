import { DatabaseSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import type { DatabaseHandle } from "./database.server.ts";

/** Stable 32-bit keys for PostgreSQL advisory locks, one per job. */
export const LOCK_KEYS = {
  orphanSweep: 72_615_001,
  migrations: 72_615_002,
  demoSeed: 72_615_003,
  staleAccounts: 72_615_004,
  trashPurge: 72_615_005,
} as const;

type LockDatabase = Pick<DatabaseHandle, "db" | "dialect" | "file">;

/**
 * Runs `task` only where no other instance holds the same lock; returns whether it ran. On PostgreSQL this is a
 * session advisory lock held on one pooled connection for the task's duration (released even if the task fails);
 * on SQLite, a file lock next to the database (see `sqliteLock`).
 */
export async function runExclusive(database: LockDatabase, key: number, task: () => Promise<unknown>): Promise<boolean> {
  if (database.dialect !== "postgres") {
    const release = await sqliteLock(database, key, { wait: false });
    if (!release) return false;
    try {
      await task();
      return true;
    } finally {
      release();
    }
  }
  return database.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection);
    if (!rows[0]?.locked) return false;
    try {
      await task();
      return true;
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

/**
 * Runs `task` holding the lock, waiting for it if another process has it (e.g. migrations when several instances
 * start at once, or a command such as `npm run media:sweep` starts with the server on a new installation: the second
 * waits, then finds nothing left to do).
 */
export async function runWithLock<T>(database: LockDatabase, key: number, task: () => Promise<T>): Promise<T> {
  if (database.dialect !== "postgres") {
    const release = (await sqliteLock(database, key, { wait: true }))!;
    try {
      return await task();
    } finally {
      release();
    }
  }
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await task();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}

const SQLITE_BUSY = 5;
const RETRY_MS = 25;
/**
 * The lock connections held now. Kept reachable here: a task that waits on something nobody else references would
 * otherwise let the garbage collector close its connection, and with it release the lock while the task still runs.
 */
const held = new Set<DatabaseSync>();

/**
 * SQLite's own cross-process lock, on a small side file per job (`<database>-lock-<key>`): an exclusive transaction
 * held on it. The server and the npm commands open the same database file from different processes; the operating
 * system releases the lock when its holder exits, even by `kill -9`, so a crash never leaves a lock behind. Inside one
 * process a second connection to the same file sees the lock as taken too. Returns the release function, or null when
 * `wait` is false and another holds it. The wait polls without blocking the event loop.
 */
async function sqliteLock(database: LockDatabase, key: number, options: { wait: boolean }): Promise<(() => void) | null> {
  // An in-memory or test handle without a file: one process only, nothing to share.
  if (!database.file || database.file === ":memory:") return () => {};
  const lock = new DatabaseSync(`${database.file}-lock-${key}`, { timeout: 0 });
  for (;;) {
    try {
      lock.exec("BEGIN EXCLUSIVE");
      held.add(lock);
      return () => {
        held.delete(lock);
        lock.exec("ROLLBACK");
        lock.close();
      };
    } catch (error) {
      if ((error as { errcode?: number }).errcode !== SQLITE_BUSY) {
        lock.close();
        throw error;
      }
      if (!options.wait) {
        lock.close();
        return null;
      }
      await sleep(RETRY_MS);
    }
  }
}
