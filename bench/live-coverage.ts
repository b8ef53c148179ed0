/**
 * `npm run bench:live [-- --readers 500 --streams 200 --seconds 30 --interval 2 --varnish]`
 *
 * A derby under live coverage, on the production server (SQLite, page cache on, as shipped): `--readers`
 * concurrent readers load the live article (wrk or autocannon, `Accept-Encoding: br, gzip`) for `--seconds`, while
 * an editor posts an update every `--interval` seconds through the JSON API and `--streams` open pages listen to
 * the event stream (/events, each from its own address) and, on each `liveUpdated`, fetch the updates as the page's
 * script does (GET /api/news/:id/updates). Reported: the article's req/s, p50 and p99 under load; the posts'
 * latency; the delivery latency of each update to the open pages (from the moment the editor sent it to the moment
 * a page holds it, p50/p99/max); whether the rest of the cache stayed current (the home answered from memory after
 * every update). Exit code 1 on a 5xx, a failed post or an update a page never got (a delivery past 10 s under load
 * is reported as late). With `--varnish`, the readers and the pages' fetches go through Varnish with the shipped VCL
 * (deploy/varnish/default.vcl, purged by the app), the streams straight to the app (as nginx routes /events). Writes
 * bench-results/live-<date>.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServices, migrateAll } from "../app/.server/app.server.ts";
import { parseConfig } from "../app/.server/config/env.server.ts";
import { createLogger } from "../app/.server/logger.server.ts";
import { createAdmin } from "../tests/factories/auth.ts";
import { createNews } from "../tests/factories/news.ts";
import { buildIfNeeded } from "./build.ts";
import { chooseLoadTool, runLoad } from "./load.ts";
import { rssOf, sampleRss, signInAdmin, startAppServer } from "./processes.ts";
import { startVarnish, varnishPort } from "../tests/factories/varnish.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

function readOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      readers: { type: "string", default: "500" },
      streams: { type: "string", default: "200" },
      seconds: { type: "string", default: "30" },
      interval: { type: "string", default: "2" },
      varnish: { type: "boolean", default: false },
    },
  });
  const number = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} precisa ser um inteiro ≥ 1`);
    return parsed;
  };
  return {
    readers: number("readers", values.readers!),
    streams: number("streams", values.streams!),
    seconds: number("seconds", values.seconds!),
    interval: number("interval", values.interval!),
    /** Readers and the open pages' fetches through the shipped Varnish VCL (the streams still go to the app). */
    varnish: values.varnish!,
  };
}

