/**
 * WORKERS=2: two server processes on one port (node:cluster), on SQLite and PostgreSQL. Both answer; a takedown
 * made through one is gone from the other's page cache for the very next reader; the open pages of both hear a
 * change; the sign-in limit counts attempts on both together; a worker that dies is replaced while the other keeps
 * answering; SIGTERM ends the primary and its workers. Each request here comes on a connection of its own, so the
 * primary hands them to the workers in turn.
 */
import http from "node:http";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { apiHeaders, expect, signInAsAdmin, test } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

/** A request on a new connection: its status and body. */
function fresh(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The log lines the site wrote (JSON) whose message starts with `msg`. */
function logLines(site: RunningSite, msg: string): Array<Record<string, unknown>> {
  return site
    .logs()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.msg === "string" && line.msg.startsWith(msg));
}

test("WORKERS=2: os dois processos respondem, a retirada some dos dois caches, os eventos e o limite de login valem para os dois, um processo morto é substituído", async ({
  launchSite,
  browser,
}) => {
  test.setTimeout(90_000);
  let id = "";
  let admin!: TestAccount;
  const site = await launchSite({
    // LOG_LEVEL=info: the access log says which worker answered each request.
    env: { WORKERS: "2", PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "3", LOG_LEVEL: "info" },
    async setup(services) {
      id = await createNews(services, { title: "Lateral renova contrato", media: null });
      admin = await createAdmin(services);
    },
  });
  // Both answer. (The site answers as soon as one worker listens: the primary hands connections only to workers
  // that listen, so the second may come a little later; and the log is written asynchronously.)
  await expect
    .poll(
      async () => {
        expect((await fresh(`${site.url}/`)).status).toBe(200);
        return [...new Set(logLines(site, "request completed").map((line) => line.worker))].sort();
      },
      { timeout: 20_000 },
    )
    .toEqual([1, 2]);
  await expect.poll(() => logLines(site, "all workers listening").length).toBe(1);

  // Open pages on both hear a change (four streams, in turn on each worker).
  const streams = await Promise.all(
    Array.from({ length: 4 }, () => {
      let seen = "";
      const request = http.get(`${site.url}/events`, { agent: false, headers: { Accept: "text/event-stream" } }, (response) => {
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (seen += chunk));
      });
      return new Promise<{ seen: () => string; close: () => void }>((resolve) => {
        request.on("response", () => resolve({ seen: () => seen, close: () => request.destroy() }));
      });
    }),
  );
  await expect.poll(() => streams.every((stream) => stream.seen().includes("conectado"))).toBe(true);

  // Read on both workers: stored in both page caches.
  const article = `${site.url}/article/${id}/lateral-renova-contrato`;
  for (let index = 0; index < 4; index++) expect((await fresh(article)).status).toBe(200);
  const editor = await browser.newContext();
  await signInAsAdmin(editor, site, admin);
  expect((await editor.request.delete(`${site.url}/api/news/${id}`, { headers: apiHeaders(site) })).status()).toBe(204);
  // The very next readers, on either worker: gone.
  for (let index = 0; index < 4; index++) expect((await fresh(article)).status).toBe(404);
  await expect.poll(() => streams.every((stream) => stream.seen().includes("newsUpdated"))).toBe(true);
  for (const stream of streams) stream.close();
  await editor.close();

  // The sign-in limit (3) counts the attempts on both workers together, whichever answers.
  const attempt = (password: string) =>
    fresh(`${site.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: site.url },
      body: new URLSearchParams({ intent: "login", email: admin.email, password, redirectTo: "/news-list" }).toString(),
    });
  // (The editor's sign-in above counted too.) Counted per worker, the 429 would come only after 3 on each: 6 or more.
  let refusedAt = 0;
  for (let index = 1; index <= 8 && !refusedAt; index++) if ((await attempt(`errada-${index}`)).status === 429) refusedAt = index;
  expect(refusedAt).toBeGreaterThan(0);
  expect(refusedAt).toBeLessThanOrEqual(3);
  expect((await attempt(admin.password)).status).toBe(429);

  // A worker killed is replaced; the site answers all along.
  // Each worker's start line ("Esporte em Foco em …") names its number and pid.
  const started = () => logLines(site, "Esporte em Foco em");
  await expect.poll(() => started().length).toBe(2);
  const victim = started().find((line) => line.worker === 2)!;
  process.kill(Number(victim.pid), "SIGKILL");
  // Once the primary knows (a connection handed to the worker as it died is lost with it), the other one answers.
  await expect.poll(() => logLines(site, "worker died: starting another").length).toBe(1);
  for (let index = 0; index < 6; index++) expect((await fresh(`${site.url}/`)).status).toBe(200);
  await expect.poll(() => started().filter((line) => line.worker === 2).length, { timeout: 20_000 }).toBe(2);
});
