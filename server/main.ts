/**
 * The server process, started by server.js (`npm start`: the production build; `npm run dev`: Vite in middleware
 * mode). Runs on Node 24 directly (type stripping), so only erasable TypeScript syntax here.
 */
import { execFileSync } from "node:child_process";
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import zlib from "node:zlib";
import compression from "compression";
import expressStaticGzip from "express-static-gzip";
import express from "express";
import { t, terminal } from "#app/i18n/pt-BR.ts";
// Type only (erased when Node strips the types): the module itself is loaded below, from the build or through Vite.
import type { BootOptions } from "#app/.server/app.server.ts";
import type { RunningApp } from "./app.ts";
import { type PrimaryApp, runPrimary } from "./cluster-primary.ts";
import { NO_STORE, REVALIDATE_CACHE } from "#app/lib/cache-headers.ts";
import { SERVICE_WORKER_PATH } from "#app/lib/offline-copies.ts";

// Between two full garbage collections V8 lets the old generation grow to up to 4× what survived the last one: under
// load that is 100+ MB of dead per-request objects kept resident (35 MB live after a collection, 112 MB used before
// it, RSS 280–300 MB on the uncached home). Grown by 1.5× instead, the bench's peak RSS is 185–195 MB for the same
// throughput (3 interleaved runs each, issue 25). Set here so every way of starting the server (npm start, systemd,
// workers, tests) gets it.
v8.setFlagsFromString("--heap-growing-percent=50");

// The project folder (this file is in server/).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");
process.env.NODE_ENV ??= dev ? "development" : "production";
// `npm run demo`: the production build on this computer, to try the site. Plain http on localhost is on purpose,
// and a demo admin is created (its random password printed once) while there is none.
if (process.argv.includes("--demo")) {
  process.env.SITE_URL ||= `http://localhost:${process.env.PORT || 3000}`;
  process.env.ALLOW_INSECURE_HTTP ||= "1";
  process.env.DEMO_ADMIN ||= "1";
}

/** What the production build's server entry (server/app.ts) gives this process. */
interface ServerModule {
  createApp(options?: BootOptions & { clientDir?: string }): Promise<RunningApp>;
  primaryOf(): Promise<PrimaryApp | { workers: 1 }>;
}

/** The production build's server entry, built first when missing. */
async function loadBuild(): Promise<ServerModule> {
  const serverEntry = path.join(root, "build/server/index.js");
  if (!existsSync(serverEntry)) {
    console.log(terminal.server.buildMissing);
    execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      cwd: root,
      stdio: "inherit",
    });
  }
  return (await import(serverEntry)) as ServerModule;
}

/**
 * How this process serves: alone, or as worker N of several (WORKERS > 1; the primary prepared the installation,
 * and only worker 1 runs the background tasks).
 */
function bootOptions(): BootOptions {
  if (!cluster.isWorker) return {};
  const worker = Number(process.env.EEF_WORKER_ID);
  return { prepared: true, backgroundTasks: worker === 1, worker };
}

async function loadApp(outer: express.Express): Promise<RunningApp> {
  if (dev) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ server: { middlewareMode: true }, root });
    outer.use(viteServer.middlewares);
    const mod = (await viteServer.ssrLoadModule("./server/app.ts")) as { createApp(): Promise<RunningApp> };
    return mod.createApp();
  }
  const mod = await loadBuild();
  // Hashed assets never change: cache them for a year. Other public files for an hour. The build wrote each script
  // and style compressed beside it (vite.config.ts): brotli, else gzip, else the file compressed on the fly.
  outer.use(
    "/assets",
    expressStaticGzip(path.join(root, "build/client/assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gz"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y" },
    }),
  );
  // A missing asset is a plain 404, never a rendered page (an old tab asking for last week's script, or a flood of
  // made-up names, costs nothing).
  outer.use("/assets", (_req, res) => {
    res.status(404).set("Cache-Control", NO_STORE).type("text/plain; charset=utf-8").send(t.errors.assetNotFound);
  });
  // Public files all have an extension: pages ("/", "/news-list", "/article/…") go on without a stat of the disk.
  // The service worker is asked again by browsers at every navigation (at most once a day from their HTTP cache):
  // no-cache so that a deploy's new worker is seen at once, also through a CDN.
  const serviceWorker = path.join(root, "build/client", SERVICE_WORKER_PATH);
  const publicFiles = express.static(path.join(root, "build/client"), {
    maxAge: "1h",
    index: false,
    redirect: false,
    setHeaders: (res, file) => {
      if (file === serviceWorker) res.setHeader("Cache-Control", REVALIDATE_CACHE);
    },
  });
  outer.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  return mod.createApp({ ...bootOptions(), clientDir: path.join(root, "build/client") });
}

/**
 * A configuration error, or a dependency that cannot be reached at start (a DATABASE_URL that points nowhere,
 * PostgreSQL down, an S3 endpoint that does not answer), is the operator's to fix: its one line, without a stack trace.
 */
