/**
 * An instance cut off from the other instances' changes (issue 32): its event link (PostgreSQL LISTEN, through a TCP
 * proxy the test holds: packets stop, nothing is closed) and its database. What must hold:
 *
 * - /readyz answers within 1 s while the database's packets are held (each check has a deadline), 503 for the
 *   database at once and "behind" for the event link once it has not answered for 3 s; 200 again once the link is
 *   back (it reconnected and resynced);
 * - the page cache stops answering a page stored before the cut once the link is 3 s behind, so a story taken down
 *   on another instance meanwhile is not served from here past the bound; what it answers meanwhile carries
 *   `no-store` (a cache in front keeps nothing), and a render that does not come back is a 503 after 2 s; after the
 *   link is back, a page stored before the cut is not let out as a stale copy while its re-render runs;
 * - an API call while the database is unreachable is a 503 with Retry-After (PostgreSQL refused; SQLite busy), not
 *   a 500.
 *
 * The event link is PostgreSQL's: SQLite instances share one file and read its `data_version` each second, with no
 * link to lose, so those cases run on PostgreSQL only; the page cache's rule with a clock the test moves and the
 * SQLite busy answer run in both passes.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { DatabaseSync } from "node:sqlite";
import path from "node:path";
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { createPostgresEventBus } from "#app/.server/events/postgres-event-bus.server.ts";
import { toApiError } from "#app/.server/http/api.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { loader as newsItemLoader } from "#app/routes/api/news-item.ts";
import { loader as readyzLoader } from "#app/routes/resources/readyz.ts";
import { createPageCache, type RenderedPage } from "#server/page-cache.ts";
import type { RouteTable } from "#server/route-table.ts";
import { routeContextOf } from "#tests/factories/route-context.ts";
import { siteRouteTable } from "#tests/factories/route-table.ts";
import { createPostgresDatabase, createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { startTcpProxy } from "#tests/factories/tcp-proxy.ts";

const BOUND_MS = 3_000;
const silent = createLogger({ logLevel: "silent" });

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

let routes: RouteTable;
beforeAll(async () => {
  routes = await siteRouteTable();
});

async function readyz(services: AppServices): Promise<{ status: number; ms: number; body: { status: string; checks: Record<string, string> } }> {
  const url = "http://127.0.0.1/readyz";
  const started = performance.now();
  const response = await readyzLoader({
    request: new Request(url),
    context: routeContextOf(services),
    params: {},
    url: new URL(url),
    pattern: "/readyz",
  } as Parameters<typeof readyzLoader>[0]);
  return { status: response.status, ms: performance.now() - started, body: await response.json() };
}

/** Polls `probe` every 50 ms until `done` holds or `timeoutMs` passes; returns the last value and when it held. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<{ value: T; at: number }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return { value, at: performance.now() };
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A fresh PostgreSQL database and a proxy to its server that the test can hold or cut. */
async function databaseBehindProxy() {
  const database = await createPostgresDatabase();
  cleanup.push(() => database.drop());
  const direct = new URL(database.url);
  const proxy = await startTcpProxy(Number(direct.port || 5432));
  cleanup.push(() => proxy.close());
  const proxied = new URL(database.url);
  proxied.port = String(proxy.port);
  return { directUrl: database.url, proxiedUrl: proxied.href, proxy };
}