async function seed(dataDir: string) {
  const config = parseConfig({ NODE_ENV: "production", DATA_DIR: dataDir, MEDIA_STORE: "local", SEED_DEMO: "0", LOG_LEVEL: "silent" });
  const services = createServices(config, createLogger({ logLevel: "silent" }));
  try {
    await migrateAll(services);
    for (let i = 0; i < 30; i++) await createNews(services, { title: `Notícia ${i} da rodada`, media: i < 5 ? "image" : null });
    const id = await createNews(services, { title: "Clássico ao vivo: acompanhe lance a lance", category: "Futebol" });
    await services.liveCoverage.changeCoverage(
      id,
      { coverage: "live", scoreboard: { home: "Grêmio", away: "Inter", homeScore: 0, awayScore: 0, period: "1º tempo" } },
      null,
    );
    const admin = await createAdmin(services, { password: "Senha-bench-1" });
    return { id, admin };
  } finally {
    await services.events.close();
    await services.rateLimiter.close?.();
    await services.database.close();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
};

/**
 * An open page of the article: its event stream (from its own address), and on each `liveUpdated` of the story the
 * fetch of the updates; `got(id)` resolves with the time the page held update `id`.
 */
function openPage(url: string, newsId: string, address: string, fetchUrl = url) {
  const held = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const controller = new AbortController();
  let fetching: Promise<void> | null = null;
  let refused = false;
  let again = false;
  const refresh = async () => {
    const response = await fetch(`${fetchUrl}/api/news/${newsId}/updates`, {
      headers: { "accept-encoding": "br, gzip", "x-forwarded-for": address },
    });
    const page = (await response.json()) as { updates: Array<{ id: string }> };
    const at = performance.now();
    for (const update of page.updates) {
      if (held.has(update.id)) continue;
      held.set(update.id, at);
      waiting.get(update.id)?.(at);
    }
  };
  const onEvent = () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = refresh()
      .catch(() => undefined)
      .finally(() => {
        fetching = null;
        if (again) {
          again = false;
          onEvent();
        }
      });
  };
  const ready = (async () => {
    const response = await fetch(`${url}/events`, { signal: controller.signal, headers: { "x-forwarded-for": address } });
    if (response.status === 429) {
      refused = true;
      return;
    }
    if (response.status !== 200 || !response.body) throw new Error(`/events respondeu ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith("event: liveUpdated") && block.includes(newsId)) onEvent();
          end = buffer.indexOf("\n\n");
        }
      }
    })();
  })();
  return {
    ready,
    /** The server refused the stream (429: a cap). */
    refused: () => refused,
    holds: (id: string) => held.has(id),
    got(id: string): Promise<number> {
      const at = held.get(id);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    close: () => controller.abort(),
  };
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  buildIfNeeded();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-bench-live-"));
  const logFile = path.join(dataDir, "server.log");
  try {
    const { id, admin } = await seed(dataDir);
    // Each open page from its own address (the app trusts its loopback proxy), as readers are: /events allows a few
    // streams per address.
    const cdnPort = options.varnish ? await varnishPort() : null;
    const server = await startAppServer({
      dataDir,
      pageCache: true,
      logFile,
      env: {
        TRUST_PROXY: "loopback",
        LOGIN_RATE_LIMIT: "1000",
        LIVE_POSTS_PER_MINUTE: "600",
        ...(cdnPort ? { CDN_PURGE_URL: `http://127.0.0.1:${cdnPort}` } : {}),
      },
    });
    const varnish = cdnPort ? await startVarnish({ port: cdnPort, backendPort: Number(new URL(server.url).port) }) : null;
    // What readers and the pages' fetches go through: Varnish when asked (as deploy/ ships it), else the app.
    const front = varnish?.url ?? server.url;
    try {
      const cookie = await signInAdmin(server.url, admin.email, admin.password);
      const articlePath = `/article/${id}`;
      // Memory per open stream: the server's RSS before the streams and once they are all open (after a warm-up
      // request, so the first render's modules are not counted).
      await (await fetch(server.url + articlePath)).arrayBuffer();
      const rssBefore = rssOf(server.pid);
      const allPages = Array.from({ length: options.streams }, (_, i) =>
        openPage(server.url, id, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i & 255) + 1}`, front),
      );
      await Promise.all(allPages.map((page) => page.ready));
      const pages = allPages.filter((page) => !page.refused());
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const rssOpen = rssOf(server.pid);
      const rss = sampleRss(server.pid);
      const tool = chooseLoadTool();
      const load = runLoad(tool, front + articlePath, {
        connections: options.readers,
        seconds: options.seconds,
        threads: 1,
        headers: { "Accept-Encoding": "br, gzip" },
      });
      const posts: number[] = [];
      const deliveries: number[] = [];
      const failures: string[] = [];
      const homeStates: string[] = [];
      const postedIds: string[] = [];
      let missed = 0;
      const deadline = performance.now() + (options.seconds - 1) * 1000;
      for (let n = 1; performance.now() < deadline; n++) {
        const tick = performance.now();
        const sent = performance.now();
        const response = await fetch(`${server.url}/api/news/${id}/updates`, {
          method: "POST",
          headers: { cookie, origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({ text: `Minuto ${n}: ataque pela direita, cruzamento na área.`, keyEvent: n % 10 === 0 }),
        });
        posts.push(performance.now() - sent);
        if (response.status !== 201) {
          failures.push(`POST ${response.status} ${(await response.text()).slice(0, 200)}`);
          continue;
        }
        const { update } = (await response.json()) as { update: { id: string } };
        postedIds.push(update.id);
        const arrivals = await Promise.all(
          pages.map((page) => Promise.race([page.got(update.id), new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000))])),
        );
        for (const at of arrivals) {
          if (at === null) missed++;
          else deliveries.push(at - sent);
        }
        const home = await fetch(`${server.url}/`, { headers: { "accept-encoding": "br" } });
        homeStates.push(home.headers.get("x-page-cache") ?? "none");
        await home.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, options.interval * 1000 - (performance.now() - tick))));
      }
      const result = await load;
      const rssPeak = rss.stop();
      // Late (past the 10 s wait, under load) or lost: once the load is over, does every page hold every update?
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const lost = postedIds.reduce((count, updateId) => count + pages.filter((page) => !page.holds(updateId)).length, 0);
      for (const page of allPages) page.close();
      const serverErrors = fs
        .readFileSync(logFile, "utf8")
        .split("\n")
        .filter((line) => line.includes('"status":5') || line.includes('"level":50')).length;
      const summary = {
        date: new Date().toISOString(),
        cpus: os.cpus().length,
        tool,
        options,
        article: { perSecond: result.perSecond, p50Ms: result.p50Ms, p99Ms: result.p99Ms, non2xx: result.non2xx, errors: result.errors },
        posts: { count: posts.length, p50Ms: percentile(posts, 50), p99Ms: percentile(posts, 99), failures },
        delivery: {
          count: deliveries.length,
          missed,
          p50Ms: percentile(deliveries, 50),
          p99Ms: percentile(deliveries, 99),
          maxMs: Math.max(0, ...deliveries),
        },
        homeAfterUpdates: { hit: homeStates.filter((state) => state === "hit").length, other: homeStates.filter((state) => state !== "hit").length },
        serverErrors,
        streams: {
          admitted: pages.length,
          refused: allPages.length - pages.length,
          rssBeforeMb: rssBefore / 2 ** 20,
          rssOpenMb: rssOpen / 2 ** 20,
          rssPeakMb: rssPeak / 2 ** 20,
          perStreamKb: pages.length ? (rssOpen - rssBefore) / 1024 / pages.length : 0,
        },
      };
      console.log(
        `\nSQLite: ${options.readers} leitores no artigo ao vivo por ${options.seconds} s (${tool}${varnish ? ", pelo Varnish" : ""}); uma atualização a cada ${options.interval} s`,
      );
      console.log(
        `artigo: ${result.perSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, não-2xx ${result.non2xx}, erros ${result.errors}`,
      );
      console.log(
        `atualizações: ${posts.length} publicadas (p50 ${summary.posts.p50Ms.toFixed(0)} ms, p99 ${summary.posts.p99Ms.toFixed(0)} ms), ${failures.length} falhas`,
      );
      console.log(
        `entrega a ${options.streams} páginas abertas: p50 ${summary.delivery.p50Ms.toFixed(0)} ms, p99 ${summary.delivery.p99Ms.toFixed(0)} ms, máx ${summary.delivery.maxMs.toFixed(0)} ms, ${missed} além de 10 s, ${lost} nunca entregues`,
      );
      console.log(
        `fluxos: ${summary.streams.admitted} abertos, ${summary.streams.refused} recusados; RSS ${summary.streams.rssBeforeMb.toFixed(0)} MB antes, ${summary.streams.rssOpenMb.toFixed(0)} MB com eles (${summary.streams.perStreamKb.toFixed(1)} KB por fluxo), pico ${summary.streams.rssPeakMb.toFixed(0)} MB`,
      );
      console.log(
        `home depois de cada atualização: ${summary.homeAfterUpdates.hit} hit, ${summary.homeAfterUpdates.other} outros; linhas 5xx/erro no log: ${serverErrors}`,
      );
      fs.mkdirSync(path.join(ROOT, "bench-results"), { recursive: true });
      const file = path.join(ROOT, "bench-results", `live-${summary.date.replace(/[:.]/g, "-")}.json`);
      fs.writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
      console.log(`resultado: ${path.relative(ROOT, file)}`);
      if (failures.length || lost || serverErrors || result.non2xx) process.exitCode = 1;
    } finally {
      await varnish?.stop();
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