function exitOnConfigError(error: unknown): never {
  if (error instanceof Error && (error.name === "ConfigError" || error.name === "DependencyError")) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/**
 * Answers compressed on the fly (rendered pages with PAGE_CACHE=0 or for signed-in admins, API answers, static files)
 * use gzip when the client takes it: a brotli stream costs ~3 ms of main thread per page against ~1 ms for gzip 6, for
 * the same size on our pages (home: 6.6 kB either way). Only the request's Accept-Encoding as `compression` reads it
 * changes; the page cache, which answers before Express, still sends its brotli copies.
 */
function gzipForRenderedAnswers(req: express.Request, _res: express.Response, next: express.NextFunction) {
  // Hashed assets are sent as the build compressed them (brotli first).
  if (req.path.startsWith("/assets/")) return next();
  const accept = req.headers["accept-encoding"];
  if (accept?.includes("br") && /\bgzip\b/.test(accept)) {
    req.headers["accept-encoding"] = accept
      .split(",")
      .filter((part) => part.split(";")[0]!.trim() !== "br")
      .join(",");
  }
  next();
}

/**
 * React Router writes a document chunk by chunk and calls `res.flush()` after each one, which makes the compressor
 * close a block per chunk: on a rendered page that cost more CPU than rendering it. Flushes asked for in the same
 * turn of the event loop become one, after the chunks that are ready: a page rendered at once is compressed as one
 * piece, and anything that really arrives later (a streamed part) still goes out as soon as it is written.
 */
function coalesceFlushes(_req: express.Request, res: express.Response, next: express.NextFunction) {
  const flush = (res as { flush?: () => void }).flush;
  if (typeof flush === "function") {
    let pending = false;
    (res as { flush?: () => void }).flush = () => {
      if (pending) return;
      pending = true;
      setImmediate(() => {
        pending = false;
        if (!res.writableEnded) flush.call(res);
      });
    };
  }
  next();
}

async function main() {
  // WORKERS > 1 (production only): this process prepares the installation, then starts and watches the workers.
  if (!dev && cluster.isPrimary) {
    const primary = await (await loadBuild()).primaryOf().catch(exitOnConfigError);
    if (primary.workers > 1) return runPrimary(primary as PrimaryApp);
  }
  const outer = express();
  outer.disable("x-powered-by");
  // Security headers on every answer, static files included (set once the app, which knows SITE_URL, is loaded).
  let securityHeaders: express.RequestHandler | null = null;
  outer.use((req, res, next) => (securityHeaders ? securityHeaders(req, res, next) : next()));
  outer.use(gzipForRenderedAnswers);
  // What is compressed here is compressed on the fly (the page cache keeps its own brotli copies); brotli only for a
  // client that takes nothing else, at quality 4 with a 256 KiB window instead of 4 MiB. Server-Sent Events must
  // reach the browser as they are written.
  const compressor = (level: number) =>
    compression({
      filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
      level,
    });
  // Hashed assets (kept a year by browsers and CDNs) at gzip 6; rendered answers at gzip 3: a tenth of gzip 6's time
  // on a page (0.09 against 0.95 ms on the home's 41 kB) for 8 % more bytes (9.7 against 8.9 kB).
  const compressAsset = compressor(6);
  const compressRendered = compressor(3);
  outer.use((req, res, next) => (req.path.startsWith("/assets/") ? compressAsset : compressRendered)(req, res, next));
  outer.use(coalesceFlushes);
  const running = await loadApp(outer).catch(exitOnConfigError);
  securityHeaders = running.securityHeaders;
  outer.use(running.app);
  const { config, log } = running.services;
  const { pageCache } = running;
  const server = http.createServer((req, res) => {
    // First, for every request: a body that is slow, or one too many from its address, is dealt with here, whether
    // or not anything ever reads it (an early 401/403/413/429 leaves it arriving).
    if (running.watchBody(req, res)) return;
    // An open page's event stream, held here on the bare response (server/event-streams.ts).
    if ((req.method === "GET" || req.method === "HEAD") && (req.url === "/events" || req.url?.startsWith("/events?"))) {
      running.openEventStream(req, res);
      return;
    }
    // What the page cache does not answer is rendered, unless the process is overloaded (503 + Retry-After at once).
    const render = () => running.shedder.middleware(req, res, () => outer(req, res));
    if (pageCache?.handle(req, res, render)) return;
    render();
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    log.info({ port, host: config.host, mode: dev ? "development" : "production" }, `Esporte em Foco em http://localhost:${port}`);
  });
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Stop accepting, end the live-update streams, let in-flight requests and uploads finish, then close pools.
    server.close(async () => {
      await running.shutdown();
      process.exit(0);
    });
    server.closeIdleConnections();
    // Requests still running (an upload) leave keep-alive connections that only become idle once they answer, and
    // browsers keep those open for minutes: close each as soon as it is idle, or server.close() waits for the 10 s
    // forced exit (code 1).
    setInterval(() => server.closeIdleConnections(), 100).unref();
    // The streams the bus ends leave keep-alive sockets that only become idle afterwards: close those too, or
    // server.close() waits for the 10 s forced exit (code 1) whenever a browser tab is open.
    void running.services.events.close().then(() => setImmediate(() => server.closeIdleConnections()));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

await main();
