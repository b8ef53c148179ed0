import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { createCdnPurger } from "#app/.server/cdn/cdn-purge.server.ts";
import { purgeKeysOf, surrogateKeys } from "#app/.server/cdn/surrogate-keys.ts";
import type { CdnConfig } from "#app/.server/config/env.server.ts";

describe("surrogate keys", () => {
  test("an article: the site, its kind, its path with and without the slug; its .data the same", () => {
    expect(surrogateKeys("/article/abc/gol-de-placa")).toBe("site article /article/abc /article/abc/gol-de-placa");
    expect(surrogateKeys("/article/abc/gol-de-placa.data")).toBe("site article /article/abc /article/abc/gol-de-placa");
    expect(surrogateKeys("/article/abc")).toBe("site article /article/abc");
  });

  test("every other page lists stories; the home's .data is the home", () => {
    expect(surrogateKeys("/")).toBe("site list /");
    expect(surrogateKeys("/_.data")).toBe("site list /");
    expect(surrogateKeys("/categoria/futebol")).toBe("site list /categoria/futebol");
    expect(surrogateKeys("/rss.xml")).toBe("site list /rss.xml");
  });

  test("an event's paths purge those pages and the lists; an event without paths, the whole site", () => {
    expect(purgeKeysOf(["/article/abc", "/article/abc/gol", "/categoria/futebol"])).toEqual([
      "list",
      "/article/abc",
      "/article/abc/gol",
      "/categoria/futebol",
    ]);
    expect(purgeKeysOf([])).toEqual(["site"]);
    expect(purgeKeysOf(undefined)).toEqual(["site"]);
  });

  test("a live story's update purges its pages, its updates' JSON and the feeds it names, not the lists", () => {
    expect(purgeKeysOf(["/article/abc", "/article/abc/gol", "/api/news/abc/updates", "/rss.xml"], { lists: false })).toEqual([
      "/article/abc",
      "/article/abc/gol",
      "/api/news/abc/updates",
      "/rss.xml",
    ]);
    expect(purgeKeysOf(undefined, { lists: false })).toEqual(["site"]);
  });

  test("a path a purge cannot name (outside the keys' alphabet) purges the whole site instead", () => {
    expect(purgeKeysOf(["/article/abc", "/autor/jos%C3%A9", "/rss.xml"])).toEqual(["list", "/article/abc", "/autor/jos%C3%A9", "/rss.xml"]);
    for (const odd of ["/autor/a b", "/autor/a|b", "/autor/.*", "/autor/(x)", "/autor/a\\b", "/autor/a+b"]) {
      expect(purgeKeysOf(["/article/abc", odd]), odd).toEqual(["site"]);
    }
  });
});

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A stand-in for the CDN's purge endpoint on loopback, answering `state.status`; it records what it is sent. */
async function purgeEndpoint(initialStatus = 200) {
  const received: Received[] = [];
  const state = { status: initialStatus };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(state.status, { "Content-Type": "application/json" }).end('{"status":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function logSpy() {
  const warnings: unknown[] = [];
  const infos: unknown[] = [];
  return { warnings, infos, log: { warn: (...args: unknown[]) => warnings.push(args), info: (...args: unknown[]) => infos.push(args) } };
}

const SITE = "https://www.exemplo.com.br";
let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  stop = null;
});

