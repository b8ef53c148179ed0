import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import type { AppServices } from "#app/.server/app.server.ts";
import { resolveAuthSecret } from "#app/.server/auth/secret.server.ts";
import { createTestServices, makeDataDir } from "./services.ts";
import { createSiteDatabase, type PostgresDatabase, siteQuery, sqliteTemplateFile, TEST_DATABASE } from "./site-database.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningSite {
  url: string;
  /** The server process id (for memory readings in benchmarks). */
  pid: number;
  dataDir: string;
  /** The SQLite file under DATA_DIR (unused when `databaseUrl` is set). */
  dbFile: string;
  /** The PostgreSQL database of this site (TEST_DATABASE=postgres), or null on SQLite. */
  databaseUrl: string | null;
  logs(): string;
  /**
   * Stops the server (SIGTERM, or `signal`: SIGKILL for a crash), runs `fn` with nothing connected to the site's
   * database, then starts the server again on the same data, database and port.
   */
  whileStopped(fn: () => Promise<void> | void, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Stops the server (SIGTERM: it finishes what it has under way, the mail it was handed included, before it exits
   * with 0), checks its log for secrets and removes its data. Resolves with how the process ended. Once: a later call
   * (the fixture that started the site, after a test stopped it itself) gets the same outcome.
   */
  stop(): Promise<ExitStatus>;
}

/** How a server process ended: its exit code (null when a signal ended it) and that signal. */
export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

export interface SiteOptions {
  /** Fills the database before the server starts (the server then runs migrations, a no-op). */
  setup?: (services: AppServices) => Promise<void>;
  /** Leave the demo content on (the quick-start path). Off by default. */
  seedDemo?: boolean;
  env?: Record<string, string>;
  /** Start from a copy of this data directory (database and media) instead of an empty one (SQLite). */
  fromDataDir?: string;
  /**
   * Listen on this port instead of a random free one: for tests that must know the site's URL before it starts
   * (SITE_URL, OAuth redirect URIs). Pick it with `freePort()`.
   */
  port?: number;
  /**
   * Use this directory (which must not exist yet; its parent must) as DATA_DIR instead of a new one under the system
   * temp folder: e.g. on a small filesystem the test mounted. Removed on stop, like the default one.
   */
  dataDir?: string;
}

/**
 * How `npm start` starts the server (package.json, and the systemd unit): an 8 MB young generation and two malloc
 * arenas keep its memory bounded under load. Test and bench servers start the same way.
 */
export const SERVER_NODE_ARGS = ["--max-semi-space-size=8"];
export const SERVER_ENV = { MALLOC_ARENA_MAX: "2" };

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether `url` answers 200 right now (a connection of its own; the body is read and dropped). */
function answers200(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode === 200));
      response.on("error", () => resolve(false));
    });
    request.on("error", () => resolve(false));
  });
}

/**
 * Resolves once `url` answers 200, asking every `intervalMs` (100 ms by default); throws with the server's output
 * when `child` exits first or after `timeoutMs` (60 s by default). The one wait of everything that starts the server:
 * the browser tests (/healthz), `npm run bench`, `npm run bench:first-start` and `npm run security` (/).
 */
export async function waitUntilServing(
  url: string,
  child: ChildProcess,
  output: () => string,
  { timeoutMs = 60_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`O servidor saiu com código ${child.exitCode ?? child.signalCode}:\n${output()}`);
    if (await answers200(url)) return;
    if (Date.now() > deadline) throw new Error(`O servidor não respondeu 200 em ${timeoutMs / 1000} s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  logs(): string;
  /** Resolves when the process has exited, with its exit code (null when a signal ended it) and signal. */
  exited: Promise<ExitStatus>;
  /** Sends `signal` (SIGTERM by default) to the server's process group and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<ExitStatus>;
}

/**
 * Starts the real production server (`node server.js` on the built app) in a process group of its own and waits
 * until /healthz answers. Nothing is defaulted but the test-friendly basics (NODE_ENV, HOST, SEED_DEMO=0,
 * LOG_LEVEL=warn, SITE_URL on localhost with ALLOW_INSECURE_HTTP=1, on PostgreSQL the data directory's AUTH_SECRET):
 * pass DATA_DIR, DATABASE_URL and the rest in `env`.
 */
export async function spawnServer(options: {
  port?: number;
  env: Record<string, string>;
  timeoutMs?: number;
  /** Arguments after server.js: `["--dev"]` starts the development server (Vite in middleware mode). */
  serverArgs?: string[];
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const env = { ...options.env };
  // Production refuses PostgreSQL without a shared AUTH_SECRET: use the one of the data directory (the secret the
  // test's own services, opened on the same DATA_DIR, read too).
  if (/^postgres/.test(env.DATABASE_URL ?? "") && !env.AUTH_SECRET && env.DATA_DIR) {
    env.AUTH_SECRET = resolveAuthSecret({ auth: { secret: null }, dataDir: env.DATA_DIR });
  }
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_ARGS, "server.js", ...(options.serverArgs ?? [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      ...SERVER_ENV,
      PORT: String(port),
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      // Production wants a public https address; test servers are plain http on loopback, on purpose.
      SITE_URL: `http://localhost:${port}`,
      ALLOW_INSECURE_HTTP: "1",
      // Most tests change the database behind the server's back (no event): they see every change only without
      // the page cache. The cache has its own tests, and the live-update and multi-instance tests run with it on.
      PAGE_CACHE: "0",
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<ExitStatus>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (running() && child.pid) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
    return exited;
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing(`${url}/healthz`, child, () => output, { timeoutMs: options.timeoutMs });
  } catch (error) {
    // Never leave a half-started server behind.
    await stop("SIGKILL");
    throw error;
  }
  return { url, port, pid: child.pid ?? 0, child, logs: () => output, exited, stop };
}

