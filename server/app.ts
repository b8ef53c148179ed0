import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { pinoHttp } from "pino-http";
import proxyAddr from "proxy-addr";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import { createRequestHandler as createFetchRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { clientIpContext, cspNonceContext, documentPolicyContext } from "#app/lib/request-context.ts";
import { bodyLimit } from "./body-limit.ts";
import { streamCap } from "./event-streams.ts";
import { createNchanPublisher } from "./nchan-publisher.ts";
import { createSiteEventStreams } from "./site-event-streams.ts";
import { EVENT_STREAMS_PER_ADDRESS } from "#app/lib/limits.ts";
import { originGuard } from "./origin-guard.ts";
import {
  contentSecurityPolicy,
  cspNonceMiddleware,
  inlineScriptHashes,
  partnerConsented,
  policyOptionsFromConfig,
  securityHeaders,
  securityHeadersMiddleware,
} from "./security-headers.ts";
import { createPageCache, type PageCache } from "./page-cache.ts";
import { requestIdOf } from "./request-id.ts";
import { bodyTimeouts, createSlowBodyWatch } from "./slow-body.ts";
import { createRouteTable, type RouteTable, routeTreeOfServerBuild } from "./route-table.ts";
import { resolveAuthSecret } from "#app/.server/auth/secret.server.ts";
import { createLoadShedder, type LoadShedder } from "./load-shedding.ts";
import { createSessionCookieCheck } from "#app/.server/auth/session-cookie-signature.server.ts";
import { type AppServices, type BootOptions, bootApp, prepareInstallation, shutdownApp } from "#app/.server/app.server.ts";

import { createCdnPurger } from "#app/.server/cdn/cdn-purge.server.ts";
import { loadDotEnv, parseConfig } from "#app/.server/config/env.server.ts";
import { accessLogger, type Logger } from "#app/.server/logger.server.ts";
import { isPeerEventMessage } from "#app/.server/events/peers.server.ts";
import type { PrimaryApp } from "./cluster-primary.ts";
import { surrogateKeys } from "#app/.server/cdn/surrogate-keys.ts";
import { routeTableContext, servicesContext, stylesheetsContext } from "#app/.server/context.server.ts";
import { createStylesheetInliner, type StylesheetInliner } from "#app/.server/http/inline-stylesheets.server.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

export interface RunningApp {
  app: express.Express;
  services: AppServices;
  /** Answers public pages for readers without a session from memory (null with PAGE_CACHE=0). */
  pageCache: PageCache | null;
  /** Refuses reader requests past the load bound (server/load-shedding.ts); the outer server calls it before rendering. */
  shedder: LoadShedder;
  /** Sets the security headers; the outer server runs it first, for static files too. */
  securityHeaders: express.RequestHandler;
  /**
   * Watches the request's body (server/slow-body.ts); the outer server calls it first on every request. True when
   * it answered the request itself (too many bodies in flight from that address).
   */
  watchBody(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Answers `GET /events` (server/event-streams.ts) on the bare request: the outer server calls it before the page
   * cache and Express, so an open page costs its socket and little else.
   */
  openEventStream(req: IncomingMessage, res: ServerResponse): void;
  shutdown(): Promise<void>;
}

/**
 * The application as an Express handler: boots the services (config, migrations, demo content), then serves
 * every request through React Router. Static files and compression are the outer server's job (server/main.ts).
 */
export async function createApp(options: BootOptions & { clientDir?: string } = {}): Promise<RunningApp> {
  const services = await bootApp(options);
  // The production build's stylesheets, written into every rendered page's head (decision record 014).
  const stylesheets = options.clientDir ? createStylesheetInliner(options.clientDir) : null;
  const accessLog = accessLogger(services.log);
  const policy = policyOptionsFromConfig(services.config, services.store);
  const app = express();
  app.disable("x-powered-by");
  // Proxy headers (X-Forwarded-For, -Proto) are believed only when TRUST_PROXY says a proxy is in front: otherwise
  // anyone could pick the address the rate limits count.
  app.set("trust proxy", services.config.trustProxy);
  // Every request body is watched (slow bodies cut, bodies in flight per address capped), with the client address
  // the rate limits use. The outer server calls it before the page cache; here it covers requests that came another way.
  const trusted = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const bodies = createSlowBodyWatch({ timeouts: bodyTimeouts(services.config.bodyTimeoutMs), addressOf: (req) => proxyAddr(req, trusted) });
  app.use((req, res, next) => {
    if (!bodies.watch(req, res)) next();
  });
  // Past LOAD_SHED_LIMIT reader renders in flight on a saturated process: 503 + Retry-After at once (server/load-shedding.ts),
  // called by the outer server before anything else runs for a request the page cache does not answer (a refusal must
  // cost next to nothing). Refusals are not in the access log (they come by the hundred): one warning per 10 s.
  const hasSession = createSessionCookieCheck(resolveAuthSecret(services.config));
  const eventStreams = createSiteEventStreams(services, {
    hasSession,
    limits: { perAddress: EVENT_STREAMS_PER_ADDRESS, total: streamCap(services.config.eventStreamsMax) },
    headers: securityHeaders(policy),
  });
  services.events.onClose(() => eventStreams.close());
  let refusedSinceWarning = 0;
  let lastWarning = 0;
  const shedder = createLoadShedder({
    limit: services.config.loadShedLimit,
    concurrency: services.config.renderConcurrency,
    hasSession,
    onShed(_req, inFlight) {
      refusedSinceWarning++;
      const now = Date.now();
      if (now - lastWarning >= 10_000) {
        services.log.warn(
          { refused: refusedSinceWarning, inFlight, limit: services.config.loadShedLimit },
          "overloaded: refusing reader requests with 503",
        );
        refusedSinceWarning = 0;
        lastWarning = now;
      }
    },
  });
  app.use(
    pinoHttp({
      logger: accessLog,
      genReqId: (req, res) => {
        const id = requestIdOf(req);
        res.setHeader("x-request-id", id);
        // Loaders and actions read it from the request, to quote it in error messages and log lines.
        req.headers["x-request-id"] = id;
        return id;
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
    }),
  );
  app.use(refuseUnknownMethods);
  // The open pages' event stream, held on the bare response (server/event-streams.ts); the outer server answers it
  // before anything else (openEventStream), this is for requests that came another way.
  app.get("/events", (req, res) => eventStreams.handle(req, res, req.ip ?? "unknown"));
  // A nonce per response for the inline scripts of the pages React Router renders (Content-Security-Policy).
  app.use(cspNonceMiddleware(policy));
  // A store whose objects are files here (local disk) serves them before React Router; the others go through the route.
  const mediaFiles = services.store.staticFiles?.();
  if (mediaFiles) app.use(mediaFiles.path, mediaFiles.handler);
  app.use(originGuard([services.config.site.url]));
  const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  const build = await loadBuild();
  // What each route declares (its module's `handle`): which take uploads here, which are cached pages below.
  const routes = createRouteTable(routeTreeOfServerBuild(build.routes));
  app.use(bodyLimit(routes.takesUploads));
  // What a CDN in front may purge each answer by (only public answers are stored there).
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") res.setHeader("Surrogate-Key", surrogateKeys(req.path));
    next();
  });
  app.use(
    createRequestHandler({
      // Given a function, React Router rebuilds its route tables and static handler on every request (what lets
      // development pick up edits); the production build never changes, so it gets the build itself.
      build: services.config.env === "development" ? loadBuild : build,
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(servicesContext, services);
        context.set(routeTableContext, routes);
        context.set(clientIpContext, req.ip ?? req.socket.remoteAddress ?? "unknown");
        context.set(cspNonceContext, (res.locals.cspNonce as string | undefined) ?? null);
        // A page a shared cache in front may store is sent with its scripts' hashes instead (entry.server.tsx).
        const partner = partnerConsented(policy, req.headers.cookie);
        context.set(documentPolicyContext, (html) => contentSecurityPolicy(policy, inlineScriptHashes(html).join(" "), partner));
        context.set(stylesheetsContext, stylesheets);
        return context;
      },
    }),
  );
  const pageCache = services.config.pageCache
    ? createAppPageCache(services, hasSession, build, routes, services.config.pageCache, policy, stylesheets, accessLog)
    : null;
  // The readers' streams held by nginx + nchan (LIVE_FANOUT=nchan): each event this instance makes goes there too.
  if (services.config.liveFanout.kind === "nchan") {
    const fanout = createNchanPublisher({ publishUrl: services.config.liveFanout.publishUrl, log: services.log });
    const stop = services.events.subscribe(fanout.onEvent);
    services.events.onClose(stop);
  }
  // After the page cache's own subscriber: the CDN's refetch finds this instance's pages already changed.
  if (services.config.cdn) {
    const purger = createCdnPurger(services.config.cdn, { siteUrl: services.config.site.url, log: services.log });
    services.events.subscribe(purger.onEvent);
  }
  return {
    app,
    services,
    pageCache,
    shedder,
    securityHeaders: securityHeadersMiddleware(policy),
    watchBody: bodies.watch,
    openEventStream: (req, res) => eventStreams.handle(req, res, proxyAddr(req, trusted)),
    shutdown: shutdownApp,
  };
}

