/**
 * `npm run bench [-- --news 300 --seconds 10 --connections 50 --warmup 3 --threads 1 --tool wrk|autocannon --workers 1
 * --cpu-prof]`:
 * what a breaking-news burst costs. Seeds `--news` generated news (the code of `npm run seed:news`) into a
 * temporary data directory, starts the production server on 127.0.0.1 and puts the home, an article, the list and
 * an image under load with wrk (autocannon when wrk cannot be had), plus the RSS feed and two attempts to get past
 * the cache (the home with a random query string on every request, and with a forged session cookie, whose rates are
 * compared with the cached home's): first with the page cache (PAGE_CACHE=1),
 * then without it (PAGE_CACHE=0, a second start), and compares each to a static server sending the cached home's
 * bytes from memory. Prints a table and the issue's budgets (PASS/MISS, never failing the process) and writes
 * everything to bench-results/<timestamp>.json. `--workers N` starts both servers with WORKERS=N; `--cpu-prof` profiles
 * the uncached server (bench-results/profiles/, summarized by bench/cpu-profile.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServices, migrateAll } from "#app/.server/app.server.ts";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import type { StoredVariant } from "#app/.server/media/media-keys.ts";
import { seedBulkNews } from "#app/.server/seed/bulk-news.server.ts";
import { createSponsor } from "#tests/factories/news.ts";
import { buildIfNeeded } from "./build.ts";
import { formatProfile, summarizeProfile } from "./cpu-profile.ts";
import { chooseLoadTool, type LoadOptions, type LoadResult, type LoadTool, runLoad } from "./load.ts";
import { type BenchProcess, rawGet, sampleRss, startAppServer, startStaticServer } from "./processes.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
/** What a browser sends; the page cache answers it with its brotli copy. */
const ACCEPT = { "Accept-Encoding": "br, gzip" };
const MB = 1024 * 1024;

interface BenchOptions {
  news: number;
  seconds: number;
  warmup: number;
  connections: number;
  threads: number;
  tool: LoadTool | undefined;
  workers: number;
  cpuProf: boolean;
}

function readOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      news: { type: "string" },
      seconds: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      threads: { type: "string" },
      tool: { type: "string" },
      workers: { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
    },
  });
  const number = (name: string, value: string | undefined, fallback: number, min: number) => {
    const parsed = Number(value ?? fallback);
    if (!Number.isInteger(parsed) || parsed < min) throw new Error(`--${name} precisa ser um inteiro ≥ ${min}.`);
    return parsed;
  };
  if (values.tool !== undefined && values.tool !== "wrk" && values.tool !== "autocannon") throw new Error("--tool é wrk ou autocannon.");
  return {
    news: number("news", values.news, 300, 1),
    seconds: number("seconds", values.seconds ?? process.env.BENCH_SECONDS, 10, 1),
    warmup: number("warmup", values.warmup, 3, 0),
    connections: number("connections", values.connections, 50, 1),
    threads: number("threads", values.threads, 1, 1),
    tool: values.tool as LoadTool | undefined,
    workers: number("workers", values.workers, 1, 1),
    cpuProf: values["cpu-prof"] === true,
  };
}

/**
 * Fills a fresh data directory: `count` news through the bulk seeder, 4 sponsors (the footer every page shows).
 * Returns the newest article and the URL of one of its image variants (800 px WebP, what a phone loads).
 */