describe.skipIf(TEST_DATABASE !== "postgres")("an instance whose link to PostgreSQL is held (packets stop, nothing closes)", () => {
  it("/readyz answers within 1 s; 503 for the database at once, the event link 'behind' after 3 s; 200 again once it is back", async () => {
    const { proxiedUrl, proxy } = await databaseBehindProxy();
    const services = await createTestServices(makeDataDir("eef-event-link-"), { DATABASE_URL: proxiedUrl });
    cleanup.push(async () => {
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    });
    const bus = services.events as typeof services.events & { listening(): Promise<void> };
    bus.subscribe(() => undefined);
    await bus.listening();
    // Every 500 ms a round trip on the listening connection moves `currentAsOf` on.
    await until(
      async () => Date.now() - bus.currentAsOf!(),
      (behind) => behind < 1_000,
      5_000,
      "a round trip on the event link",
    );
    const ready = await readyz(services);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ok", checks: { database: "ok", events: "ok", media: "ok" } });

    proxy.hold();
    const heldAt = performance.now();
    const first = await readyz(services);
    expect(first.ms, "the answer must not wait for the held database").toBeLessThan(1_000);
    expect(first.status).toBe(503);
    expect(first.body.checks.database).toBe("timed out");

    const behind = await until(
      () => readyz(services),
      ({ body }) => body.checks.events === "behind",
      8_000,
      "events: behind",
    );
    expect(behind.value.status).toBe(503);
    expect(behind.value.ms).toBeLessThan(1_000);
    const toBehind = behind.at - heldAt;
    // Not before the bound (the last round trip was sent about 0.5 s before the hold at most), not long after it.
    expect(toBehind).toBeGreaterThan(BOUND_MS - 1_000);
    expect(toBehind).toBeLessThan(BOUND_MS + 1_000);

    proxy.release();
    const releasedAt = performance.now();
    const back = await until(
      () => readyz(services),
      ({ status }) => status === 200,
      15_000,
      "/readyz 200 after the release",
    );
    expect(back.value.body.checks).toMatchObject({ database: "ok", events: "ok" });
    console.info(
      `event link held: /readyz 503 'behind' after ${Math.round(toBehind)} ms; 200 again ${Math.round(back.at - releasedAt)} ms after the release`,
    );
  }, 40_000);

  it("the page cache stops answering a page stored before the cut once the link is 3 s behind, with no-store; after the resync no old stale copy", async () => {
    const { directUrl, proxiedUrl, proxy } = await databaseBehindProxy();
    const channel = `eef_link_${randomBytes(4).toString("hex")}`;
    const direct = openDatabase({ database: { kind: "postgres", url: directUrl, poolSize: 2 } });
    cleanup.push(() => direct.close());
    // This instance hears the others through the held proxy; the other instance publishes directly.
    const bus = createPostgresEventBus({ url: proxiedUrl, db: direct.db, log: silent, channel });
    cleanup.push(() => bus.close());
    const other = createPostgresEventBus({ url: directUrl, db: direct.db, log: silent, channel });
    cleanup.push(() => other.close());

    let deleted = false;
    /** Renders held as a database whose packets are held holds them (let go at the end). */
    const held: Array<() => void> = [];
    let holdRenders = false;
    cleanup.push(() => {
      for (const resume of held.splice(0)) resume();
    });
    const render = async (url: string): Promise<RenderedPage> => {
      if (holdRenders) await new Promise<void>((resolve) => held.push(resolve));
      return {
        status: url.startsWith("/article/abc") && deleted ? 404 : 200,
        headers: new Headers({ "Content-Type": "text/html", "Cache-Control": "public, max-age=0, s-maxage=30" }),
        body: Buffer.from(`<html><body>${url} ${deleted ? "depois" : "antes"}</body></html>`),
      };
    };
    const cache = createPageCache({
      routes,
      render,
      maxBytes: 10 * 1024 * 1024,
      ttlMs: 300_000,
      // No re-render ahead of readers: what a reader gets after the resync is the cache's own choice.
      warm: { pages: 0, concurrency: 1 },
      log: { warn() {}, error() {} },
      eventsCurrentAsOf: bus.currentAsOf,
    });
    bus.subscribe((_event, detail) => cache.invalidate(detail.paths ?? [], detail.since));
    const server = http.createServer((req, res) => {
      if (!cache.handle(req, res, () => res.writeHead(500).end("fallback"))) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (pathname: string) => {
      const response = await fetch(base + pathname);
      return {
        status: response.status,
        cache: response.headers.get("x-page-cache"),
        cacheControl: response.headers.get("cache-control"),
        retryAfter: response.headers.get("retry-after"),
        body: await response.text(),
      };
    };

    await bus.listening();
    await until(
      async () => Date.now() - bus.currentAsOf!(),
      (behind) => behind < 1_000,
      5_000,
      "a round trip on the event link",
    );
    await get("/article/abc");
    await get("/");
    expect(await get("/article/abc")).toMatchObject({ status: 200, cache: "hit", cacheControl: "public, max-age=0, s-maxage=30" });

    proxy.hold();
    const heldAt = performance.now();
    // Taken down on another instance: its notification does not reach this one.
    deleted = true;
    await other.publish("newsUpdated", { paths: ["/article/abc"] });
    const answers: Array<{ status: number; cache: string | null; cacheControl: string | null }> = [];
    const gone = await until(
      async () => {
        const answer = await get("/article/abc");
        answers.push(answer);
        return answer;
      },
      ({ status }) => status === 404,
      8_000,
      "the taken-down story to stop being served",
    );
    const toBypass = gone.at - heldAt;
    // Served from memory until the bound, never after it.
    expect(answers.slice(0, -1).every((answer) => answer.status === 200 && answer.cache === "hit")).toBe(true);
    // From half the bound on (a round trip overdue), even those may not be kept by a cache in front.
    expect(answers.at(-2)?.cacheControl).toBe("no-store");
    expect(toBypass).toBeGreaterThan(BOUND_MS - 1_000);
    expect(toBypass).toBeLessThan(BOUND_MS + 500);
    expect(gone.value.cacheControl).toBe("no-store");
    // A page rendered during the cut is answered from memory (it is new), but no cache in front may keep it.
    await get("/news-list");
    expect(await get("/news-list")).toMatchObject({ status: 200, cache: "hit", cacheControl: "no-store" });
    expect(cache.stats().behindSkips).toBeGreaterThan(0);
    // A render that does not come back (the database's packets held too): the reader gets a 503 within 2 s, kept
    // by no cache, instead of waiting with it.
    holdRenders = true;
    const asked = performance.now();
    const unavailable = await get("/userLicence");
    const waited = performance.now() - asked;
    expect(unavailable).toMatchObject({ status: 503, retryAfter: "5", cacheControl: "no-store" });
    expect(unavailable.body).toContain(t.errors.genericTitle);
    expect(waited).toBeGreaterThan(1_900);
    expect(waited).toBeLessThan(3_000);
    holdRenders = false;
    for (const resume of held.splice(0)) resume();

    // A cut clearly longer than the bound: what was stored before it is over 4 s old when the link comes back.
    await until(
      async () => Date.now() - bus.currentAsOf!(),
      (behind) => behind > BOUND_MS + 1_000,
      8_000,
      "4 s without the event link",
    );
    proxy.release();
    const releasedAt = performance.now();
    await until(
      async () => Date.now() - bus.currentAsOf!(),
      (behind) => behind < 1_000,
      15_000,
      "the event link back",
    );
    const recovered = performance.now() - releasedAt;
    // The home stored before the cut: after the resync it is not let out as a stale copy (it may be far older than
    // the bound), the reader waits for its re-render.
    const home = await get("/");
    expect(home.cache).toBe("miss");
    expect(home.body).toContain("depois");
    expect(home.cacheControl).toBe("public, max-age=0, s-maxage=30");
    console.info(
      `event link held: a page stored before the cut stopped being served ${Math.round(toBypass)} ms after the hold; link current again ${Math.round(recovered)} ms after the release`,
    );
  }, 40_000);

  it("an API call while PostgreSQL refuses connections: 503 with Retry-After and a pt-BR message, not a 500", async () => {
    const { proxiedUrl, proxy } = await databaseBehindProxy();
    const services = await createTestServices(makeDataDir("eef-api-down-"), { DATABASE_URL: proxiedUrl });
    cleanup.push(async () => {
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    });
    await proxy.cut();
    const url = "http://127.0.0.1/api/news/nao-existe";
    const response = await newsItemLoader({
      request: new Request(url),
      context: routeContextOf(services),
      params: { id: "nao-existe" },
      url: new URL(url),
      pattern: "/api/news/:id",
    } as Parameters<typeof newsItemLoader>[0]);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: { code: "database_unavailable", message: t.errors.databaseUnavailable } });
  }, 20_000);
});

