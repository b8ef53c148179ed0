/**
 * The load generator of `npm run bench`: wrk when it is installed (installed with apt-get when missing and we are
 * root), autocannon otherwise. Both are closed-loop: `connections` clients each send the next request as soon as
 * the previous answer arrives, for `seconds`.
 */
import autocannon from "autocannon";
import { execFile, execFileSync } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export type LoadTool = "wrk" | "autocannon";

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** wrk threads (autocannon runs in this process). */
  threads: number;
  headers: Record<string, string>;
  /** Every request with a query string never seen before (`?<random>=<random>`): what a cache-busting flood sends. */
  randomQuery?: boolean;
}

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers with a status outside 2xx (wrk: ≥ 400, the only ones it counts). */
  non2xx: number;
  bytesPerRequest: number;
}

function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits with 1: found all the same.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/**
 * wrk if it is there or can be installed (Debian package, as root), else autocannon. `preferred` forces one; a
 * forced wrk that cannot be had is an error.
 */
export function chooseLoadTool(preferred?: LoadTool): LoadTool {
  if (preferred === "autocannon") return "autocannon";
  if (hasWrk()) return "wrk";
  if (process.getuid?.() === 0) {
    console.log("wrk não encontrado: instalando com apt-get…");
    for (const step of [["install", "-y", "wrk"], ["update"], ["install", "-y", "wrk"]]) {
      try {
        execFileSync("apt-get", step, { stdio: "ignore", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
        if (step[0] === "install" && hasWrk()) return "wrk";
      } catch {
        // try the next step (the package list may be missing or old)
      }
    }
  }
  if (preferred === "wrk") throw new Error("wrk não está instalado (apt-get install wrk).");
  console.log("wrk indisponível: usando autocannon (mede menos do servidor: roda em Node, no mesmo processo do bench).");
  return "autocannon";
}

/** Puts `url` under load and summarises what came back. */
export async function runLoad(tool: LoadTool, url: string, options: LoadOptions): Promise<LoadResult> {
  return tool === "wrk" ? runWrk(url, options) : runAutocannon(url, options);
}

async function runWrk(url: string, options: LoadOptions): Promise<LoadResult> {
  const args = [
    `-t${Math.min(options.threads, options.connections)}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--timeout",
    "5s",
    "-s",
    path.join(import.meta.dirname, "wrk-report.lua"),
    ...Object.entries(options.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    url,
  ];
  const { stdout } = await run("wrk", args, {
    maxBuffer: 1 << 20,
    env: { ...process.env, WRK_RANDOM_QUERY: options.randomQuery ? "1" : "0" },
  });
  const line = stdout.split("\n").find((text) => text.startsWith("WRK_JSON "));
  if (!line) throw new Error(`Saída inesperada do wrk:\n${stdout}`);
  const report = JSON.parse(line.slice("WRK_JSON ".length)) as Record<string, number>;
  const requests = report.requests!;
  return {
    requests,
    perSecond: requests / (report.durationUs! / 1e6),
    p50Ms: report.p50! / 1000,
    p99Ms: report.p99! / 1000,
    errors: report.connect! + report.read! + report.write! + report.timeout!,
    non2xx: report.status!,
    bytesPerRequest: requests ? report.bytes! / requests : 0,
  };
}

async function runAutocannon(url: string, options: LoadOptions): Promise<LoadResult> {
  const { pathname } = new URL(url);
  const random = () => Math.floor(Math.random() * 1e9).toString(36);
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    timeout: 5,
    ...(options.randomQuery ? { requests: [{ setupRequest: (request) => ({ ...request, path: `${pathname}?${random()}=${random()}` }) }] } : {}),
  });
  const requests = result.requests.total;
  return {
    requests,
    perSecond: requests / (result.duration || options.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerRequest: requests ? result.throughput.total / requests : 0,
  };
}
