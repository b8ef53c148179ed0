import { type Kysely, sql } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { createSubscribers, type EventBus, runThenDeliver, type SiteEvent, type SiteEventDetail } from "./event-bus.ts";
import type { PeerChannel } from "./peers.server.ts";

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
 *
 * With `peers` (the server's other worker processes, WORKERS > 1), each change made here is also sent to them, and
 * theirs delivered here as they are: the precise event (the story's paths), not a resync. A `data_version` move
 * seen after a peer's event is taken as that peer's commit (no resync); one seen without is another process's.
 */
export function createSqliteEventBus(options: { db: Kysely<Database>; log: Logger; pollMs?: number; peers?: PeerChannel | null }): EventBus & {
  /** Reads `data_version` now and delivers `resync` if it moved (what the timer does); resolves when done. */
  checkNow(): Promise<void>;
} {
  const subscribers = createSubscribers(options.log);
  let last: number | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let checking: Promise<void> | null = null;
  /** Peers' events heard since the last look at data_version: the move they explain is not another process's. */
  let peerEvents = 0;
  const deliverHere = (event: SiteEvent, detail: SiteEventDetail | undefined) => {
    subscribers.deliver(event, detail);
    options.peers?.send(event, detail);
  };
  const stopPeers = options.peers?.listen((event, detail) => {
    peerEvents++;
    subscribers.deliver(event, { ...detail, remote: true });
  });

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
        const explained = peerEvents > 0;
        peerEvents = 0;
        if (moved && !explained) {
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
      deliverHere(event, detail);
    },
    withCommit: (db, work) => runThenDeliver(db, work, deliverHere),
    subscribe(listener) {
      start();
      return subscribers.subscribe(listener);
    },
    onClose: subscribers.onClose,
    async close() {
      closed = true;
      stopPeers?.();
      clearInterval(timer);
      subscribers.closeAll();
      await checking;
    },
  };
}