describe("the page cache's rule with a clock the test moves (any database: the rule itself)", () => {
  it("public while current, no-store from 1.5 s behind, re-rendered from 3 s behind; after the resync only pages rendered within 3 s go out stale", async () => {
    let clock = 10_000;
    let asOf = 10_000;
    let version = "antes";
    const cache = createPageCache({
      routes,
      render: async (url) => ({
        status: 200,
        headers: new Headers({ "Content-Type": "text/html", "Cache-Control": "public, max-age=0, s-maxage=30" }),
        body: Buffer.from(`<html><body>${url} ${version}</body></html>`),
      }),
      maxBytes: 10 * 1024 * 1024,
      ttlMs: 300_000,
      warm: { pages: 0, concurrency: 1 },
      log: { warn() {}, error() {} },
      now: () => clock,
      eventsCurrentAsOf: () => asOf,
    });
    const server = http.createServer((req, res) => {
      if (!cache.handle(req, res, () => res.writeHead(500).end("fallback"))) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (pathname: string) => {
      const response = await fetch(base + pathname);
      return { cache: response.headers.get("x-page-cache"), cacheControl: response.headers.get("cache-control"), body: await response.text() };
    };

    await get("/");
    await get("/news-list");
    expect(await get("/")).toMatchObject({ cache: "hit", cacheControl: "public, max-age=0, s-maxage=30" });
    // The link 1.6 s behind: still answered, but no cache in front may keep it.
    clock = asOf + 1_600;
    expect(await get("/")).toMatchObject({ cache: "hit", cacheControl: "no-store" });
    // 3.1 s behind: the stored page (rendered before the last round trip) is rendered again.
    version = "depois";
    clock = asOf + 3_100;
    expect(await get("/")).toMatchObject({ cache: "miss", cacheControl: "no-store", body: expect.stringContaining("depois") });
    expect(cache.stats().behindSkips).toBe(1);
    // Rendered just now: answered from memory while within the bound.
    clock += 1_000;
    expect(await get("/")).toMatchObject({ cache: "hit", cacheControl: "no-store" });
    const renderedInTheCut = clock - 1_000;

    // The link back after a 5 s gap: the resync says everything was heard up to the old `asOf`.
    clock = asOf + 5_000;
    cache.invalidate([], asOf);
    asOf = clock;
    // Stored before the cut: not let out as a stale copy, the reader waits for the new page.
    expect(await get("/news-list")).toMatchObject({ cache: "miss", cacheControl: "public, max-age=0, s-maxage=30" });
    // Rendered during the cut (known current 0.9 s ago): a stale copy as after any change.
    expect(clock - renderedInTheCut).toBeLessThan(3_000);
    expect(await get("/")).toMatchObject({ cache: "stale" });
  });
});

describe("an API call while SQLite's file is locked by another process", () => {
  it("SQLITE_BUSY becomes 503 with Retry-After, not a 500", () => {
    const dir = makeDataDir("eef-busy-");
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "site.db");
    const holder = new DatabaseSync(file);
    cleanup.push(() => holder.close());
    holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER)");
    holder.exec("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)");
    const writer = new DatabaseSync(file, { timeout: 0 });
    cleanup.push(() => writer.close());
    let busy: unknown;
    try {
      writer.exec("INSERT INTO t VALUES (2)");
    } catch (error) {
      busy = error;
    }
    expect(busy, "the second writer must be refused").toBeDefined();
    const response = toApiError(new Error("wrapped", { cause: busy }), new Request("http://127.0.0.1/api/news"), silent);
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
    holder.exec("ROLLBACK");
  });
});
