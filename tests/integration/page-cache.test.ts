import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { cacheKey, createPageCache, type PageCacheOptions, type RenderedPage } from "../../server/page-cache.ts";
import { inlineScriptHashes } from "../../server/security-headers.ts";

const quietLog = { warn() {}, error() {} };

/** A page as the app renders it: public Cache-Control, the URL in the body so each key is told apart. */
function page(url: string, init: { status?: number; headers?: Record<string, string>; body?: string } = {}): RenderedPage {
  return {
    status: init.status ?? 200,
    headers: new Headers({ "Content-Type": "text/html", "Cache-Control": "public, max-age=0, s-maxage=30", ...init.headers }),
    body: Buffer.from(init.body ?? `<html><body>${url} ${"x".repeat(2000)}</body></html>`),
  };
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A real HTTP server answering through the cache; requests the cache does not take get "fallback" (418). */
async function serve(options: Partial<PageCacheOptions> & Pick<PageCacheOptions, "render">) {
  const cache = createPageCache({ maxBytes: 10 * 1024 * 1024, ttlMs: 60_000, log: quietLog, ...options });
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

describe("cacheKey: what the cache may answer", () => {
  const request = (url: string, init: { method?: string; cookie?: string } = {}) =>
    ({ url, method: init.method ?? "GET", headers: init.cookie ? { cookie: init.cookie } : {} }) as http.IncomingMessage;

  it("public pages and their .data requests, GET and HEAD only, for readers without a session", () => {
    expect(cacheKey(request("/"))).toBe("/");
    expect(cacheKey(request("/_.data"))).toBe("/_.data");
    expect(cacheKey(request("/article/abc"))).toBe("/article/abc");
    expect(cacheKey(request("/article/abc.data?_routes=routes%2Fsite%2Farticle"))).toBe("/article/abc.data?_routes=routes%2Fsite%2Farticle");
    // The readable form, /article/{id}/{slug}, and its .data request.
    expect(cacheKey(request("/article/abc/final-da-copa"))).toBe("/article/abc/final-da-copa");
    expect(cacheKey(request("/article/abc/final-da-copa.data"))).toBe("/article/abc/final-da-copa.data");
    expect(cacheKey(request("/userLicence", { method: "HEAD" }))).toBe("/userLicence");
    expect(cacheKey(request("/categoria/volei?cursor=abc&utm_source=x"))).toBe("/categoria/volei?cursor=abc");
    expect(cacheKey(request("/autor/ana-reporter.data"))).toBe("/autor/ana-reporter.data");
    expect(cacheKey(request("/categoria/volei/outra"))).toBeNull();
    expect(cacheKey(request("/", { method: "POST" }))).toBeNull();
    expect(cacheKey(request("/news-list", { cookie: "eef.session_token=abc.def" }))).toBeNull();
    expect(cacheKey(request("/news-list", { cookie: "tema=escuro; __Secure-eef.session_token=abc" }))).toBeNull();
    expect(cacheKey(request("/news-list", { cookie: "tema=escuro" }))).toBe("/news-list");
    for (const path of ["/add-news", "/admin/login", "/api/news", "/events", "/media/x.webp", "/SponsorManager", "/article/a/b/c"]) {
      expect(cacheKey(request(path)), path).toBeNull();
    }
  });

  it("keeps only the parameters pages read, sorted: shared links with utm_* or fbclid hit the same copy", () => {
    expect(cacheKey(request("/news-list?utm_source=whatsapp&tab=1&fbclid=x"))).toBe("/news-list?tab=1");
    expect(cacheKey(request("/news-list?tab=1&cursor=c2"))).toBe(cacheKey(request("/news-list?cursor=c2&tab=1")));
    expect(cacheKey(request("/?utm_campaign=gol"))).toBe("/");
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
    const { get } = await serve({
      render: async (url) => {
        renders++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return page(url);
      },
    });
    const answers = await Promise.all(Array.from({ length: 30 }, () => get("/article/a1")));
    expect(answers.every((answer) => answer.status === 200 && answer.body.toString().includes("/article/a1"))).toBe(true);
    expect(renders).toBe(1);
  });

  it("after invalidate(): documents get the stale copy while one re-render runs; .data requests wait for the fresh page", async () => {
    let version = 1;
    let renders = 0;
    const held: Array<() => void> = [];
    const release = () => {
      for (const resume of held.splice(0)) resume();
    };
    const { get, cache } = await serve({
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
    expect((await get("/news-list")).headers["x-page-cache"]).toBe("stale");
    // The data request (a live update reloading) does not take the stale copy.
    const fresh = get("/news-list.data");
    await expect.poll(() => held.length).toBe(2);
    release();
    expect((await fresh).body.toString()).toBe("v2 /news-list.data");
    await expect.poll(async () => (await get("/news-list")).body.toString()).toBe("v2 /news-list");
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
