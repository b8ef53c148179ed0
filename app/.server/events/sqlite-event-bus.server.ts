import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { createSubscribers, type EventBus, runThenDeliver } from "./event-bus.ts";

/** How often the SQLite bus looks for changes made by other processes. */
export const SQLITE_CHANGE_POLL_MS = 1_000;

/**
 * Site events for an installation on one SQLite file: delivered in this process, plus `resync` when another
 * process (`npm run import:firestore`, `seed:news`, a second server on the same file) committed to the database.
 *
 * How: `PRAGMA data_version` on this process's own connection, read once a second. SQLite changes it only when
 * another connection committed (never for this connection's own writes), so a change means a writer this process
 * did not hear about; its subscribers (page cache, open pages, the scheduler) then treat everything as changed.
 * The look starts with the first subscriber, so a command that only publishes never polls; its timer never keeps a
 * process alive.
 */
export function createSqliteEventBus(options: { db: Kysely<Database>; log: Logger; pollMs?: number }): EventBus & {
  /** Reads `data_version` now and delivers `resync` if it moved (what the timer does); resolves when done. */
  checkNow(): Promise<void>;
} {
  const subscribers = createSubscribers(options.log);
  let last: number | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let checking: Promise<void> | null = null;

  async function readVersion(): Promise<number> {
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(options.db);
    return Number(rows[0]?.data_version);
  }

  function check(): Promise<void> {
    checking ??= (async () => {
      try {
        const version = await readVersion();
        if (closed) return;
        const moved = last !== null && version !== last;
        last = version;
        if (moved) {
          options.log.info("database changed by another process: resync");
          subscribers.deliver("resync");
        }
      } catch (error) {
        if (!closed) options.log.warn({ err: error }, "database change check failed");
      } finally {
        checking = null;
      }
    })();
    return checking;
  }

  function start() {
    if (timer || closed) return;
    void check();
    timer = setInterval(() => void check(), options.pollMs ?? SQLITE_CHANGE_POLL_MS);
    timer.unref();
  }

  return {
    checkNow: check,
    async publish(event, detail) {
      subscribers.deliver(event, detail);
    },
    withCommit: (db, work) => runThenDeliver(db, work, subscribers.deliver),
    subscribe(listener) {
      start();
      return subscribers.subscribe(listener);
    },
    onClose: subscribers.onClose,
    async close() {
      closed = true;
      clearInterval(timer);
      subscribers.closeAll();
      await checking;
    },
  };
}