/**
 * The page cache on this app: pages are rendered by React Router's own request handler for an anonymous request
 * (no cookie, no client address, no nonce; the services on its context like every request's). On every event, here
 * and, through the event bus, on every other instance, the pages at the event's `paths` (a changed story's
 * addresses) are removed and every other page goes stale (decision record 003). A session cookie counts only when
 * its signature is this site's (checked in memory). A stored page is shared by every reader, so it cannot carry a
 * per-response nonce: its Content-Security-Policy lists the hashes of its inline scripts instead, computed once
 * when the page is stored (decision record 004).
 */
function createAppPageCache(
  services: AppServices,
  hasSession: (cookieHeader: string | undefined) => boolean,
  build: ServerBuild,
  routes: RouteTable,
  settings: { maxBytes: number; ttlMs: number },
  policy: ReturnType<typeof policyOptionsFromConfig>,
  stylesheets: StylesheetInliner | null,
  accessLog: Logger,
): PageCache {
  const handler = createFetchRequestHandler(build, services.config.env === "development" ? "development" : "production");
  const origin = new URL(services.config.site.url).origin;
  const cache = createPageCache({
    ...settings,
    routes,
    hasSession,
    log: services.log,
    headers: securityHeaders(policy),
    documentPolicy: (html, partner) => contentSecurityPolicy(policy, inlineScriptHashes(html).join(" "), partner),
    ...(policy.adPartner ? { partnerConsented: (req: IncomingMessage) => partnerConsented(policy, req.headers.cookie) } : {}),
    requestId: requestIdOf,
    ...(services.events.currentAsOf ? { eventsCurrentAsOf: services.events.currentAsOf } : {}),
    // The access log of the requests the cache answers, in the same shape as the rest (pino-http's).
    onServed({ id, method, url, status, state, ms }) {
      accessLog.info({ req: { id, method, url: redactUrl(url) }, res: { status }, cache: state, responseTime: ms }, "request completed");
    },
    async render(url) {
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      context.set(stylesheetsContext, stylesheets);
      const response = await handler(new Request(origin + url, { headers: { "User-Agent": "esporte-em-foco page cache" } }), context);
      const headers = new Headers(response.headers);
      headers.set("Surrogate-Key", surrogateKeys(new URL(url, origin).pathname));
      return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
    },
  });
  // `resync` (events may have been missed) and `sponsorsUpdated` (every page's footer) carry no paths: every page goes stale.
  // `liveUpdated` (a live story's update) changes that story's pages only: the rest of the cache stays current.
  // A story's change (retitled, taken down, deleted) also drops its live updates' JSON at once.
  // A change only the newsroom sees (an unpublished story's) leaves every stored page as it is.
  services.events.subscribe((event, detail) => {
    if (detail?.newsroomOnly) return;
    if (event === "liveUpdated") cache.refresh(detail?.paths ?? []);
    else cache.invalidate(withLiveUpdatesPaths(detail?.paths ?? []), detail?.since);
  });
  return cache;
}

