/**
 * `npm run bench:live [-- --readers 500 --streams 200 --seconds 30 --interval 2 --varnish --fanout app|nchan]`
 *
 * A derby under live coverage, on the production server (SQLite, page cache on, as shipped): `--readers`
 * concurrent readers load the live article (wrk or autocannon, `Accept-Encoding: br, gzip`) for `--seconds`, while
 * an editor posts an update every `--interval` seconds through the JSON API and `--streams` open pages listen to
 * the event stream (/events, each from its own address, held by processes of their own: bench/stream-clients.ts)
 * and take each new update as the page's script does (from the event, or GET /api/news/:id/updates when the event
 * does not carry it). Reported: the article's req/s, p50 and p99 under load; the posts' latency; the delivery
 * latency of each update to the open pages (from the moment the editor sent it to the moment a page holds it,
 * p50/p99/max) and the requests the pages made for it; whether the rest of the cache stayed current (the home
 * answered from memory after every update). Exit code 1 on a 5xx, a failed post or an update a page never got (a
 * delivery past 10 s under load is reported as late). With `--varnish`, the readers and the pages' fetches go
 * through Varnish with the shipped VCL (deploy/varnish/default.vcl, purged by the app), the streams straight to the
 * app (as nginx routes /events). With `--fanout nchan`, Debian's nginx with the nchan module and the shipped site file
 * (deploy/nginx/esporte-em-foco-nchan.conf) holds the streams, each from its own loopback address, and the app
 * publishes to it (LIVE_FANOUT=nchan); memory per stream is then nginx's. Writes bench-results/live-<date>.json.
 */
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServices, migrateAll } from "#app/.server/app.server.ts";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { buildIfNeeded } from "./build.ts";
import { chooseLoadTool, runLoad } from "./load.ts";
import { rssOf, sampleRss, signInAdmin, startAppServer } from "./processes.ts";
import { startNginx } from "#tests/factories/nginx.ts";
import { freePort } from "#tests/factories/site.ts";
import { startVarnish, varnishPort } from "#tests/factories/varnish.ts";
import { systemActor } from "#app/.server/auth/permissions.server.ts";

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
      fanout: { type: "string", default: "app" },
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
    /** Who holds the streams: the app, or nginx + nchan (LIVE_FANOUT=nchan). */
    fanout: values.fanout === "nchan" ? ("nchan" as const) : ("app" as const),
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
      systemActor("bench"),
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

/** How many processes hold the open pages (bench/stream-clients.ts), at least. */
const CLIENT_PROCESSES = 2;
const STREAMS_PER_PROCESS = 15_000;

type FromClients =
  | { type: "ready"; admitted: number; refused: number }
  | { type: "arrivals"; updateId: string; delays: number[]; missed: number }
  | { type: "lost"; count: number; fetches: number; reloads: number };

/**
 * The open pages, spread over CLIENT_PROCESSES processes (bench/stream-clients.ts): `open` resolves with how many the
 * server admitted; `delivered(id, sentAt)` with each page's delay for update `id` (ms from `sentAt`, the epoch) and
 * how many did not get it within `timeoutMs`.
 */
