import { sql } from "kysely";
import type { DatabaseHandle } from "./database.server.ts";

/** Stable 32-bit keys for PostgreSQL advisory locks, one per job. */
export const LOCK_KEYS = { orphanSweep: 72_615_001, migrations: 72_615_002, demoSeed: 72_615_003, staleAccounts: 72_615_004 } as const;

/**
 * Runs `task` only where no other instance holds the same lock; returns whether it ran. On PostgreSQL this is a
 * session advisory lock held on one pooled connection for the task's duration (released even if the task fails).
 * SQLite serves a single process, so the task simply runs.
 */
export async function runExclusive(database: Pick<DatabaseHandle, "db" | "dialect">, key: number, task: () => Promise<unknown>): Promise<boolean> {
  if (database.dialect !== "postgres") {
    await task();
    return true;
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
 * Runs `task` holding the lock, waiting for it if another instance has it (e.g. migrations when several instances
 * start at once: the second waits, then finds nothing left to do). SQLite: the task simply runs.
 */
export async function runWithLock<T>(database: Pick<DatabaseHandle, "db" | "dialect">, key: number, task: () => Promise<T>): Promise<T> {
  if (database.dialect !== "postgres") return task();
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${key})`.execute(connection);
    try {
      return await task();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(connection);
    }
  });
}