/** The paths of a story's change plus, for each story (`/article/{id}`), its live updates' JSON. */
export function withLiveUpdatesPaths(paths: readonly string[]): string[] {
  const extra = paths.flatMap((path) => {
    const story = /^\/article\/([^/]+)$/.exec(path);
    // The id as the story's path spells it (escapes and all): href() would escape its escapes again.
    return story ? [`/api/news/${story[1]}/updates`] : [];
  });
  return extra.length ? [...paths, ...extra] : [...paths];
}

/** Query parameters that carry secrets (password-reset tokens, OAuth codes and state): never written to the log. */
const SECRET_PARAMS = new Set(["token", "code", "state", "id_token", "access_token"]);

/** The request URL as logged: secret query values replaced by "[oculto]". */
export function redactUrl(url: string): string {
  const query = url.indexOf("?");
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) {
      params.set(key, "[oculto]");
      changed = true;
    }
  }
  return changed ? `${url.slice(0, query)}?${params.toString()}` : url;
}

/** The methods the site answers; anything else (TRACE, CONNECT, PROPFIND…) is a 405 with `Allow`, not an error. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function refuseUnknownMethods(req: express.Request, res: express.Response, next: express.NextFunction) {
  if (KNOWN_METHODS.has(req.method)) return next();
  res
    .status(405)
    .set({ Allow: [...KNOWN_METHODS].join(", "), "Cache-Control": NO_STORE })
    .type("text/plain; charset=utf-8")
    .send(t.api.methodNotAllowed("GET, POST, PUT, PATCH ou DELETE"));
}

/**
 * What the primary process of a server with several workers needs of the app (server/cluster-primary.ts): how many
 * workers the configuration asks for (the installation prepared first when more than one), and how to tell a worker's
 * site event. It also starts keeping the sign-in counts of all workers in its memory: rate-limiter-flexible's cluster
 * master, which answers the workers' cluster limiters (app/.server/auth/rate-limiter.server.ts) over node:cluster.
 */
export async function primaryOf(): Promise<(PrimaryApp & { workers: number }) | { workers: 1 }> {
  loadDotEnv();
  if (parseConfig().workers <= 1) return { workers: 1 };
  const { workers, log } = await prepareInstallation();
  new RateLimiterClusterMaster();
  return { workers, log, isEvent: isPeerEventMessage };
}