function openPages(url: string, fetchUrl: string, newsId: string, count: number, ownAddresses: boolean) {
  const script = path.join(import.meta.dirname, "stream-clients.ts");
  // Each process holds at most STREAMS_PER_PROCESS (its open-files limit).
  const processes = Math.max(CLIENT_PROCESSES, Math.ceil(count / STREAMS_PER_PROCESS));
  const children = Array.from({ length: processes }, () => fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  const ask = <T extends FromClients>(child: ChildProcess, message: object, type: T["type"]) =>
    new Promise<T>((resolve) => {
      const listener = (reply: FromClients) => {
        if (reply.type !== type) return;
        child.off("message", listener);
        resolve(reply as T);
      };
      child.on("message", listener);
      child.send(message);
    });
  const share = Math.ceil(count / processes);
  return {
    async open() {
      const replies = await Promise.all(
        children.map((child, i) =>
          ask<Extract<FromClients, { type: "ready" }>>(
            child,
            { type: "open", url, fetchUrl, newsId, from: i * share, count: Math.max(0, Math.min(share, count - i * share)), ownAddresses },
            "ready",
          ),
        ),
      );
      return { admitted: replies.reduce((sum, each) => sum + each.admitted, 0), refused: replies.reduce((sum, each) => sum + each.refused, 0) };
    },
    async delivered(updateId: string, sentAt: number, timeoutMs: number) {
      const replies = await Promise.all(
        children.map((child) => ask<Extract<FromClients, { type: "arrivals" }>>(child, { type: "await", updateId, sentAt, timeoutMs }, "arrivals")),
      );
      return { delays: replies.flatMap((each) => each.delays), missed: replies.reduce((sum, each) => sum + each.missed, 0) };
    },
    async lost(ids: string[]) {
      const replies = await Promise.all(children.map((child) => ask<Extract<FromClients, { type: "lost" }>>(child, { type: "lost", ids }, "lost")));
      const sum = (key: "count" | "fetches" | "reloads") => replies.reduce((total, each) => total + each[key], 0);
      return { count: sum("count"), fetches: sum("fetches"), reloads: sum("reloads") };
    },
    close() {
      for (const child of children) if (child.connected) child.send({ type: "close" });
    },
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
    const publishPort = options.fanout === "nchan" ? await freePort() : null;
    const server = await startAppServer({
      dataDir,
      pageCache: true,
      logFile,
      env: {
        TRUST_PROXY: "loopback",
        LOGIN_RATE_LIMIT: "1000",
        LIVE_POSTS_PER_MINUTE: "600",
        ...(cdnPort ? { CDN_PURGE_URL: `http://127.0.0.1:${cdnPort}` } : {}),
        ...(publishPort ? { LIVE_FANOUT: "nchan", NCHAN_PUBLISH_URL: `http://127.0.0.1:${publishPort}/_nchan/pub` } : {}),
      },
    });
    const varnish = cdnPort ? await startVarnish({ port: cdnPort, backendPort: Number(new URL(server.url).port) }) : null;
    // What readers and the pages' fetches go through: Varnish when asked (as deploy/ ships it), else the app.
    const front = varnish?.url ?? server.url;
    const appPort = Number(new URL(server.url).port);
    const nginx = publishPort
      ? await startNginx({
          backendPort: appPort,
          appPort,
          nchan: true,
          publishPort,
          // A process here may hold 20 000 descriptors at most (its hard limit cannot be raised): a worker per
          // 12 000 streams, each listening on its own socket so they share the streams evenly.
          workers: Math.max(2, Math.ceil(options.streams / 12_000)),
          workerConnections: Math.min(19_000, options.streams + 1024),
          reusePort: true,
        })
      : null;
    // Whose memory the streams cost: the app's, or nginx's worker's.
    const holder = () => (nginx ? nginx.workerPids() : [server.pid]);
    /** The streams' holder's memory: the app's RSS, or the sum of nginx's workers'. */
    const holderRss = () => holder().reduce((sum, pid) => sum + rssOf(pid), 0);
    try {
      const cookie = await signInAdmin(server.url, admin.email, admin.password);
      const articlePath = `/article/${id}`;
      // Memory per open stream: the server's RSS before the streams and once they are all open (after a warm-up
      // request, so the first render's modules are not counted).
      await (await fetch(server.url + articlePath)).arrayBuffer();
      const rssBefore = holderRss();
      const pages = openPages(nginx?.url ?? server.url, front, id, options.streams, Boolean(nginx));
      const opened = await pages.open();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const rssOpen = holderRss();
      let rssPeak = rssOpen;
      const sampling = setInterval(() => (rssPeak = Math.max(rssPeak, holderRss())), 100);
      const appRss = nginx ? sampleRss(server.pid) : null;
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
      let goals = 0;
      const deadline = performance.now() + (options.seconds - 1) * 1000;
      for (let n = 1; performance.now() < deadline; n++) {
        const tick = performance.now();
        const sent = performance.timeOrigin + performance.now();
        const response = await fetch(`${server.url}/api/news/${id}/updates`, {
          method: "POST",
          headers: { cookie, origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({ text: `Minuto ${n}: ataque pela direita, cruzamento na área.`, keyEvent: n % 10 === 0 }),
        });
        posts.push(performance.timeOrigin + performance.now() - sent);
        if (response.status !== 201) {
          failures.push(`POST ${response.status} ${(await response.text()).slice(0, 200)}`);
          continue;
        }
        const { update } = (await response.json()) as { update: { id: string } };
        postedIds.push(update.id);
        const arrivals = await pages.delivered(update.id, sent, 10_000);
        for (const delay of arrivals.delays) deliveries.push(delay);
        missed += arrivals.missed;
        // Every third minute a goal: the score changes on the cards (newsUpdated) and on the open article.
        if (n % 3 === 0) {
          const goal = await fetch(`${server.url}/api/news/${id}`, {
            method: "PATCH",
            headers: { cookie, origin: server.url, "content-type": "application/json" },
            body: JSON.stringify({ scoreboard: { home: "Grêmio", away: "Inter", homeScore: ++goals, awayScore: 0, period: "2º tempo" } }),
          });
          if (goal.status !== 200) failures.push(`PATCH ${goal.status} ${(await goal.text()).slice(0, 200)}`);
          else await goal.arrayBuffer();
        }
        const home = await fetch(`${server.url}/`, { headers: { "accept-encoding": "br" } });
        homeStates.push(home.headers.get("x-page-cache") ?? "none");
        await home.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, options.interval * 1000 - (performance.now() - tick))));
      }
      const result = await load;
      clearInterval(sampling);
      const appRssPeak = appRss?.stop() ?? rssPeak;
      // Late (past the 10 s wait, under load) or lost: once the load is over, does every page hold every update?
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const { count: lost, fetches, reloads } = await pages.lost(postedIds);
      pages.close();
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
          /** GET /api/news/:id/updates the open pages made, per update posted (0 when the events carry the updates). */
          pageFetchesPerUpdate: posts.length ? fetches / posts.length : 0,
          /** Data reloads of the open pages per goal (a score change that also changes the cards: newsUpdated). */
          goals,
          pageReloadsPerGoal: goals ? reloads / goals : 0,
          p50Ms: percentile(deliveries, 50),
          p99Ms: percentile(deliveries, 99),
          maxMs: deliveries.reduce((max, each) => Math.max(max, each), 0),
        },
        homeAfterUpdates: { hit: homeStates.filter((state) => state === "hit").length, other: homeStates.filter((state) => state !== "hit").length },
        serverErrors,
        streams: {
          admitted: opened.admitted,
          refused: opened.refused,
          rssBeforeMb: rssBefore / 2 ** 20,
          rssOpenMb: rssOpen / 2 ** 20,
          rssPeakMb: rssPeak / 2 ** 20,
          /** Who held them: the app, or nginx's worker (then the app's own peak beside it). */
          holder: nginx ? "nginx+nchan" : "app",
          appRssPeakMb: appRssPeak / 2 ** 20,
          perStreamKb: opened.admitted ? (rssOpen - rssBefore) / 1024 / opened.admitted : 0,
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
        `entrega a ${options.streams} páginas abertas: p50 ${summary.delivery.p50Ms.toFixed(0)} ms, p99 ${summary.delivery.p99Ms.toFixed(0)} ms, máx ${summary.delivery.maxMs.toFixed(0)} ms, ${missed} além de 10 s, ${lost} nunca entregues; ${summary.delivery.pageFetchesPerUpdate.toFixed(0)} pedidos das páginas por atualização; ${summary.delivery.pageReloadsPerGoal.toFixed(0)} recargas das páginas por gol (${goals} gols)`,
      );
      console.log(
        `fluxos: ${summary.streams.admitted} abertos, ${summary.streams.refused} recusados; RSS ${summary.streams.rssBeforeMb.toFixed(0)} MB antes, ${summary.streams.rssOpenMb.toFixed(0)} MB com eles (${summary.streams.perStreamKb.toFixed(1)} KB por fluxo), pico ${summary.streams.rssPeakMb.toFixed(0)} MB, em ${summary.streams.holder}${nginx ? `; pico do app ${summary.streams.appRssPeakMb.toFixed(0)} MB` : ""}`,
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
      await nginx?.stop();
      await varnish?.stop();
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
