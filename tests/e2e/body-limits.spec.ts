/**
 * Request bodies that carry no file are capped before anything reads them: an anonymous visitor cannot make the
 * server hold a large body (the sign-in form used to be read whole, whatever its size). Raw HTTP, no browser.
 */
import fs from "node:fs";
import http from "node:http";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { BODIES_IN_FLIGHT_PER_ADDRESS } from "#app/lib/limits.ts";
import { adminOf, expect, SESSION_COOKIE, t, test } from "./support/fixtures.ts";

/** The server's resident memory in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/**
 * The deadlines of slow bodies are production's (15 s for a form, 30 s for an upload's rate window) unless
 * BODY_TIMEOUT_SECONDS says otherwise: the sites that wait for one to pass use a short one (their defaults are checked
 * in tests/unit/config.test.ts), so the deadline is seen, not slept through.
 */
const DEADLINE_SECONDS = 3;
const SHORT_DEADLINE = { BODY_TIMEOUT_SECONDS: String(DEADLINE_SECONDS) };

/**
 * POSTs a body of `bytes` (generated on the fly, never held in memory) to `url`; resolves with the status and text
 * of the answer, which may come before the body is fully sent.
 */
function postLarge(url: string, bytes: number, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      request.end();
    };
    request.on("response", () => {
      sent = bytes; // stop sending once the server has answered
    });
    pump();
  });
}

test("um formulário de login de 100 MB recebe 413 em português, sem ser lido, e a memória não cresce", async ({ launchSite }) => {
  let admin!: TestAccount;
  const site = await launchSite({
    setup: async (services) => {
      admin = await createAdmin(services);
    },
  });
  // Warm up (route modules loaded, a first sign-in page rendered), then measure.
  for (let i = 0; i < 5; i++) await (await fetch(`${site.url}/admin/login`)).text();
  const before = rssMb(site.pid);
  const answers = await Promise.all(
    Array.from({ length: 5 }, () =>
      postLarge(`${site.url}/admin/login`, 100 * 1024 * 1024, {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(100 * 1024 * 1024),
      }),
    ),
  );
  for (const answer of answers) expect(answer).toEqual({ status: 413, text: t.errors.bodyTooLarge });
  // Five parallel 100 MB bodies used to take the server from ~0.5 to 1.3 GB. Refused unread, what still arrives is
  // discarded as it comes (about +30 MB of buffers measured here); reading them would cost gigabytes.
  const grown = rssMb(site.pid) - before;
  expect(grown).toBeLessThan(100);

  // A body without a declared length is refused too (411), so it cannot stream forever.
  const chunked = await postLarge(`${site.url}/admin/login`, 1024, {
    "Content-Type": "application/x-www-form-urlencoded",
    "Transfer-Encoding": "chunked",
  });
  expect(chunked).toEqual({ status: 411, text: t.errors.lengthRequired });

  // An ordinary sign-in is untouched.
  const form = new URLSearchParams({ intent: "login", email: admin.email, password: admin.password, redirectTo: "/news-list" });
  const response = await fetch(`${site.url}/admin/login`, { method: "POST", body: form, redirect: "manual" });
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe("/news-list");
});

test("sem TRUST_PROXY, X-Forwarded-For não muda o endereço contado nos limites de login", async ({ launchSite }) => {
  const site = await launchSite({ env: { LOGIN_RATE_LIMIT: "2" } });
  const attempt = (forwardedFor: string) =>
    fetch(`${site.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": forwardedFor },
      body: new URLSearchParams({ intent: "login", email: "alguem@redacao.example", password: "errada" }),
    });
  // Each attempt claims another address; without a declared proxy they all count for 127.0.0.1.
  expect((await attempt("203.0.113.1")).status).toBe(401);
  expect((await attempt("203.0.113.2")).status).toBe(401);
  const third = await attempt("203.0.113.3");
  expect(third.status).toBe(429);
  expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
});

test("um formulário que chega a conta-gotas (1 byte/s) é cortado com 408 em português no prazo (BODY_TIMEOUT_SECONDS)", async ({ launchSite }) => {
  const site = await launchSite({ env: SHORT_DEADLINE });
  const started = Date.now();
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const body = "intent=login&email=a%40b.example&password=x".padEnd(2000, "x");
    const request = http.request(`${site.url}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(body.length) },
    });
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < body.length) request.write(body[sent++]!);
    }, 1000);
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => {
        clearInterval(drip);
        resolve({ status: response.statusCode ?? 0, text });
      });
    });
    request.on("error", (error) => {
      clearInterval(drip);
      reject(error);
    });
  });
  expect(answer).toEqual({ status: 408, text: t.errors.bodyTimeout });
  // Cut by the deadline for forms, not at once.
  expect((Date.now() - started) / 1000).toBeGreaterThanOrEqual(DEADLINE_SECONDS);
});

/**
 * A body sent `chunk` bytes every `everyMs` (never faster), from `localAddress`: when the answer came and when the
 * server closed the connection, in seconds from the start. With `expectContinue` the request asks for a
 * "100 Continue" (`continued` resolves when it comes; the body drips all the same, the server reads it either way).
 */
