/**
 * `npm run bench:first-start [-- --runs 3 --cpu-prof]`: how long a fresh installation takes from starting the built
 * server to its first answer. Each run gets a new, empty DATA_DIR and starts the production server on 127.0.0.1 as
 * `npm run demo` does (`server.js --demo`: migrations, demo content with its pictures, video poster and logos, demo
 * admin), then without the demo (SEED_DEMO=0); it reports the time from spawning to the first 200 on `/`, and the
 * median of the runs, with the CPU time the server had used by then (all threads, and ffmpeg: far less dependent
 * on what else the machine runs). Each demo run also checks that the first page is complete: the home lists the
 * demo news and every picture it shows answers 200.
 *
 * The steps of a start are read from the server's log (pino's `time` against the spawn time); `--cpu-prof` writes
 * a V8 CPU profile of each demo run to bench-results/first-start-<run>.cpuprofile (open it in Chrome DevTools).
 * `--compare DIR` also measures the build of another checkout (e.g. `git archive main` unpacked and built there),
 * alternating with this one run by run, so that both see the same load on the machine.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfNeeded } from "./build.ts";
import { rawGet, startAppServer } from "./processes.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { runs: { type: "string", default: "3" }, "cpu-prof": { type: "boolean", default: false }, compare: { type: "string" } },
});
const roots = values.compare ? [path.resolve(values.compare), ROOT] : [ROOT];
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs precisa ser um inteiro ≥ 1.");

interface Run {
  ms: number;
  /** CPU time the server (all its threads, and its finished children: ffmpeg) had used by then: less load-dependent. */
  cpuMs: number | null;
  /** Log messages and their offset from the spawn, in ms. */
  steps: Array<[string, number]>;
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The home of a fresh demo must show the demo news, and each picture it points at must load. */
async function assertCompleteHome(url: string): Promise<void> {
  const home = await fetch(`${url}/`);
  const html = await home.text();
  const sources = [...new Set([...html.matchAll(/\bsrc="(\/media\/[^"]+)"/g)].map((match) => match[1]!))];
  if (!html.includes("Atlético Serrano")) throw new Error("A primeira página não mostra as notícias da demonstração.");
  if (sources.length < 3) throw new Error(`A primeira página mostra só ${sources.length} imagens.`);
  for (const source of sources) {
    const { status } = await rawGet(`${url}${source.replaceAll("&amp;", "&")}`);
    if (status !== 200) throw new Error(`Imagem da primeira página respondeu ${status}: ${source}`);
  }
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process and its reaped children, in ms (Linux /proc; null elsewhere). */
function cpuTimeMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime, stime, cutime, cstime: fields 14-17 of the line, 11-14 after the command name.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

async function once(root: string, demo: boolean, index: number): Promise<Run> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-first-start-"));
  const dataDir = path.join(workDir, "data");
  const logFile = path.join(workDir, "server.log");
  const profileDir = path.join(ROOT, "bench-results");
  const profile = demo && values["cpu-prof"];
  if (profile) fs.mkdirSync(profileDir, { recursive: true });
  try {
    const spawnedAt = Date.now();
    const server = await startAppServer({
      root,
      dataDir,
      pageCache: true,
      logFile,
      env: { SEED_DEMO: demo ? "1" : "0" },
      serverArgs: demo ? ["--demo"] : [],
      nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=first-start-${index + 1}.cpuprofile`] : [],
    });
    const ms = server.coldStartMs;
    const cpuMs = cpuTimeMs(server.pid);
    try {
      if (demo) await assertCompleteHome(server.url);
    } finally {
      await server.stop();
    }
    const steps: Array<[string, number]> = [];
    for (const line of fs.readFileSync(logFile, "utf8").split("\n")) {
      try {
        const entry = JSON.parse(line) as { time?: number; msg?: string; req?: unknown; ms?: number; mediaMs?: number };
        const took = entry.ms === undefined ? "" : ` (${entry.mediaMs === undefined ? "" : `media ${entry.mediaMs} ms of `}${entry.ms} ms)`;
        if (entry.time && entry.msg && !entry.req) steps.push([`${entry.msg}${took}`, entry.time - spawnedAt]);
      } catch {
        // not a log line
      }
    }
    return { ms, cpuMs, steps };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

buildIfNeeded();
console.log(
  `Primeira partida do servidor (build pronto, DATA_DIR vazio), ${runs} execuções; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}`,
);
const summary: Record<string, number> = {};
for (const demo of [true, false]) {
  const label = demo ? "com demonstração (--demo)" : "sem demonstração (SEED_DEMO=0)";
  const times = new Map<string, number[]>(roots.map((root) => [root, []]));
  const cpu = new Map<string, number[]>(roots.map((root) => [root, []]));
  for (let index = 0; index < runs; index++) {
    for (const root of roots) {
      const run = await once(root, demo, index);
      times.get(root)!.push(run.ms);
      if (run.cpuMs !== null) cpu.get(root)!.push(run.cpuMs);
      const steps = run.steps.map(([message, at]) => `${message} @${at} ms`).join("; ");
      console.log(`  ${root} ${label} #${index + 1}: ${run.ms.toFixed(0)} ms, CPU ${run.cpuMs ?? "?"} ms  [${steps}]`);
    }
  }
  for (const root of roots) {
    const list = times.get(root)!;
    const cpuList = cpu.get(root)!;
    const key = `${root} ${demo ? "demo" : "plain"}`;
    summary[key] = Math.round(median(list));
    if (cpuList.length) summary[`${key} cpu`] = Math.round(median(cpuList));
    const cpuText = cpuList.length ? `; CPU até a resposta: mediana ${median(cpuList).toFixed(0)} ms` : "";
    console.log(`${root} ${label}: mediana ${median(list).toFixed(0)} ms (${list.map((time) => time.toFixed(0)).join(", ")})${cpuText}`);
  }
}
console.log(`load ao fim: ${os.loadavg()[0]!.toFixed(2)}`);
console.log(JSON.stringify(summary));
