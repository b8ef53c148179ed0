/**
 * The processes `npm run bench` measures: the production server (`node server.js`, logging to a file as it would
 * in production) and the static reference server, plus the memory sampler and a raw HTTP client.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { freePort, SERVER_ENV, SERVER_NODE_ARGS, waitUntilServing } from "#tests/factories/site.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface BenchProcess {
  url: string;
  pid: number;
  /** Time from spawning to the first 200 of `/`. */
  coldStartMs: number;
  stop(): Promise<void>;
}

/** What a request got back, body as sent (still compressed). */
export interface RawResponse {
  status: number;
  /** Header name/value pairs, in the order and spelling they came. */
  rawHeaders: Array<[string, string]>;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GET without decoding anything, on a connection of its own. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const pairs: Array<[string, string]> = [];
        for (let index = 0; index < response.rawHeaders.length; index += 2) {
          pairs.push([response.rawHeaders[index]!, response.rawHeaders[index + 1]!]);
        }
        resolve({ status: response.statusCode ?? 0, rawHeaders: pairs, headers: response.headers, body: Buffer.concat(chunks) });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * Starts the production server on 127.0.0.1 over an existing data directory and measures its cold start. Only
 * what the run needs is set; the rest is the production default (LOG_LEVEL=info, logs appended to `logFile`).
 */
export async function startAppServer(options: {
  dataDir: string;
  pageCache: boolean;
  logFile: string;
  /** Overrides (e.g. DATABASE_URL and AUTH_SECRET for PostgreSQL). */
  env?: Record<string, string>;
  /** Extra Node options before `server.js` (e.g. `--cpu-prof`) and arguments after it (e.g. `--demo`). */
  nodeArgs?: string[];
  serverArgs?: string[];
  /** The checkout whose build runs (default: this one). */
  root?: string;
}): Promise<BenchProcess> {
  const port = await freePort();
  const log = fs.openSync(options.logFile, "a");
  const started = performance.now();
  // Started as `npm start` starts it (package.json).
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, ...(options.nodeArgs ?? []), "server.js", ...(options.serverArgs ?? [])], {
    cwd: options.root ?? ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: options.dataDir,
      // Explicit, so a developer's .env cannot point the bench at another database or store.
      DATABASE_URL: `file:${path.join(options.dataDir, "esporte-em-foco.sqlite")}`,
      MEDIA_STORE: "local",
      SEED_DEMO: "0",
      LOG_LEVEL: "info",
      SITE_URL: `http://localhost:${port}`,
      ALLOW_INSECURE_HTTP: "1",
      PAGE_CACHE: options.pageCache ? "1" : "0",
      ...options.env,
    },
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    // Asked every 10 ms: the cold start is measured to the first answer.
    await waitUntilServing(`${url}/`, child, () => fs.readFileSync(options.logFile, "utf8").slice(-4000), { intervalMs: 10 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, coldStartMs: performance.now() - started, stop };
}

/** What the static server answers every request with. */
export interface StaticPage {
  status: number;
  rawHeaders: Array<[string, string]>;
  body: Buffer;
}

/** Starts bench/static-server.ts answering every request with `page` (written to `workDir` for it). */
export async function startStaticServer(page: StaticPage, workDir: string): Promise<BenchProcess> {
  const port = await freePort();
  const file = path.join(workDir, "static-page.json");
  fs.writeFileSync(file, JSON.stringify({ status: page.status, rawHeaders: page.rawHeaders, body: page.body.toString("base64") }));
  const started = performance.now();
  let output = "";
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "static-server.ts"), file, String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitUntilServing(`${url}/`, child, () => output, { timeoutMs: 10_000, intervalMs: 10 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, coldStartMs: performance.now() - started, stop };
}

/** Resident memory of a process, in bytes (0 once it is gone). */
export function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The process and its children (the workers of a server started with WORKERS > 1), by pid. */
function processTree(pid: number): number[] {
  try {
    const children = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

/** The largest RSS of one process of the tree (the budget is per process). */
const largestRss = (pid: number) => Math.max(...processTree(pid).map(rssOf));

/**
 * Samples the RSS of a process and of its children (a server with several workers) every 100 ms until stopped;
 * returns the highest reading of any one of them.
 */
export function sampleRss(pid: number): { stop(): number } {
  let peak = largestRss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, largestRss(pid));
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, largestRss(pid));
    },
  };
}

/** Signs in through the login form, as the newsroom does; returns the session cookie (`name=value`). */
export async function signInAdmin(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "login", email, password, redirectTo: "/news-list" }),
  });
  const cookie = response.headers.getSetCookie().find((value) => value.includes("session_token"));
  if (response.status !== 302 || !cookie) throw new Error(`Login do admin falhou: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return cookie.split(";")[0]!;
}