describe("CDN purges", () => {
  test("Varnish: one PURGE with the keys as they are (the VCL escapes them), events of the same moment together", async () => {
    const endpoint = await purgeEndpoint();
    stop = endpoint.close;
    const config: CdnConfig = { provider: "varnish", purgeUrl: endpoint.url, token: null, serviceId: null };
    const purger = createCdnPurger(config, { siteUrl: SITE, log: logSpy().log });
    purger.onEvent("newsUpdated", { paths: ["/article/a1", "/article/a1/gol.de-placa"] });
    purger.onEvent("newsUpdated", { paths: ["/categoria/futebol"] });
    await purger.settled();
    expect(endpoint.received).toHaveLength(1);
    expect(endpoint.received[0]!.method).toBe("PURGE");
    expect(endpoint.received[0]!.headers["surrogate-key"]).toBe("list /article/a1 /article/a1/gol.de-placa /categoria/futebol");
  });

  test("Fastly: a POST to the service's purge with its key and the surrogate keys; a resync purges the site", async () => {
    const endpoint = await purgeEndpoint();
    stop = endpoint.close;
    const config: CdnConfig = { provider: "fastly", purgeUrl: endpoint.url, token: "segredo-fastly", serviceId: "SU1Z0isxPaozGVKXdv0eY" };
    const purger = createCdnPurger(config, { siteUrl: SITE, log: logSpy().log });
    purger.onEvent("newsUpdated", { paths: ["/article/a1"] });
    await purger.settled();
    purger.onEvent("resync", {});
    purger.onEvent("newsUpdated", { paths: ["/article/a2"] });
    await purger.settled();
    expect(
      endpoint.received.map((request) => [request.method, request.url, request.headers["fastly-key"], request.headers["surrogate-key"]]),
    ).toEqual([
      ["POST", "/service/SU1Z0isxPaozGVKXdv0eY/purge", "segredo-fastly", "list /article/a1"],
      ["POST", "/service/SU1Z0isxPaozGVKXdv0eY/purge", "segredo-fastly", "site"],
    ]);
  });

  test("Cloudflare: purge by URL (the pages, their .data and the lists, 30 at most per call); everything on a resync", async () => {
    const endpoint = await purgeEndpoint();
    stop = endpoint.close;
    const config: CdnConfig = { provider: "cloudflare", purgeUrl: endpoint.url, token: "token-cf", serviceId: "zona123" };
    const purger = createCdnPurger(config, { siteUrl: SITE, log: logSpy().log });
    purger.onEvent("newsUpdated", { paths: ["/article/a1", "/article/a1/gol"] });
    await purger.settled();
    const [first] = endpoint.received;
    expect(first!.url).toBe("/zones/zona123/purge_cache");
    expect(first!.headers.authorization).toBe("Bearer token-cf");
    const files = (JSON.parse(first!.body) as { files: string[] }).files;
    expect(files).toEqual(expect.arrayContaining([`${SITE}/article/a1`, `${SITE}/article/a1/gol.data`, `${SITE}/`, `${SITE}/rss.xml`]));
    expect(files.length).toBeLessThanOrEqual(30);

    const many = Array.from({ length: 20 }, (_, index) => `/article/n${index}`);
    purger.onEvent("newsUpdated", { paths: many });
    await purger.settled();
    const batches = endpoint.received.slice(1).map((request) => (JSON.parse(request.body) as { files: string[] }).files);
    expect(batches.length).toBe(2);
    expect(batches.every((batch) => batch.length <= 30)).toBe(true);
    expect(batches.flat()).toHaveLength(20 * 2 + 7);

    purger.onEvent("sponsorsUpdated", {});
    await purger.settled();
    expect(JSON.parse(endpoint.received.at(-1)!.body)).toEqual({ purge_everything: true });
  });

  test("a refused or unreachable purge is one warning per outage, never thrown; working again is said once", async () => {
    const endpoint = await purgeEndpoint(500);
    stop = endpoint.close;
    const spy = logSpy();
    const config: CdnConfig = { provider: "varnish", purgeUrl: endpoint.url, token: null, serviceId: null };
    const purger = createCdnPurger(config, { siteUrl: SITE, log: spy.log });
    for (let round = 0; round < 3; round++) {
      purger.onEvent("newsUpdated", { paths: [`/article/x${round}`] });
      await purger.settled();
    }
    expect(endpoint.received).toHaveLength(3);
    expect(spy.warnings).toHaveLength(1);
    endpoint.state.status = 200;
    purger.onEvent("resync", {});
    await purger.settled();
    expect(spy.infos).toHaveLength(1);
    expect(spy.warnings).toHaveLength(1);

    const down = createCdnPurger({ ...config, purgeUrl: "http://127.0.0.1:9" }, { siteUrl: SITE, log: spy.log });
    down.onEvent("resync", {});
    await down.settled();
    expect(spy.warnings).toHaveLength(2);
  });
});
