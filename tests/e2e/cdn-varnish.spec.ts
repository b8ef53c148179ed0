/**
 * A CDN in front, purged on every change (docs/decisions/010-cdn-purge.md): Debian's Varnish, started here with the
 * configuration the README ships (deploy/varnish/default.vcl), in front of the site with CDN_PURGE_URL pointing at
 * it. Readers get stored copies; a publish, a correction and a takedown reach them through Varnish within 1 s; a
 * signed-in member and the event stream go through; purges from another address are refused.
 */
import http from "node:http";
import type { APIRequestContext } from "@playwright/test";
import { createNews } from "../factories/news.ts";
import { apiHeaders, createNewsThroughApi, expect, expectStatus, SESSION_COOKIE, signInAsAdmin, test } from "./support/fixtures.ts";
import { startVarnish, varnishPort } from "../factories/varnish.ts";

/** Asks `url` until `done` says yes, for 1 s at most; returns the last answer's description for the message. */
async function within1s(read: () => Promise<string>, done: (seen: string) => boolean): Promise<string> {
  const started = Date.now();
  let seen = await read();
  while (!done(seen) && Date.now() - started < 1000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await read();
  }
  return seen;
}

/** The first bytes of a GET, from `localAddress` (another loopback address is another client to Varnish). */
function rawGet(
  url: string,
  { method = "GET", headers = {}, localAddress }: { method?: string; headers?: Record<string, string>; localAddress?: string },
) {
  return new Promise<{ status: number; head: string }>((resolve, reject) => {
    const request = http.request(url, { method, headers, localAddress }, (response) => {
      response.once("data", (chunk: Buffer) => {
        resolve({ status: response.statusCode ?? 0, head: chunk.toString("utf8") });
        request.destroy();
      });
      response.once("end", () => resolve({ status: response.statusCode ?? 0, head: "" }));
    });
    request.on("error", reject);
    request.end();
  });
}

test("Varnish na frente: guarda as páginas; publicação, correção e retirada chegam ao leitor em até 1 s; sessão e /events passam", async ({
  launchSite,
  browser,
  playwright,
}) => {
  const port = await varnishPort();
  let id = "";
  const site = await launchSite({
    env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000", CDN_PURGE_URL: `http://127.0.0.1:${port}` },
    async setup(services) {
      id = await createNews(services, { title: "Clássico decidido nos pênaltis", media: null });
    },
  });
  const varnish = await startVarnish({ port, backendPort: Number(new URL(site.url).port) });
  let reader: APIRequestContext | null = null;
  const admin = await browser.newContext();
  try {
    reader = await playwright.request.newContext({ maxRedirects: 0 });
    const readerContext = reader;
    const via = (pathname: string, headers: Record<string, string> = {}) => readerContext.get(varnish.url + pathname, { headers, maxRedirects: 0 });
    const article = `/article/${id}/classico-decidido-nos-penaltis`;

    // Stored: the second reader is a hit; the keys and the CDN's own header stay between the app and Varnish.
    expect((await via(article)).headers()["x-cache"]).toBe("MISS");
    const stored = await via(article);
    expect(stored.status()).toBe(200);
    expect(stored.headers()["x-cache"]).toBe("HIT");
    expect(stored.headers()["surrogate-key"]).toBeUndefined();
    expect(stored.headers()["cdn-cache-control"]).toBeUndefined();
    await via("/");
    expect((await via("/")).headers()["x-cache"]).toBe("HIT");
    // A reader's other cookies (a consent choice) share the same copy.
    expect((await via("/", { Cookie: "eef_consent=recusado" })).headers()["x-cache"]).toBe("HIT");

    await signInAsAdmin(admin, site);
    // Publish: the stored home is purged.
    const title = `Reforço anunciado ${Date.now()}`;
    await createNewsThroughApi(admin, site, { title });
    const home = await within1s(
      async () => (await via("/")).text(),
      (text) => text.includes(title),
    );
    expect(home.includes(title), "a home guardada no Varnish ainda não mostrava a notícia publicada 1 s depois").toBe(true);

    // Correction: the old address (shared, indexed) moves to the new one.
    const corrected = await admin.request.patch(`${site.url}/api/news/${id}`, {
      data: { title: "Clássico decidido nas penalidades" },
      headers: apiHeaders(site),
    });
    await expectStatus(corrected, 200, "PATCH título");
    const moved = await within1s(
      async () => {
        const answer = await via(article);
        return `${answer.status()} ${answer.headers().location ?? ""}`;
      },
      (seen) => seen.startsWith("301"),
    );
    expect(moved, "o endereço antigo ainda respondia a cópia guardada 1 s depois da correção").toBe(
      `301 /article/${id}/classico-decidido-nas-penalidades`,
    );

    // Takedown: gone for the next reader.
    const newArticle = `/article/${id}/classico-decidido-nas-penalidades`;
    await via(newArticle);
    expect((await via(newArticle)).headers()["x-cache"]).toBe("HIT");
    await expectStatus(await admin.request.delete(`${site.url}/api/news/${id}`, { headers: apiHeaders(site) }), 204, "DELETE");
    const status = await within1s(
      async () => String((await via(newArticle)).status()),
      (seen) => seen === "404",
    );
    expect(status, "o Varnish ainda servia a notícia retirada 1 s depois").toBe("404");

    // A signed-in member always gets their own page, never a stored one, and nothing of theirs is stored.
    const session = (await admin.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!;
    await via("/");
    const member = await via("/", { Cookie: `${SESSION_COOKIE}=${session.value}` });
    expect(member.headers()["x-cache"]).toBe("MISS");
    expect(member.headers()["cache-control"]).toContain("private");
    expect((await via("/")).headers()["x-cache"]).toBe("HIT");
    expect((await via("/redacao", { Cookie: `${SESSION_COOKIE}=${session.value}` })).status()).toBe(200);

    // The event stream goes through, streamed.
    const stream = await rawGet(`${varnish.url}/events`, { headers: { Accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    expect(stream.head).toContain("conectado");

    // Purges only from the app's address: another client is refused, and nothing is purged.
    const refused = await rawGet(`${varnish.url}/`, { method: "PURGE", headers: { "Surrogate-Key": "site" }, localAddress: "127.0.0.2" });
    expect(refused.status).toBe(403);
    expect((await via("/")).headers()["x-cache"]).toBe("HIT");
  } finally {
    await admin.close();
    await reader?.dispose();
    await varnish.stop();
  }
});