async function seed(dataDir: string, count: number) {
  const config = parseConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${path.join(dataDir, "esporte-em-foco.sqlite")}`,
    MEDIA_STORE: "local",
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
  });
  const services = createServices(config, createLogger({ logLevel: "silent" }));
  try {
    await migrateAll(services);
    const result = await seedBulkNews(services, { count });
    for (let index = 0; index < 4; index++) await createSponsor(services);
    const newest = await services.database.db
      .selectFrom("news")
      .innerJoin("media", "media.id", "news.media_id")
      .select(["news.id", "media.variants"])
      .where("news.id", "=", result.newestId!)
      .executeTakeFirstOrThrow();
    const variants = JSON.parse(newest.variants) as StoredVariant[];
    const image = variants.find((variant) => variant.width === 800 && variant.format === "webp") ?? variants[0]!;
    return { ms: result.ms, withImages: result.withImages, articlePath: `/article/${newest.id}`, imagePath: `/media/${image.key}` };
  } finally {
    await services.events.close();
    await services.rateLimiter.close?.();
    await services.database.close();
  }
}

/**
 * The uncached home for each encoding a client may ask for: "home" is a browser's (`br, gzip`, answered with gzip
 * when rendered: server/main.ts), then gzip alone, then none (what bots and curl send).
 */
const UNCACHED_ENCODINGS: BenchPage[] = [
  { name: "home", path: "/" },
  { name: "home gzip", path: "/", headers: { "Accept-Encoding": "gzip" } },
  { name: "home identity", path: "/", headers: { "Accept-Encoding": "identity" } },
];

/** A URL put under load: the page, and for the bypass attempts a random query string or a forged session cookie. */
interface BenchPage {
  name: string;
  path: string;
  headers?: Record<string, string>;
  randomQuery?: boolean;
}

/** A session cookie as Better Auth makes them (token, ".", a 44-character base64 signature) but signed by nobody. */
const FORGED_COOKIE = `eef.session_token=${encodeURIComponent(`${"f".repeat(32)}.${Buffer.alloc(32, 7).toString("base64")}`)}`;

interface Row extends LoadResult {
  page: string;
  mode: "cache" | "sem cache" | "estático";
  path: string;
  /** X-Page-Cache of a request made after the warm-up ("-" when absent). */
  cacheState: string;
  peakRssBytes: number;
  /** Requests per second relative to the static server's. */
  ratio: number | null;
}

/** Warms the page up, then measures it, sampling the server's memory throughout. */
async function measure(tool: LoadTool, server: BenchProcess, page: BenchPage, mode: Row["mode"], options: BenchOptions): Promise<Row> {
  const url = server.url + page.path;
  const load: LoadOptions = {
    connections: options.connections,
    seconds: options.seconds,
    threads: options.threads,
    headers: { ...ACCEPT, ...page.headers },
    randomQuery: Boolean(page.randomQuery),
  };
  process.stdout.write(`  ${page.name} (${mode}): `);
  const rss = sampleRss(server.pid);
  if (options.warmup) {
    process.stdout.write(`aquecendo ${options.warmup} s, `);
    await runLoad(tool, url, { ...load, seconds: options.warmup });
  }
  const probe = await rawGet(page.randomQuery ? `${url}?sonda=${Date.now()}` : url, { ...ACCEPT, ...page.headers });
  process.stdout.write(`medindo ${options.seconds} s… `);
  const result = await runLoad(tool, url, load);
  const peakRssBytes = rss.stop();
  console.log(`${Math.round(result.perSecond)} req/s`);
  const cacheState = String(probe.headers["x-page-cache"] ?? "-");
  return { page: page.name, mode, path: page.path, ...result, cacheState, peakRssBytes, ratio: null };
}

function formatTable(rows: Row[]): string {
  const header = ["página", "modo", "req/s", "p50 ms", "p99 ms", "erros/não-2xx", "× estático", "RSS pico", "X-Page-Cache"];
  const lines = rows.map((row) => [
    row.page,
    row.mode,
    String(Math.round(row.perSecond)),
    row.p50Ms.toFixed(2),
    row.p99Ms.toFixed(2),
    `${row.errors}/${row.non2xx}`,
    row.ratio === null ? "-" : `${Math.round(row.ratio * 100)} %`,
    `${Math.round(row.peakRssBytes / MB)} MB`,
    row.cacheState,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [format(header), widths.map((width) => "-".repeat(width)).join("  "), ...lines.map(format)].join("\n");
}

interface Budget {
  name: string;
  measured: string;
  pass: boolean;
}

/**
 * The issue's budgets. A page that had errors or non-2xx answers, or no answer at all within the run, misses its
 * budgets whatever its numbers.
 */
function checkBudgets(rows: Row[], coldStartMs: number, listHtmlBytes: number, connections: number): Budget[] {
  const find = (page: string, mode: Row["mode"]) => rows.find((row) => row.page === page && row.mode === mode)!;
  const clean = (row: Row) => row.requests > 0 && row.errors === 0 && row.non2xx === 0;
  const budgets: Budget[] = [];
  for (const page of ["home", "artigo"]) {
    const row = find(page, "cache");
    budgets.push(
      {
        name: `${page} com cache ≥ 50 % do estático`,
        measured: `${Math.round((row.ratio ?? 0) * 100)} %`,
        pass: clean(row) && (row.ratio ?? 0) >= 0.5,
      },
      { name: `${page} com cache p99 < 10 ms`, measured: `${row.p99Ms.toFixed(2)} ms`, pass: clean(row) && row.p99Ms < 10 },
    );
  }
  // Cache busting: made-up query strings and forged session cookies must cost about a hit, not a render.
  const cachedHome = find("home", "cache");
  for (const page of ["home ?aleatório", "home cookie forjado"]) {
    const row = find(page, "cache");
    const ratio = cachedHome.perSecond ? row.perSecond / cachedHome.perSecond : 0;
    budgets.push({
      name: `${page} ≥ 50 % da home com cache`,
      measured: `${Math.round(row.perSecond)} req/s = ${Math.round(ratio * 100)} % de ${Math.round(cachedHome.perSecond)}`,
      pass: clean(row) && ratio >= 0.5,
    });
  }
  // Renders are CPU-bound (~5 ms each on 2 cores): what a closed loop of `connections` waits on average is
  // connections ÷ req/s. Fair means no encoding's tail is far behind that: p99 ≤ 2× the mean wait, for each.
  for (const page of UNCACHED_ENCODINGS.map((each) => each.name)) {
    const row = find(page, "sem cache");
    const meanWaitMs = row.perSecond ? (connections / row.perSecond) * 1000 : Number.POSITIVE_INFINITY;
    budgets.push({
      name: `${page} sem cache p99 ≤ 2× a espera média`,
      measured: `p99 ${row.p99Ms.toFixed(0)} ms, espera média ${meanWaitMs.toFixed(0)} ms (${(row.p99Ms / meanWaitMs).toFixed(2)}×)`,
      pass: clean(row) && row.p99Ms <= 2 * meanWaitMs,
    });
  }
  const peak = Math.max(...rows.filter((row) => row.mode !== "estático").map((row) => row.peakRssBytes));
  budgets.push({ name: "pico de RSS do servidor ≤ 250 MB", measured: `${Math.round(peak / MB)} MB`, pass: peak <= 250 * MB });
  budgets.push({ name: "partida a frio ≤ 1 s", measured: `${Math.round(coldStartMs)} ms`, pass: coldStartMs <= 1000 });
  budgets.push({
    name: "lista: primeira tela < 200 kB de HTML",
    measured: `${Math.round(listHtmlBytes / 1024)} kB`,
    pass: listHtmlBytes < 200 * 1024,
  });
  return budgets;
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  console.log(`Carga da máquina agora (1/5/15 min): ${loadBefore.map((value) => value.toFixed(2)).join(" / ")} em ${os.cpus().length} núcleos`);
  if (loadBefore[0]! > 1) console.log("Aviso: a máquina está ocupada; os números ficam piores do que seriam com ela livre.");
  buildIfNeeded();
  const tool = chooseLoadTool(options.tool);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-bench-"));
  const dataDir = path.join(workDir, "data");
  const logFile = path.join(workDir, "server.log");
  const running: BenchProcess[] = [];
  const start = async (server: Promise<BenchProcess>) => {
    const started = await server;
    running.push(started);
    return started;
  };
  try {
    console.log(`Semeando ${options.news.toLocaleString("pt-BR")} notícias em ${dataDir}…`);
    const seeded = await seed(dataDir, options.news);
    console.log(`  pronto em ${(seeded.ms / 1000).toFixed(1)} s (${seeded.withImages} com imagem)`);
    const pages: BenchPage[] = [
      { name: "home", path: "/" },
      { name: "artigo", path: seeded.articlePath },
      { name: "lista", path: "/news-list" },
      { name: "rss", path: "/rss.xml" },
      { name: "imagem", path: seeded.imagePath },
    ];
    // Attempts to get past the cache, measured with it on (without it every request is a render anyway).
    const bypasses: BenchPage[] = [
      { name: "home ?aleatório", path: "/", randomQuery: true },
      { name: "home cookie forjado", path: "/", headers: { Cookie: FORGED_COOKIE } },
    ];
    const rows: Row[] = [];
    const serverEnv = { WORKERS: String(options.workers) };
    const coldStarts: Record<string, number> = {};

    console.log(`Com cache (PAGE_CACHE=1), ${tool}, ${options.connections} conexões:`);
    const cached = await start(startAppServer({ dataDir, pageCache: true, logFile, env: serverEnv }));
    coldStarts.cache = cached.coldStartMs;
    const home = await rawGet(`${cached.url}/`, ACCEPT);
    if (home.status !== 200 || home.headers["content-encoding"] !== "br") {
      throw new Error(`A home com cache deveria vir em brotli: ${home.status} ${home.headers["content-encoding"] ?? "sem Content-Encoding"}`);
    }
    const list = await rawGet(`${cached.url}/news-list`);
    const listCompressed = await rawGet(`${cached.url}/news-list`, ACCEPT);
    for (const page of [...pages, ...bypasses]) rows.push(await measure(tool, cached, page, "cache", options));
    await cached.stop();

    console.log("Servidor estático (a home com cache, da memória):");
    const reference = await start(startStaticServer({ status: home.status, rawHeaders: home.rawHeaders, body: home.body }, workDir));
    const staticRow = await measure(tool, reference, { name: "home", path: "/" }, "estático", options);
    await reference.stop();

    console.log("Sem cache (PAGE_CACHE=0), nova partida:");
    const profileDir = path.join(ROOT, "bench-results", "profiles", startedAt.toISOString().replace(/[:.]/g, "-"));
    const uncached = await start(
      startAppServer({
        dataDir,
        pageCache: false,
        logFile,
        env: serverEnv,
        nodeArgs: options.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
      }),
    );
    coldStarts.semCache = uncached.coldStartMs;
    for (const page of [...pages, ...UNCACHED_ENCODINGS.slice(1)]) rows.push(await measure(tool, uncached, page, "sem cache", options));
    await uncached.stop();
    const profiles = options.cpuProf && fs.existsSync(profileDir) ? fs.readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile")) : [];

    for (const row of rows) row.ratio = row.perSecond / staticRow.perSecond;
    staticRow.ratio = 1;
    const table = [staticRow, ...rows];
    const coldStartMs = Math.max(...Object.values(coldStarts));
    const budgets = checkBudgets(rows, coldStartMs, list.body.length, options.connections);
    const loadAfter = os.loadavg();

    console.log(`\n${formatTable(table)}\n`);
    console.log(
      `Partida a frio até o primeiro 200 de /: ${Math.round(coldStarts.cache!)} ms com cache, ${Math.round(coldStarts.semCache!)} ms sem cache.`,
    );
    console.log(
      `Tamanhos: home ${(home.body.length / 1024).toFixed(1)} kB em brotli; lista ${(list.body.length / 1024).toFixed(1)} kB de HTML ` +
        `(${(listCompressed.body.length / 1024).toFixed(1)} kB em ${listCompressed.headers["content-encoding"] ?? "identidade"}).`,
    );
    console.log("\nOrçamentos:");
    for (const budget of budgets) console.log(`  ${budget.pass ? "PASS" : "MISS"}  ${budget.name}: ${budget.measured}`);
    for (const profile of profiles) {
      console.log(`\n${path.relative(process.cwd(), path.join(profileDir, profile))}:`);
      console.log(formatProfile(summarizeProfile(path.join(profileDir, profile))));
    }
    console.log(`Carga da máquina ao fim (1/5/15 min): ${loadAfter.map((value) => value.toFixed(2)).join(" / ")}`);

    const resultsDir = path.join(ROOT, "bench-results");
    fs.mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
    const report = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, loadBefore, loadAfter, node: process.version, tool },
      options,
      seed: { news: options.news, ms: seeded.ms, withImages: seeded.withImages },
      paths: Object.fromEntries(pages.map((page) => [page.name, page.path])),
      coldStartMs: coldStarts,
      sizes: {
        homeBrotliBytes: home.body.length,
        listHtmlBytes: list.body.length,
        listCompressedBytes: listCompressed.body.length,
      },
      rows: table,
      budgets,
    };
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Resultados em ${path.relative(process.cwd(), file)}`);
  } finally {
    for (const server of running) await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
