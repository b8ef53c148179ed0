import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { createHash, createHmac } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSessionCookieCheck } from "#app/.server/auth/session-cookie-signature.server.ts";
import { createPageCache, type PageCacheOptions, type RenderedPage } from "#server/page-cache.ts";
import { lookUp, pickEncoding } from "#server/page-cache-keys.ts";
import type { RouteTable } from "#server/route-table.ts";
import { inlineScriptHashes } from "#server/security-headers.ts";
import { siteRouteTable } from "#tests/factories/route-table.ts";

const quietLog = { warn() {}, error() {} };

/** A page as the app renders it: public Cache-Control, the URL in the body so each key is told apart. */
function page(url: string, init: { status?: number; headers?: Record<string, string>; body?: string } = {}): RenderedPage {
  return {
    status: init.status ?? 200,
    headers: new Headers({ "Content-Type": "text/html", "Cache-Control": "public, max-age=0, s-maxage=30", ...init.headers }),
    body: Buffer.from(init.body ?? `<html><body>${url} ${"x".repeat(2000)}</body></html>`),
  };
}

let routes: RouteTable;
beforeAll(async () => {
  routes = await siteRouteTable();
});

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A real HTTP server answering through the cache; requests the cache does not take get "fallback" (418). */
async function serve(options: Partial<PageCacheOptions> & Pick<PageCacheOptions, "render">) {
  const cache = createPageCache({ routes, maxBytes: 10 * 1024 * 1024, ttlMs: 60_000, log: quietLog, ...options });
  const server = http.createServer((req, res) => {
    if (cache.handle(req, res, () => res.writeHead(500).end("fallback"))) return;
    res.writeHead(418).end("not cached");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** Raw request (fetch would decompress): status, headers and body bytes. */
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .request(base + path, { method, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
        })
        .on("error", reject)
        .end();
    });
  return { cache, get };
}