function dripBody(
  url: string,
  options: {
    declared: number;
    headers?: Record<string, string>;
    localAddress?: string;
    chunk?: number;
    everyMs?: number;
    expectContinue?: boolean;
  },
) {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  const request = http.request(url, {
    method: "POST",
    agent: false,
    localAddress: options.localAddress,
    headers: {
      "Content-Type": "multipart/form-data; boundary=x",
      "Content-Length": String(options.declared),
      ...(options.expectContinue ? { Expect: "100-continue" } : {}),
      ...options.headers,
    },
  });
  const continued = new Promise<void>((resolve) => request.once("continue", () => resolve()));
  request.flushHeaders();
  let sent = 0;
  const drip = setInterval(() => {
    if (sent < options.declared && !request.destroyed) {
      const size = Math.min(options.chunk ?? 1, options.declared - sent);
      sent += size;
      request.write(Buffer.alloc(size, "a"));
    }
  }, options.everyMs ?? 1000);
  request.on("error", () => undefined);
  let answered = false;
  const answer = new Promise<{ status: number; text: string; at: number }>((resolve) => {
    request.on("response", (response) => {
      answered = true;
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part) => (text += part));
      const done = () => resolve({ status: response.statusCode ?? 0, text, at: seconds() });
      response.on("end", done);
      response.on("error", done);
    });
  });
  const closed = new Promise<number>((resolve) => request.on("socket", (socket) => socket.once("close", () => resolve(seconds()))));
  void closed.then(() => clearInterval(drip));
  return { answer, answered: () => answered, continued, closed, stop: () => request.destroy() };
}

test("envios anônimos a conta-gotas (1 byte/s) para /api/news e /add-news: a resposta vem e a conexão fecha no prazo", async ({ launchSite }) => {
  const site = await launchSite({ env: SHORT_DEADLINE });
  for (const path of ["/api/news", "/add-news"]) {
    const body = dripBody(`${site.url}${path}`, { declared: 5 * 1024 * 1024, headers: { Origin: site.url } });
    const answer = await body.answer;
    expect([401, 302, 403], `${path}: ${answer.status}`).toContain(answer.status);
    expect((await body.closed) - answer.at, path).toBeLessThanOrEqual(DEADLINE_SECONDS + 1);
  }
});

test("um envio de administrador a conta-gotas (1 byte/s), que o servidor lê, é cortado com 408 na primeira janela da taxa mínima (o dobro do prazo), não em ~5 min", async ({
  launchSite,
}) => {
  const site = await launchSite({ env: SHORT_DEADLINE });
  const admin = await adminOf(site);
  const login = await fetch(`${site.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: site.url },
    body: new URLSearchParams({ intent: "login", email: admin.email, password: admin.password, redirectTo: "/news-list" }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
  expect(cookie).toContain(SESSION_COOKIE);
  const body = dripBody(`${site.url}/api/news`, { declared: 5 * 1024 * 1024, headers: { Origin: site.url, Cookie: cookie } });
  const answer = await body.answer;
  expect(answer).toMatchObject({ status: 408, text: t.errors.bodyTimeout });
  expect(answer.at).toBeGreaterThanOrEqual(2 * DEADLINE_SECONDS);
  expect(answer.at).toBeLessThan(2 * DEADLINE_SECONDS + 4);
});

test(`no máximo ${BODIES_IN_FLIGHT_PER_ADDRESS} corpos a caminho por endereço: o seguinte recebe 429 na hora; outro endereço segue`, async ({
  launchSite,
}) => {
  test.setTimeout(60_000);
  const site = await launchSite();
  // Sign-in forms the server reads, trickled: each stays in flight (until the 15 s cut).
  const form = { declared: 2000, headers: { Origin: site.url, "Content-Type": "application/x-www-form-urlencoded" }, everyMs: 200 };
  const held = Array.from({ length: BODIES_IN_FLIGHT_PER_ADDRESS }, () =>
    dripBody(`${site.url}/admin/login`, { ...form, localAddress: "127.0.0.2", expectContinue: true }),
  );
  // Node sends a request's "100 Continue" as it takes the request in, and in the same turn the body watch (first on
  // every request, server/slow-body.ts) counts it: once every held one has had it, all of them count. (A refused one
  // has it too: that none of these was refused is checked on their answers below.)
  await Promise.all(held.map((body) => body.continued));
  const started = Date.now();
  const refused = dripBody(`${site.url}/admin/login`, { ...form, localAddress: "127.0.0.2" });
  const answer = await refused.answer;
  expect(answer).toMatchObject({ status: 429, text: t.errors.tooManyBodies });
  expect(Date.now() - started).toBeLessThan(3000);
  expect(held.filter((body) => body.answered()).length, "corpos dentro do limite recusados").toBe(0);
  // Another address is not affected.
  const other = await fetch(`${site.url}/admin/login`, {
    method: "POST",
    headers: { Origin: site.url },
    body: new URLSearchParams({ intent: "login", email: "ninguem@redacao.example", password: "errada" }),
  });
  expect(other.status).toBe(401);
  for (const body of held) body.stop();
  refused.stop();
});
