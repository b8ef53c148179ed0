/**
 * The primary process of a server with several workers (`WORKERS` > 1; docs/decisions/012-workers.md). Loaded by
 * server/main.ts directly (Node strips the types: only erasable TypeScript here, no app imports; what it needs of the
 * app comes in `app`). It starts the workers (node:cluster: they share the port, the primary hands out connections in
 * turn), carries each worker's site events to the others, starts a worker again when one dies, and on SIGTERM/SIGINT
 * asks every worker to finish and exits when they have. (The sign-in counts of all workers, without Redis, are kept
 * here too: by rate-limiter-flexible's cluster master, which `primaryOf` in server/app.ts starts and which listens to
 * the workers' messages by itself.)
 */
import cluster, { type Worker } from "node:cluster";

interface PrimaryLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface PrimaryApp {
  workers: number;
  log: PrimaryLog;
  /** Whether a message is a worker's site event (to carry to the other workers). */
  isEvent(message: unknown): boolean;
}

/** More deaths than this within a minute: something is wrong with every start, so the server stops. */
const MAX_RESTARTS_PER_MINUTE = 5;

export function runPrimary(app: PrimaryApp): void {
  const { log } = app;
  /** Worker number (1…N) of each live worker: number 1 runs the background tasks, so its replacement must too. */
  const numbers = new Map<Worker, number>();
  const deaths: number[] = [];
  let stopping = false;

  function start(number: number) {
    const worker = cluster.fork({ EEF_WORKER_ID: String(number) });
    numbers.set(worker, number);
    worker.on("message", (message: unknown) => {
      if (!app.isEvent(message)) return;
      for (const other of numbers.keys()) if (other !== worker && other.isConnected()) other.send(message as object);
    });
  }

  cluster.on("exit", (worker, code, signal) => {
    const number = numbers.get(worker);
    numbers.delete(worker);
    if (stopping) {
      if (numbers.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    log.error({ worker: number, pid: worker.process.pid, code, signal }, "worker died: starting another");
    const now = Date.now();
    deaths.push(now);
    while (deaths.length && deaths[0]! < now - 60_000) deaths.shift();
    if (deaths.length > MAX_RESTARTS_PER_MINUTE) {
      log.error({ deaths: deaths.length }, "workers keep dying: stopping the server");
      stop("restarts", 1);
      return;
    }
    if (number !== undefined) setTimeout(() => !stopping && start(number), 500);
  });

  function stop(signal: string, code = 0) {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: numbers.size }, "shutting down the workers");
    if (code) process.exitCode = code;
    if (numbers.size === 0) process.exit(code);
    for (const worker of numbers.keys()) worker.process.kill("SIGTERM");
    // Each worker ends itself within 10 s (server/main.ts); past that, the primary does not wait.
    setTimeout(() => process.exit(code || 1), 12_000).unref();
  }
  // Said once, when every worker of the first start takes connections (before that the first ones to listen get all).
  const listening = new Set<number>();
  cluster.on("listening", (worker) => {
    const number = numbers.get(worker);
    if (number === undefined || listening.has(number)) return;
    listening.add(number);
    if (listening.size === app.workers) log.info({ workers: app.workers }, "all workers listening");
  });
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  for (let number = 1; number <= app.workers; number++) start(number);
  log.info({ workers: app.workers, pid: process.pid }, "primary started the workers");
}