/**
 * Starts the real production server on its own data directory, database and port. The database is a SQLite file
 * under the data directory, or, with TEST_DATABASE=postgres, a fresh PostgreSQL database (dropped on stop).
 */
export async function startSite(options: SiteOptions = {}): Promise<RunningSite> {
  const dataDir = options.dataDir ?? makeDataDir("eef-e2e-");
  if (options.dataDir) fs.mkdirSync(dataDir, { mode: 0o700 });
  let postgres: PostgresDatabase | null = null;
  const cleanUp = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };
  try {
    if (options.fromDataDir) fs.cpSync(options.fromDataDir, dataDir, { recursive: true });
    if (TEST_DATABASE === "postgres" && !options.env?.DATABASE_URL) postgres = await createSiteDatabase();
    // A migrated database to start from (site-database.ts), unless the test brought its own.
    else if (!options.fromDataDir && !options.env?.DATABASE_URL) {
      const file = path.join(dataDir, "esporte-em-foco.sqlite");
      fs.copyFileSync(await sqliteTemplateFile(), file);
      // As the server keeps its database file: readable by its user only.
      fs.chmodSync(file, 0o600);
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const databaseUrl = options.env?.DATABASE_URL ?? postgres?.url ?? null;
  const databaseEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  if (options.setup) {
    let services: Awaited<ReturnType<typeof createTestServices>> | undefined;
    try {
      services = await createTestServices(dataDir, databaseEnv);
      await options.setup(services);
      await services.close();
    } catch (error) {
      await services?.close().catch(() => undefined);
      await cleanUp();
      throw error;
    }
  }
  const port = options.port ?? (await freePort());
  const env = { DATA_DIR: dataDir, SEED_DEMO: options.seedDemo ? "1" : "0", ...databaseEnv, ...options.env };
  let server: ServerProcess;
  try {
    server = await spawnServer({ port, env });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  let previousLogs = "";
  let stopping: Promise<ExitStatus> | undefined;
  return {
    url: server.url,
    get pid() {
      return server.pid;
    },
    dataDir,
    dbFile: path.join(dataDir, "esporte-em-foco.sqlite"),
    databaseUrl,
    logs: () => previousLogs + server.logs(),
    async whileStopped(fn, signal) {
      await server.stop(signal);
      previousLogs += server.logs();
      await fn();
      server = await spawnServer({ port, env });
    },
    stop() {
      stopping ??= (async () => {
        // Every site of every browser test ends with a look at its log: no secret the database holds may be in it.
        const secrets = await secretsOf({ dbFile: path.join(dataDir, "esporte-em-foco.sqlite"), databaseUrl }, dataDir).catch(() => []);
        const exit = await server.stop();
        const logs = previousLogs + server.logs();
        await cleanUp();
        const leaked = secrets.filter((secret) => logs.includes(secret));
        if (leaked.length) {
          throw new Error(`Segredos no log do servidor: ${leaked.map((secret) => `${secret.slice(0, 4)}…`).join(", ")}`);
        }
        return exit;
      })();
      return stopping;
    },
  };
}

/**
 * The secrets a site keeps (session tokens, reset and verification tokens, password hashes, OAuth tokens, the auth
 * secret): none of them may ever appear in its log.
 */
async function secretsOf(database: { dbFile: string; databaseUrl: string | null }, dataDir: string): Promise<string[]> {
  const values: string[] = [];
  const column = async (statement: string) => {
    for (const row of await siteQuery<Record<string, unknown>>(database, statement)) {
      for (const value of Object.values(row)) if (typeof value === "string") values.push(value);
    }
  };
  await column('SELECT token FROM "session"');
  await column('SELECT identifier, value FROM "verification"');
  await column('SELECT password, "accessToken", "refreshToken", "idToken" FROM "account"');
  const secretFile = path.join(dataDir, "secrets", "auth-secret");
  if (fs.existsSync(secretFile)) values.push(fs.readFileSync(secretFile, "utf8").trim());
  // Reset tokens are stored as "reset-password:<token>": the token alone is the secret. User ids (the value of several
  // verification rows) and short values (counters) are not secrets.
  const userIds = new Set((await siteQuery<{ id: string }>(database, 'SELECT id FROM "user"')).map((row) => row.id));
  return [...new Set(values.flatMap((value) => [value, value.split(":").pop()!]))].filter((value) => value.length >= 16 && !userIds.has(value));
}
