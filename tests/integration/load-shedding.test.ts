/**
 * Load shedding (server/load-shedding.ts) on a real HTTP server on loopback: past the limit of reader requests in
 * flight, while saturated, a reader gets 503 + Retry-After at once; writes, the newsroom (a session), the health
 * check and the event stream never do; a slot comes back when an answer ends or its client goes away.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { t } from "#app/i18n/pt-BR.ts";
import { createLoadShedder, type LoadShedderOptions } from "#server/load-shedding.ts";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Resolves once `condition` holds, looking every 5 ms; throws saying what it waited for after `timeoutMs`. */
async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A server whose answers wait until the test lets them go (`release()`), behind the shedder. */
async function serve(options: Partial<LoadShedderOptions> = {}) {
  const waiting: Array<() => void> = [];
  const shedder = createLoadShedder({ limit: 2, hasSession: (cookie) => cookie === "eef.session_token=valid", saturated: () => true, ...options });
  const server = http.createServer((req, res) =>
    shedder.middleware(req, res, () => {
      waiting.push(() => res.writeHead(200, { "Content-Type": "text/plain" }).end("ok"));
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    shedder,
    /** Waits until `count` requests are held by the handler. */
    held: (count: number) => until(() => waiting.length >= count, `${count} request(s) held by the handler`),
    release: () => waiting.shift()?.(),
    releaseAll: () => {
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

function request(url: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("load shedding", () => {
  it("past the limit a reader gets 503 with Retry-After and a pt-BR page at once; a finished answer frees a slot", async () => {
    const site = await serve();
    const first = request(`${site.url}/`);
    const second = request(`${site.url}/article/1`);
    await site.held(2);
    const refused = await request(`${site.url}/news-list`);
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toBe("2");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(refused.headers["content-type"]).toContain("text/html");
    expect(refused.body).toContain('lang="pt-BR"');
    expect(refused.body).toContain(t.errors.overloadedText);
    const api = await request(`${site.url}/api/news`);
    expect(api.status).toBe(503);
    expect(JSON.parse(api.body)).toEqual({ error: { code: "overloaded", message: t.errors.overloadedText } });
    expect(site.shedder.shed).toBe(2);

    site.release();
    expect((await first).status).toBe(200);
    const third = request(`${site.url}/news-list`);
    await site.held(2);
    site.releaseAll();
    expect((await second).status).toBe(200);
    expect((await third).status).toBe(200);
    expect(site.shedder.inFlight).toBe(0);
  });

  it("writes, the newsroom's session, the health check, the event stream and files are never refused", async () => {
    const site = await serve({ limit: 1 });
    const holding = request(`${site.url}/`);
    await site.held(1);
    const admitted = [
      request(`${site.url}/api/news`, { method: "POST" }),
      request(`${site.url}/news-list`, { headers: { Cookie: "eef.session_token=valid" } }),
      request(`${site.url}/healthz`),
      request(`${site.url}/events`),
      request(`${site.url}/assets/entry.client-abc123.js`),
      request(`${site.url}/media/news/1/800.webp`),
    ];
    await site.held(7);
    // A page address ending like a file is still a page: it waits its turn and is refused like any other.
    expect((await request(`${site.url}/article/1.png`)).status).toBe(503);
    // A forged session is a reader like any other.
    expect((await request(`${site.url}/news-list`, { headers: { Cookie: "eef.session_token=forged" } })).status).toBe(503);
    site.releaseAll();
    for (const answer of await Promise.all([holding, ...admitted])) expect(answer.status).toBe(200);
  });

  it("not saturated (the loop free, e.g. waiting on a slow database): nothing is refused past the limit", async () => {
    const site = await serve({ limit: 1, saturated: () => false });
    const answers = [request(`${site.url}/`), request(`${site.url}/`), request(`${site.url}/`)];
    await site.held(3);
    site.releaseAll();
    for (const answer of await Promise.all(answers)) expect(answer.status).toBe(200);
    expect(site.shedder.shed).toBe(0);
  });

  it("a client that goes away frees its slot", async () => {
    const site = await serve({ limit: 1 });
    const gone = http.get(`${site.url}/`, { agent: false });
    gone.on("error", () => undefined);
    await site.held(1);
    expect(site.shedder.inFlight).toBe(1);
    gone.destroy();
    await until(() => site.shedder.inFlight === 0, "the slot of the client gone");
    const next = request(`${site.url}/`);
    await site.held(2);
    site.releaseAll();
    expect((await next).status).toBe(200);
  });

  it("at most `concurrency` renders run at once; the others wait their turn in order, then run", async () => {
    const order: string[] = [];
    const site = await serve({ limit: 10, concurrency: 2 });
    const answers = ["/a", "/b", "/c", "/d"].map((path) =>
      request(`${site.url}${path}`).then((answer) => {
        order.push(path);
        return answer;
      }),
    );
    await site.held(2);
    await until(() => site.shedder.waiting >= 2, "two requests waiting their turn");
    expect(site.shedder.inFlight).toBe(2);
    site.release();
    await site.held(2);
    expect(site.shedder.waiting).toBe(1);
    site.releaseAll();
    await site.held(1);
    site.releaseAll();
    for (const answer of await Promise.all(answers)) expect(answer.status).toBe(200);
    expect(order[0]).toBe("/a");
    expect(site.shedder.inFlight).toBe(0);
    expect(site.shedder.waiting).toBe(0);
  });

  it("a request that waited maxWaitMs for its turn (renders that never end) is refused; one gone while waiting leaves the line", async () => {
    const site = await serve({ limit: 10, concurrency: 1, maxWaitMs: 300, saturated: () => false });
    const stuck = request(`${site.url}/`);
    await site.held(1);
    const gone = http.get(`${site.url}/gone`, { agent: false });
    gone.on("error", () => undefined);
    await until(() => site.shedder.waiting >= 1, "a request waiting its turn");
    gone.destroy();
    await until(() => site.shedder.waiting === 0, "the line empty once its client is gone");
    const waited = await request(`${site.url}/later`);
    expect(waited.status).toBe(503);
    expect(waited.headers["retry-after"]).toBe("2");
    site.releaseAll();
    expect((await stuck).status).toBe(200);
    expect(site.shedder.inFlight).toBe(0);
  });

  it("LOAD_SHED_LIMIT=0 never refuses", async () => {
    const site = await serve({ limit: 0 });
    const answers = [request(`${site.url}/`), request(`${site.url}/`), request(`${site.url}/`)];
    await site.held(3);
    site.releaseAll();
    for (const answer of await Promise.all(answers)) expect(answer.status).toBe(200);
  });
});
