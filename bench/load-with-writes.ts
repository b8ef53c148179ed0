/**
 * `npm run bench:writes [-- --database sqlite|postgres|both --readers 500 --seconds 60 --news 300]`
 *
 * A breaking-news afternoon: `--readers` concurrent readers on the home, the list and the newest article (split
 * evenly, wrk or autocannon, `Accept-Encoding: br, gzip`) for `--seconds`, while an editor creates, edits and deletes
 * a news item every second through the JSON API, on the production server (page cache on, as shipped). Then checks
 * that every write is visible: each surviving item answers with its last title (API and article page), each deleted
 * one is a 404, and the newest one heads the home. Zero 5xx and zero failed writes are required (exit code 1
 * otherwise). Prints a table and writes bench-results/writes-<date>.json.
 *
 * `npm run bench:writes -- --scenario reads [--requests 45000 --connections 4 --seconds 60]`: the read beacon
 * (POST /api/reads, a few bytes of JSON each) as fast as `--connections` keep-alive connections can send it, up to
 * `--requests` or `--seconds`; prints the server's RSS at the start, its peak and at the end (issue 32: it went
 * 244 → 628 MB under 45 000 of them on 4 connections). Fails past 250 MB or on any answer other than 204.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import http from "node:http";
import pg from "pg";
import { createServices, migrateAll } from "#app/.server/app.server.ts";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { READ_BEACON_HEADER } from "#app/.server/news/reads/read-limiter.server.ts";
import { seedBulkNews } from "#app/.server/seed/bulk-news.server.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { buildIfNeeded } from "./build.ts";
import { chooseLoadTool, type LoadResult, runLoad } from "./load.ts";
import { sampleRss, signInAdmin, startAppServer } from "./processes.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

interface Options {
  databases: Array<"sqlite" | "postgres">;
  scenario: "writes" | "reads";
  readers: number;
  seconds: number;
  news: number;
  requests: number;
  connections: number;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: "string", default: "both" },
      readers: { type: "string", default: "500" },
      seconds: { type: "string", default: "60" },
      news: { type: "string", default: "300" },
      scenario: { type: "string", default: "writes" },
      requests: { type: "string", default: "45000" },
      connections: { type: "string", default: "4" },
    },
  });
  const database = values.database!;
  if (!["sqlite", "postgres", "both"].includes(database)) throw new Error("--database: sqlite, postgres ou both");
  if (values.scenario !== "writes" && values.scenario !== "reads") throw new Error("--scenario: writes ou reads");
  const number = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} precisa ser um inteiro ≥ 1`);
    return parsed;
  };
  return {
    databases: database === "both" ? ["sqlite", "postgres"] : [database as "sqlite" | "postgres"],
    readers: number("readers", values.readers!),
    seconds: number("seconds", values.seconds!),
    news: number("news", values.news!),
    scenario: values.scenario,
    requests: number("requests", values.requests!),
    connections: number("connections", values.connections!),
  };
}

/** A fresh database for one run: a SQLite file in the data dir, or a new PostgreSQL database (dropped at the end). */
async function prepareDatabase(kind: "sqlite" | "postgres", dataDir: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === "sqlite") {
    return { env: { DATABASE_URL: `file:${path.join(dataDir, "esporte-em-foco.sqlite")}` }, drop: async () => {} };
  }
  const name = `eef_bench_writes_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href, AUTH_SECRET: randomBytes(32).toString("hex") },
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function seed(dataDir: string, env: Record<string, string>, count: number) {
  const config = parseConfig({ NODE_ENV: "production", DATA_DIR: dataDir, MEDIA_STORE: "local", SEED_DEMO: "0", LOG_LEVEL: "silent", ...env });
  const services = createServices(config, createLogger({ logLevel: "silent" }));
  try {
    await migrateAll(services);
    const result = await seedBulkNews(services, { count, withImages: 10 });
    const admin = await createAdmin(services, { password: "Senha-bench-1" });
    return { articlePath: `/article/${result.newestId}`, admin };
  } finally {
    await services.events.close();
    await services.rateLimiter.close?.();
    await services.database.close();
  }
}

interface WriteLog {
  created: number;
  edited: number;
  deleted: number;
  failed: Array<{ op: string; status: number; body: string }>;
  latenciesMs: number[];
}

/** The editor: one write a second (create, then edit, then delete an older item, in turn) until `stop()`. */
function startEditor(url: string, cookie: string) {
  const log: WriteLog = { created: 0, edited: 0, deleted: 0, failed: [], latenciesMs: [] };
  const live = new Map<string, string>(); // id → last title
  const deleted = new Set<string>();
  let step = 0;
  let running = true;
  const headers = { cookie, origin: url, "content-type": "application/json" };
  const call = async (op: string, method: string, pathname: string, body?: object) => {
    const started = performance.now();
    const response = await fetch(url + pathname, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    log.latenciesMs.push(performance.now() - started);
    const text = await response.text();
    if (!response.ok) log.failed.push({ op, status: response.status, body: text.slice(0, 300) });
    return { ok: response.ok, text };
  };
  const loop = (async () => {
    while (running) {
      const tick = performance.now();
      const kind = step++ % 3;
      try {
        if (kind === 0 || live.size < 2) {
          const title = `Plantão ${step}: gol no clássico`;
          const result = await call("create", "POST", "/api/news", {
            title,
            subtitle: `Atualização ${step}`,
            fullContent: `Texto ${step}.`,
            category: "Futebol",
          });
          if (result.ok) {
            live.set((JSON.parse(result.text) as { id: string }).id, title);
            log.created++;
          }
        } else if (kind === 1) {
          const [id] = [...live.keys()].slice(-1);
          const title = `Plantão ${step}: placar atualizado`;
          const result = await call("edit", "PATCH", `/api/news/${id}`, { title });
          if (result.ok) {
            live.set(id!, title);
            log.edited++;
          }
        } else {
          const [id] = live.keys();
          const result = await call("delete", "DELETE", `/api/news/${id}`);
          if (result.ok) {
            live.delete(id!);
            deleted.add(id!);
            log.deleted++;
          }
        }
      } catch (error) {
        log.failed.push({ op: "network", status: 0, body: String(error) });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - tick))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { log, live, deleted };
    },
  };
}

/** After the load: every write must be visible to readers. */
async function verify(url: string, live: Map<string, string>, deleted: Set<string>): Promise<string[]> {
  const problems: string[] = [];
  for (const [id, title] of live) {
    const response = await fetch(`${url}/api/news/${id}`);
    const body = response.ok ? ((await response.json()) as { title?: string; news?: { title: string } }) : null;
    const seen = body?.title ?? body?.news?.title;
    if (seen !== title) problems.push(`api/news/${id}: esperado "${title}", veio ${response.status} "${seen}"`);
    const page = await fetch(`${url}/article/${id}`, { headers: { "accept-encoding": "identity" } });
    const html = await page.text();
    if (page.status !== 200 || !html.includes(title)) problems.push(`article/${id}: ${page.status}, título atual ausente`);
  }
  for (const id of deleted) {
    const status = (await fetch(`${url}/article/${id}`)).status;
    if (status !== 404) problems.push(`article/${id} apagada respondeu ${status}`);
  }
  const newest = [...live.entries()].at(-1);
  if (newest) {
    // The page cache answers the first reader after a change with the page it had while one re-render runs
    // (stale-while-revalidate): the home must show the newest item within a few reloads, as a reader would see it.
    let shown = false;
    for (let attempt = 0; attempt < 10 && !shown; attempt++) {
      const home = await (await fetch(`${url}/`, { headers: { "accept-encoding": "identity" } })).text();
      shown = home.includes(newest[1]);
      if (!shown) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    if (!shown) problems.push(`a home não mostra a notícia mais nova ("${newest[1]}") depois de 3 s`);
  }
  return problems;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
};

async function runOne(kind: "sqlite" | "postgres", options: Options) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-bench-writes-"));
  const database = await prepareDatabase(kind, dataDir);
  const logFile = path.join(dataDir, "server.log");
  try {
    const { articlePath, admin } = await seed(dataDir, database.env, options.news);
    const server = await startAppServer({ dataDir, pageCache: true, logFile, env: database.env });
    try {
      const cookie = await signInAdmin(server.url, admin.email, admin.password);
      const tool = chooseLoadTool();
      const pages = ["/", "/news-list", articlePath];
      const connections = Math.max(1, Math.floor(options.readers / pages.length));
      const rss = sampleRss(server.pid);
      const editor = startEditor(server.url, cookie);
      const loads = await Promise.all(
        pages.map((page) =>
          runLoad(tool, server.url + page, { connections, seconds: options.seconds, threads: 1, headers: { "Accept-Encoding": "br, gzip" } }),
        ),
      );
      const { log, live, deleted } = await editor.stop();
      const peakRss = rss.stop();
      const problems = await verify(server.url, live, deleted);
      const serverErrors = fs
        .readFileSync(logFile, "utf8")
        .split("\n")
        .filter((line) => line.includes('"status":5') || line.includes('"level":50'));
      return { kind, pages, loads, log, problems, peakRss, serverErrors: serverErrors.slice(0, 5), serverErrorCount: serverErrors.length, tool };
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The largest RSS the read-beacon flood may leave the server at (issue 32). */
const READS_RSS_LIMIT_MB = 250;

/** RSS of a process in MB (Linux /proc). */
function rssMbOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * The read-beacon flood: `options.connections` keep-alive connections each sending POST /api/reads one after another
 * (as an article page's script does, with the beacon's header) until `options.requests` are answered or
 * `options.seconds` have passed. The server's RSS is read every 100 ms.
 */
async function runReads(kind: "sqlite" | "postgres", options: Options) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-bench-reads-"));
  const database = await prepareDatabase(kind, dataDir);
  const logFile = path.join(dataDir, "server.log");
  try {
    const { articlePath } = await seed(dataDir, database.env, options.news);
    const server = await startAppServer({ dataDir, pageCache: true, logFile, env: database.env });
    try {
      const id = articlePath.split("/").pop()!;
      const body = JSON.stringify({ id });
      const target = new URL("/api/reads", server.url);
      const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
      const headers = {
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
        Origin: server.url,
        [READ_BEACON_HEADER]: "1",
      };
      const statuses = new Map<number, number>();
      const startRss = rssMbOf(server.pid);
      let peakRss = startRss;
      const samples: number[] = [];
      const sampler = setInterval(() => {
        const rss = rssMbOf(server.pid);
        samples.push(rss);
        peakRss = Math.max(peakRss, rss);
      }, 100);
      const post = () =>
        new Promise<number>((resolve, reject) => {
          const request = http.request(target, { method: "POST", agent, headers }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          });
          request.on("error", reject);
          request.end(body);
        });
      const started = performance.now();
      const deadline = started + options.seconds * 1000;
      let sent = 0;
      let errors = 0;
      await Promise.all(
        Array.from({ length: options.connections }, async () => {
          while (sent < options.requests && performance.now() < deadline) {
            sent++;
            const status = await post().catch(() => {
              errors++;
              return 0;
            });
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      agent.destroy();
      const endRss = rssMbOf(server.pid);
      return { kind, sent, seconds, errors, statuses: Object.fromEntries(statuses), startRss, peakRss: Math.max(peakRss, endRss), endRss, samples };
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function reportReads(run: Awaited<ReturnType<typeof runReads>>, options: Options): boolean {
  console.log(
    `\n${run.kind === "sqlite" ? "SQLite" : "PostgreSQL"}: ${run.sent} POST /api/reads em ${run.seconds.toFixed(1)} s ` +
      `(${(run.sent / run.seconds).toFixed(0)}/s) por ${options.connections} conexões keep-alive`,
  );
  console.log(`respostas: ${JSON.stringify(run.statuses)}; erros de conexão: ${run.errors}`);
  console.log(`RSS do servidor: início ${run.startRss.toFixed(0)} MB, pico ${run.peakRss.toFixed(0)} MB, fim ${run.endRss.toFixed(0)} MB`);
  const ok = run.errors === 0 && Object.keys(run.statuses).every((status) => status === "204") && run.peakRss <= READS_RSS_LIMIT_MB;
  console.log(ok ? `✔ todas 204, RSS ≤ ${READS_RSS_LIMIT_MB} MB` : `✖ respostas ≠ 204 ou RSS acima de ${READS_RSS_LIMIT_MB} MB`);
  return ok;
}

function report(run: Awaited<ReturnType<typeof runOne>>, options: Options) {
  const line = (page: string, load: LoadResult) =>
    `${page.padEnd(44)} ${load.perSecond.toFixed(0).padStart(7)} ${load.p50Ms.toFixed(1).padStart(8)} ${load.p99Ms.toFixed(1).padStart(8)} ${String(load.non2xx).padStart(9)} ${String(load.errors).padStart(7)}`;
  console.log(
    `\n${run.kind === "sqlite" ? "SQLite" : "PostgreSQL"}: ${options.readers} leitores por ${options.seconds} s (${run.tool}), uma escrita por segundo`,
  );
  console.log(
    `${"página".padEnd(44)} ${"req/s".padStart(7)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"não-2xx".padStart(9)} ${"erros".padStart(7)}`,
  );
  for (const [index, page] of run.pages.entries()) console.log(line(page, run.loads[index]!));
  const { log } = run;
  console.log(
    `escritas: ${log.created} criadas, ${log.edited} editadas, ${log.deleted} apagadas, ${log.failed.length} falhas; ` +
      `p50 ${percentile(log.latenciesMs, 50).toFixed(0)} ms, p99 ${percentile(log.latenciesMs, 99).toFixed(0)} ms`,
  );
  console.log(`RSS pico do servidor: ${(run.peakRss / 1024 / 1024).toFixed(0)} MB; linhas 5xx/erro no log: ${run.serverErrorCount}`);
  for (const failure of log.failed.slice(0, 5)) console.log(`  falha ${failure.op}: ${failure.status} ${failure.body}`);
  for (const problem of run.problems.slice(0, 10)) console.log(`  ✖ ${problem}`);
  const ok = run.loads.every((load) => load.non2xx === 0) && log.failed.length === 0 && run.problems.length === 0 && run.serverErrorCount === 0;
  console.log(ok ? "✔ zero 5xx, todas as escritas visíveis" : "✖ houve falhas (acima)");
  return ok;
}

const options = readOptions(process.argv.slice(2));
buildIfNeeded();
const results = [];
let allOk = true;
for (const kind of options.databases) {
  if (options.scenario === "reads") {
    const run = await runReads(kind, options);
    results.push(run);
    allOk = reportReads(run, options) && allOk;
    continue;
  }
  const run = await runOne(kind, options);
  results.push(run);
  allOk = report(run, options) && allOk;
}
fs.mkdirSync(path.join(ROOT, "bench-results"), { recursive: true });
const file = path.join(ROOT, "bench-results", `${options.scenario}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(file, JSON.stringify({ options, loadAverage: os.loadavg(), results }, null, 2));
console.log(`\nResultados em ${path.relative(ROOT, file)}`);
process.exit(allOk ? 0 : 1);