describe("lookUp: what the cache may answer, under which key", () => {
  const request = (url: string, init: { method?: string; cookie?: string } = {}) => ({
    url,
    method: init.method ?? "GET",
    headers: init.cookie ? { cookie: init.cookie } : {},
  });
  const key = (url: string, init: { method?: string; cookie?: string } = {}) => {
    const found = lookUp(request(url, init), routes);
    return found && "key" in found ? found.key : found;
  };

  it("public pages and their .data requests, GET and HEAD only, for readers without a session", () => {
    expect(key("/")).toBe("/");
    expect(key("/_.data")).toBe("/_.data");
    expect(key("/article/abc")).toBe("/article/abc");
    expect(key("/article/abc.data?_routes=routes%2Fsite%2Farticle")).toBe("/article/abc.data?_routes=routes%2Fsite%2Farticle");
    // The readable form, /article/{id}/{slug}, and its .data request.
    expect(key("/article/abc/final-da-copa")).toBe("/article/abc/final-da-copa");
    expect(key("/article/abc/final-da-copa.data")).toBe("/article/abc/final-da-copa.data");
    expect(key("/userLicence", { method: "HEAD" })).toBe("/userLicence");
    expect(key("/autor/ana-reporter.data")).toBe("/autor/ana-reporter.data");
    expect(key("/categoria/volei/outra")).toBeNull();
    expect(key("/", { method: "POST" })).toBeNull();
    expect(key("/news-list", { cookie: "eef.session_token=abc.def" })).toBeNull();
    expect(key("/news-list", { cookie: "tema=escuro; __Secure-eef.session_token=abc" })).toBeNull();
    expect(key("/news-list", { cookie: "tema=escuro" })).toBe("/news-list");
    for (const path of ["/add-news", "/admin/login", "/api/news", "/events", "/media/x.webp", "/SponsorManager", "/article/a/b/c", "/busca?q=x"]) {
      expect(key(path), path).toBeNull();
    }
  });

  it("feeds and sitemaps are cached like pages (they have no .data)", () => {
    expect(key("/rss.xml?utm_source=feedly")).toBe("/rss.xml");
    expect(key("/rss/destaques.xml")).toBe("/rss/destaques.xml");
    expect(key("/sitemap.xml")).toBe("/sitemap.xml");
    expect(key("/sitemaps/articles-1.xml")).toBe("/sitemaps/articles-1.xml");
    expect(key("/rss.xml.data")).toBeNull();
  });

  it("keeps only the parameters the route declares, with values it takes, sorted: any other query shares one entry", () => {
    const cursor = Buffer.from("2026-11-25T10:00:00.000Z|abc").toString("base64url");
    expect(key("/news-list?utm_source=whatsapp&tab=1&fbclid=x")).toBe("/news-list?tab=1");
    expect(key(`/news-list?tab=1&cursor=${cursor}`)).toBe(key(`/news-list?cursor=${cursor}&tab=1`));
    expect(key(`/categoria/volei?cursor=${cursor}&utm_source=x`)).toBe(`/categoria/volei?cursor=${cursor}`);
    expect(key("/?utm_campaign=gol")).toBe("/");
    expect(key(`/?${Math.random()}=${Math.random()}`)).toBe("/");
    // A parameter another route reads is not this one's.
    expect(key("/?tab=1")).toBe("/");
    expect(key("/article/abc?cursor=x&previa=1")).toBe("/article/abc");
    // React Router's own: only ids of the page's routes, sorted; `index` without a value.
    expect(key("/news-list.data?_routes=routes%2Fsite%2Fnews-list%2Croot%2Cinventada")).toBe(
      "/news-list.data?_routes=root%2Croutes%2Fsite%2Fnews-list",
    );
    expect(key("/_.data?index=qualquer")).toBe("/_.data?index=");
    expect(key("/news-list.data?_routes=inventada")).toBe("/news-list.data");
  });

  it("a value the page does not take, or another spelling of the path, is a redirect to the canonical URL, never an entry", () => {
    const redirect = (url: string) => lookUp(request(url), routes);
    expect(redirect("/news-list?tab=2")).toEqual({ redirect: "/news-list" });
    expect(redirect("/news-list?tab=1&cursor=inventado&utm_source=x")).toEqual({ redirect: "/news-list?tab=1" });
    expect(redirect(`/categoria/volei?cursor=${Buffer.from("ontem|abc").toString("base64url")}`)).toEqual({ redirect: "/categoria/volei" });
    expect(redirect("/News-List")).toEqual({ redirect: "/news-list" });
    expect(redirect("/news-list/?tab=1")).toEqual({ redirect: "/news-list?tab=1" });
    expect(redirect("/article/AbC/titulo/")).toEqual({ redirect: "/article/AbC/titulo" });
    expect(redirect("//userlicence")).toEqual({ redirect: "/userLicence" });
    expect(redirect("/RSS.xml")).toEqual({ redirect: "/rss.xml" });
    // A .data request is the site's own: a variant is left to the app, not redirected or kept.
    expect(redirect("/News-List.data")).toBeNull();
    expect(redirect("/news-list.data?tab=9")).toBeNull();
  });

  it("a session cookie counts only with this site's signature (checked in memory): a forged one is no cookie", () => {
    const secret = "s".repeat(40);
    const hasSession = createSessionCookieCheck(secret);
    const token = "tokenDaSessao123";
    const signed = encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token).digest("base64")}`);
    const forgedSignature = encodeURIComponent(`${token}.${createHmac("sha256", "outro segredo".repeat(3)).update(token).digest("base64")}`);
    const look = (cookie: string) => lookUp(request("/news-list", { cookie }), routes, hasSession);
    expect(look(`eef.session_token=${signed}`)).toBeNull();
    expect(look(`tema=escuro; __Secure-eef.session_token=${signed}`)).toBeNull();
    for (const forged of [
      "eef.session_token=x",
      `eef.session_token=${forgedSignature}`,
      "eef.session_token=%E0%A4%A",
      `eef.session_token=${token}.`,
    ]) {
      expect(look(forged), forged).toEqual({ key: "/news-list", path: "/news-list" });
    }
  });
});

describe("Accept-Encoding", () => {
  it("is negotiated by q-values: a lower q still accepts, q=0 refuses (with or without spaces), brotli first among equals", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip, br;q=0.5")).toBe("gzip");
    expect(pickEncoding("br;q=0.5")).toBe("br");
    expect(pickEncoding("br; q=0, gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0.0, gzip;q=0")).toBe("identity");
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("identity")).toBe("identity");
    expect(pickEncoding(undefined)).toBe("identity");
  });
});

describe("the page cache", () => {
  it("renders once, then answers from memory in brotli, gzip or plain, with an ETag and 304", async () => {
    let renders = 0;
    const { get, cache } = await serve({
      render: async (url) => {
        renders++;
        return page(url);
      },
    });
    const first = await get("/", { "Accept-Encoding": "gzip, deflate, br" });
    expect(first.headers["x-page-cache"]).toBe("miss");
    expect(first.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(first.body).toString()).toContain("<body>/ ");
    const gzipped = await get("/", { "Accept-Encoding": "gzip" });
    expect(gzipped.headers).toMatchObject({ "x-page-cache": "hit", "content-encoding": "gzip", vary: "Accept-Encoding" });
    expect(zlib.gunzipSync(gzipped.body).toString()).toContain("<body>/ ");
    const plain = await get("/");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toContain("<body>/ ");
    expect(plain.headers["cache-control"]).toBe("public, max-age=0, s-maxage=30");
    const etag = plain.headers.etag!;
    expect(first.headers.etag).toBe(etag);
    const revalidated = await get("/", { "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    const head = await get("/", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(first.body.length);
    expect(renders).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 4, misses: 1, renders: 1, entries: 1 });
    // A request the cache does not take reaches the app.
    expect((await get("/", { Cookie: "eef.session_token=x" })).status).toBe(418);
  });

  it("a burst of misses on one page waits for a single render (coalescing)", async () => {
    let renders = 0;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const { get, cache } = await serve({
      // The render ends once every request of the burst has reached the cache (all 30 are misses while it runs).
      render: async (url) => {
        renders++;
        await finished;
        return page(url);
      },
    });
    const burst = Promise.all(Array.from({ length: 30 }, () => get("/article/a1")));
    await expect.poll(() => cache.stats().misses, { timeout: 10_000, interval: 5 }).toBe(30);
    finish();
    const answers = await burst;
    expect(answers.every((answer) => answer.status === 200 && answer.body.toString().includes("/article/a1"))).toBe(true);
    expect(renders).toBe(1);
  });

  it("after invalidate(): the first reader of a document gets the stale copy and starts one re-render; the others and .data requests wait for it", async () => {
    let version = 1;
    let renders = 0;
    const held: Array<() => void> = [];
    const release = () => {
      for (const resume of held.splice(0)) resume();
    };
    const { get, cache } = await serve({
      // No re-renders ahead of readers here: the readers start them.
      warm: { pages: 0, concurrency: 1 },
      render: async (url) => {
        renders++;
        if (renders > 2) await new Promise<void>((resolve) => held.push(resolve));
        return page(url, { body: `v${version} ${url}` });
      },
    });
    expect((await get("/news-list")).body.toString()).toBe("v1 /news-list");
    expect((await get("/news-list.data")).body.toString()).toBe("v1 /news-list.data");
    version = 2;
    cache.invalidate();
    // The document: stale, at once, while the re-render (held back here) runs.
    const stale = await get("/news-list");
    expect(stale.headers["x-page-cache"]).toBe("stale");
    expect(stale.body.toString()).toBe("v1 /news-list");
    // A CDN in front keeps a stale copy for a second at most (decision record 010).
    expect(stale.headers["cache-control"]).toBe("public, max-age=0, s-maxage=1");
    expect(stale.headers["cdn-cache-control"]).toBe("max-age=1");
    // The next reader waits for that re-render, and so does the data request (a live update reloading).
    const next = get("/news-list");
    const fresh = get("/news-list.data");
    await expect.poll(() => held.length).toBe(2);
    release();
    expect((await next).body.toString()).toBe("v2 /news-list");
    expect((await fresh).body.toString()).toBe("v2 /news-list.data");
    expect((await get("/news-list")).headers["x-page-cache"]).toBe("hit");
    // One re-render per page, however many asked.
    expect(renders).toBe(4);
  });

  it("pages that may not be shared are not kept: errors, Set-Cookie, private or no-store", async () => {
    const renders = new Map<string, number>();
    const { get, cache } = await serve({
      render: async (url) => {
        renders.set(url, (renders.get(url) ?? 0) + 1);
        if (url === "/article/missing") return page(url, { status: 404, headers: { "Cache-Control": "no-store" } });
        if (url === "/article/cookie") return page(url, { headers: { "Set-Cookie": "a=b" } });
        if (url === "/article/private") return page(url, { headers: { "Cache-Control": "private, no-store" } });
        return page(url);
      },
    });
    for (const path of ["/article/missing", "/article/cookie", "/article/private"]) {
      const first = await get(path);
      await get(path);
      expect(first.headers["x-page-cache"], path).toBe("bypass");
      expect(renders.get(path), path).toBe(2);
    }
    expect((await get("/article/missing")).status).toBe(404);
    expect(cache.stats().entries).toBe(0);
  });

  it("keeps at most maxBytes, dropping the least recently used pages", async () => {
    let renders = 0;
    const { get, cache } = await serve({
      maxBytes: 6000,
      render: async (url) => {
        renders++;
        return page(url);
      },
    });
    await get("/article/1");
    await get("/article/2");
    await get("/article/1"); // 1 is now the most recently used
    await get("/article/3");
    expect(cache.stats().bytes).toBeLessThanOrEqual(6000);
    expect((await get("/article/1")).headers["x-page-cache"]).toBe("hit");
    expect((await get("/article/2")).headers["x-page-cache"]).toBe("miss");
    expect(renders).toBe(4);
  });

  it("re-renders a page older than the TTL (safety net), serving the old copy meanwhile", async () => {
    let clock = 0;
    let renders = 0;
    const { get } = await serve({
      ttlMs: 1000,
      now: () => clock,
      render: async (url) => {
        renders++;
        return page(url);
      },
    });
    await get("/userLicence");
    clock = 999;
    expect((await get("/userLicence")).headers["x-page-cache"]).toBe("hit");
    clock = 1000;
    expect((await get("/userLicence")).headers["x-page-cache"]).toBe("stale");
    await expect.poll(() => renders).toBe(2);
  });

  it("every answer carries a request id and reaches the access log, with how the cache answered", async () => {
    const served: Array<{ id: string | undefined; url: string; status: number; state: string }> = [];
    let counter = 0;
    const { get } = await serve({
      render: async (url) => page(url),
      requestId: () => `req-${++counter}`,
      onServed: ({ id, url, status, state }) => served.push({ id, url, status, state }),
    });
    const first = await get("/?utm_source=x");
    const second = await get("/");
    expect(first.headers["x-request-id"]).toBe("req-1");
    expect(second.headers["x-request-id"]).toBe("req-2");
    await expect.poll(() => served.length).toBe(2);
    expect(served).toEqual([
      { id: "req-1", url: "/?utm_source=x", status: 200, state: "miss" },
      { id: "req-2", url: "/", status: 200, state: "hit" },
    ]);
  });

  it("a failed render falls back to the app, before anything is sent", async () => {
    const { get } = await serve({
      render: async () => {
        throw new Error("database down");
      },
    });
    const answer = await get("/");
    expect(answer.status).toBe(500);
    expect(answer.body.toString()).toBe("fallback");
  });
});

describe("what a reader may see after a change (decision record 003)", () => {
  it("a re-render that is not a cacheable 200 removes the entry at once: the next reader gets the 404, and its ETag no 304", async () => {
    let deleted = false;
    const { get, cache } = await serve({
      render: async (url) =>
        deleted && url.startsWith("/article/a1") ? page(url, { status: 404, headers: { "Cache-Control": "no-store" } }) : page(url),
    });
    const first = await get("/article/a1");
    await get("/article/a1.data");
    expect((await get("/article/a1")).headers["x-page-cache"]).toBe("hit");
    deleted = true;
    // An event without paths (another process's change): the page goes stale, and its re-render is a 404.
    cache.invalidate();
    await cache.idle();
    for (const headers of [{}, { "If-None-Match": first.headers.etag! }] as Array<Record<string, string>>) {
      const answer = await get("/article/a1", headers);
      expect(answer.status).toBe(404);
      expect(answer.headers["x-page-cache"]).toBe("bypass");
    }
    expect((await get("/article/a1.data")).status).toBe(404);
    expect(cache.stats().entries).toBe(0);
  });

  it("invalidate(paths) removes the story's pages before anyone asks: with and without slug, their .data and queries", async () => {
    let version = 1;
    const { get, cache } = await serve({ render: async (url) => page(url, { body: `v${version} ${url}` }) });
    const paths = ["/article/a1", "/article/a1/titulo-velho", "/article/a1/titulo-velho.data?_routes=root", "/article/a10", "/", "/categoria/volei"];
    for (const path of paths) await get(path);
    expect(cache.stats().entries).toBe(paths.length);
    version = 2;
    cache.invalidate(["/article/a1", "/categoria/volei"]);
    expect(cache.stats().evictions).toBe(4);
    for (const path of ["/article/a1", "/article/a1/titulo-velho", "/article/a1/titulo-velho.data?_routes=root", "/categoria/volei"]) {
      const answer = await get(path);
      expect(answer.body.toString(), path).toBe(`v2 ${path}`);
    }
    // Another story's page ("/article/a10" is not under "/article/a1") was only made stale.
    expect((await get("/article/a10")).headers["x-page-cache"]).not.toBe("miss");
  });

  it("refresh(paths) (a live story's update) renews only that story's pages and its updates' JSON: nothing else goes stale or re-renders", async () => {
    let version = 1;
    const rendered: string[] = [];
    const { get, cache } = await serve({
      render: async (url) => {
        rendered.push(url);
        return page(url, { body: `v${version} ${url}`, headers: url.startsWith("/api/") ? { "Content-Type": "application/json" } : {} });
      },
    });
    const others = ["/", "/news-list", "/article/a10", "/categoria/volei"];
    const story = ["/article/a1", "/article/a1/classico", "/article/a1/classico.data?_routes=root", "/api/news/a1/updates"];
    for (const path of [...others, ...story]) await get(path);
    version = 2;
    rendered.length = 0;
    cache.refresh(["/article/a1", "/article/a1/classico", "/api/news/a1/updates"]);
    await cache.idle();
    // Re-rendered ahead of readers: the story's pages named by the event, nothing else.
    expect(rendered.sort()).toEqual(["/api/news/a1/updates", "/article/a1", "/article/a1/classico"]);
    for (const path of story) expect((await get(path)).body.toString(), path).toBe(`v2 ${path}`);
    for (const path of others) {
      const answer = await get(path);
      expect(answer.headers["x-page-cache"], path).toBe("hit");
      expect(answer.body.toString(), path).toBe(`v1 ${path}`);
    }
  });

  it("a stale page is served only while its re-render runs and for staleMs at most; after that, readers wait for the new one", async () => {
    let clock = 0;
    let version = 1;
    let hold = false;
    const held: Array<() => void> = [];
    const { get, cache } = await serve({
      now: () => clock,
      staleMs: 3000,
      warm: { pages: 0, concurrency: 1 },
      render: async (url) => {
        if (hold) await new Promise<void>((resolve) => held.push(resolve));
        return page(url, { body: `v${version} ${url}` });
      },
    });
    await get("/");
    await get("/news-list");
    version = 2;
    hold = true;
    clock = 10_000;
    cache.invalidate();
    clock = 12_999;
    const stale = await get("/");
    expect(stale.headers["x-page-cache"]).toBe("stale");
    expect(stale.body.toString()).toBe("v1 /");
    expect(held.length).toBe(1);
    // 3 s after the change: no more of the old page; the reader waits for its re-render.
    clock = 13_000;
    const waiting = get("/news-list");
    await expect.poll(() => held.length).toBe(2);
    hold = false;
    for (const resume of held.splice(0)) resume();
    const fresh = await waiting;
    expect(fresh.headers["x-page-cache"]).toBe("miss");
    expect(fresh.body.toString()).toBe("v2 /news-list");
  });

  it("a page older than the TTL is never served without a re-render; long past it, the reader gets the re-render", async () => {
    let clock = 0;
    let renders = 0;
    const { get } = await serve({
      ttlMs: 60_000,
      now: () => clock,
      render: async (url) => {
        renders++;
        return page(url, { body: `render ${renders}` });
      },
    });
    await get("/userLicence");
    clock = 10 * 60_000;
    const answer = await get("/userLicence");
    expect(answer.headers["x-page-cache"]).toBe("miss");
    expect(answer.body.toString()).toBe("render 2");
  });

  it("after an invalidation the most requested pages and the changed story's are re-rendered ahead of readers, a few at a time", async () => {
    let version = 1;
    let running = 0;
    let mostAtOnce = 0;
    const order: string[] = [];
    const { get, cache } = await serve({
      warm: { pages: 3, concurrency: 2 },
      render: async (url) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        if (version === 2) order.push(url);
        // A render's length, so that those started together overlap (the test waits with cache.idle(), not this).
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return page(url, { body: `v${version} ${url}` });
      },
    });
    for (const [path, times] of [
      ["/userLicence", 1],
      ["/", 5],
      ["/news-list", 3],
      ["/news-list?tab=1", 2],
    ] as const) {
      for (let i = 0; i < times; i++) await get(path);
    }
    version = 2;
    cache.invalidate(["/article/novo/titulo", "/categoria/volei"]);
    await cache.idle();
    // The three most requested first, then the story's pages; the least requested waits for a reader.
    expect(order).toEqual(["/", "/news-list", "/news-list?tab=1", "/article/novo/titulo", "/categoria/volei"]);
    expect(mostAtOnce).toBe(2);
    for (const path of ["/", "/news-list", "/article/novo/titulo"]) {
      const answer = await get(path);
      expect(answer.headers["x-page-cache"], path).toBe("hit");
      expect(answer.body.toString()).toBe(`v2 ${path}`);
    }
    expect((await get("/userLicence")).headers["x-page-cache"]).toBe("stale");
  });

  it("a reader of a page queued for a re-render ahead of readers waits for the new page instead of the stale copy", async () => {
    let version = 1;
    const held: Array<() => void> = [];
    const { get, cache } = await serve({
      warm: { pages: 10, concurrency: 1 },
      render: async (url) => {
        const seen = version;
        if (seen === 2) await new Promise<void>((resolve) => held.push(resolve));
        return page(url, { body: `v${seen} ${url}` });
      },
    });
    for (const path of ["/", "/", "/news-list"]) await get(path);
    version = 2;
    cache.invalidate();
    // "/" (most requested) is being re-rendered, "/news-list" waits in the queue: its reader starts it at once.
    await expect.poll(() => held.length).toBe(1);
    const reader = get("/news-list");
    await expect.poll(() => held.length).toBe(2);
    for (const resume of held.splice(0)) resume();
    const answer = await reader;
    expect(answer.headers["x-page-cache"]).toBe("miss");
    expect(answer.body.toString()).toBe("v2 /news-list");
    await cache.idle();
    expect(held.length).toBe(0);
  });

  it("a .data request after a change never joins a render that started before it", async () => {
    let version = 1;
    const held: Array<() => void> = [];
    const { get, cache } = await serve({
      warm: { pages: 0, concurrency: 1 },
      render: async (url) => {
        const seen = version;
        if (seen === 1 && held.length === 0 && url.includes("tab")) await new Promise<void>((resolve) => held.push(resolve));
        return page(url, { body: `v${seen} ${url}` });
      },
    });
    const before = get("/news-list.data?tab=1");
    await expect.poll(() => held.length).toBe(1);
    version = 2;
    cache.invalidate();
    const after = await get("/news-list.data?tab=1");
    expect(after.body.toString()).toBe("v2 /news-list.data?tab=1");
    held[0]!();
    expect((await before).body.toString()).toBe("v1 /news-list.data?tab=1");
  });

  it("answers the variants of a page with a redirect from memory, and random query strings from the one entry", async () => {
    let renders = 0;
    const { get, cache } = await serve({
      render: async (url) => {
        renders++;
        return page(url);
      },
    });
    const redirect = await get("/News-List/?tab=zz&utm_source=x");
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe("/news-list");
    for (let i = 0; i < 20; i++) expect((await get(`/?${i}=${Math.random()}&tab=${i}`)).status).toBe(200);
    expect(renders).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 1, redirects: 1 });
  });
});

describe("the page cache's policy for stored pages", () => {
  it("is computed once when a page is stored and sent with each answer; .data answers keep the fixed one", async () => {
    let computed = 0;
    const { get } = await serve({
      maxBytes: 1024 * 1024,
      headers: { "Content-Security-Policy": "fixa" },
      documentPolicy: (html) => {
        computed++;
        return `hashes ${inlineScriptHashes(html).join(" ")}`;
      },
      async render(url) {
        const html = url.endsWith(".data");
        return {
          status: 200,
          headers: new Headers({ "Content-Type": html ? "text/x-script" : "text/html; charset=utf-8", "Cache-Control": "public, s-maxage=30" }),
          body: Buffer.from(html ? "dados" : `<html><script>window.page=${JSON.stringify(url)}</script></html>`),
        };
      },
    });
    const expected = `hashes 'sha256-${createHash("sha256").update('window.page="/"').digest("base64")}'`;
    for (let i = 0; i < 3; i++) {
      const response = await get("/");
      expect(response.headers["content-security-policy"]).toBe(expected);
      expect(response.headers["x-page-cache"]).toBe(i === 0 ? "miss" : "hit");
    }
    expect(computed).toBe(1);
    const data = await get("/news-list.data");
    expect(data.headers["content-security-policy"]).toBe("fixa");
    expect(computed).toBe(1);
  });
});
