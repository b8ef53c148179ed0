/**
 * The slow-body watch (server/slow-body.ts) on a real HTTP server on loopback, with short timeouts: every body is
 * cut, drained or closed in bounded time whether or not anything reads it, and one address has at most N in flight.
 * (tests/e2e/body-limits.spec.ts checks the production server with the real timeouts.)
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { t } from "#app/i18n/pt-BR.ts";
import { createSlowBodyWatch } from "#server/slow-body.ts";

const TIMEOUTS = { formMs: 1_500, rateWindowMs: 1_500, afterAnswerMs: 1_500, checkEveryMs: 100 };

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose handler either answers 401 at once (never reading) or reads the whole body, then answers 200. */
async function serve(watch: ReturnType<typeof createSlowBodyWatch>) {
  const server = http.createServer((req, res) => {
    if (watch.watch(req, res)) return;
    if (req.url === "/early") return void res.writeHead(401, { "Content-Type": "text/plain" }).end("não");
    if (req.url === "/early-reading") {
      // What React Router's request does: the body stays attached to a stream that keeps reading it.
      req.on("data", () => undefined);
      req.on("error", () => undefined);
      return void res.writeHead(401, { "Content-Type": "text/plain" }).end("não");
    }
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => res.writeHead(200).end(String(bytes)));
    req.on("error", () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Trickle {
  /** The answer (status and text), when one comes. */
  answer: Promise<{ status: number; text: string; at: number }>;
  /** When the server closed the connection (ms since the start). */
  closed: Promise<number>;
  stop(): void;
}

/** Sends `declared` bytes as `chunk` bytes every `everyMs`, from `localAddress`. */
function trickle(url: string, options: { declared: number; chunk: number; everyMs: number; localAddress?: string }): Trickle {
  const started = Date.now();
  const request = http.request(url, {
    method: "POST",
    localAddress: options.localAddress,
    agent: false,
    headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(options.declared) },
  });
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= options.declared || request.destroyed) return;
    const size = Math.min(options.chunk, options.declared - sent);
    sent += size;
    request.write(Buffer.alloc(size, "a"));
    if (sent >= options.declared) request.end();
  }, options.everyMs);
  request.flushHeaders();
  const answer = new Promise<{ status: number; text: string; at: number }>((resolve) => {
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part) => (text += part));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text, at: Date.now() - started }));
      response.on("error", () => resolve({ status: response.statusCode ?? 0, text, at: Date.now() - started }));
    });
  });
  const closed = new Promise<number>((resolve) => {
    request.on("socket", (socket) => socket.once("close", () => resolve(Date.now() - started)));
  });
  request.on("error", () => undefined);
  closed.finally(() => clearInterval(timer));
  return {
    answer,
    closed,
    stop() {
      clearInterval(timer);
      request.destroy();
    },
  };
}

describe("slow bodies", () => {
  it("answered early (401), read or not: the connection goes within afterAnswerMs of the answer", async () => {
    const url = await serve(createSlowBodyWatch({ timeouts: TIMEOUTS }));
    const slow = trickle(`${url}/early-reading`, { declared: 1_000_000, chunk: 1, everyMs: 50 });
    const answer = await slow.answer;
    expect(answer.status).toBe(401);
    // Node 24 itself closes such a connection when the answer ends; the watch is the bound whatever Node does.
    expect((await slow.closed) - answer.at).toBeLessThan(TIMEOUTS.afterAnswerMs + 1_000);
    const unread = trickle(`${url}/early`, { declared: 1_000_000, chunk: 1, everyMs: 50 });
    const early = await unread.answer;
    expect(early.status).toBe(401);
    expect((await unread.closed) - early.at).toBeLessThan(TIMEOUTS.afterAnswerMs + 1_000);
  });

  it("an upload read by the app, trickled below the minimum rate, is cut with 408 in pt-BR; one at a decent rate arrives whole", async () => {
    const url = await serve(createSlowBodyWatch({ timeouts: TIMEOUTS, minBytesPerSecond: 10_000 }));
    const slow = trickle(`${url}/read`, { declared: 1_000_000, chunk: 100, everyMs: 50 }); // 2 kB/s
    const fast = trickle(`${url}/read`, { declared: 200_000, chunk: 2_000, everyMs: 10 }); // ~200 kB/s
    const cut = await slow.answer;
    expect(cut).toMatchObject({ status: 408, text: t.errors.bodyTimeout });
    expect(cut.at).toBeGreaterThanOrEqual(TIMEOUTS.rateWindowMs);
    expect(cut.at).toBeLessThan(TIMEOUTS.rateWindowMs + 1_000);
    await slow.closed;
    expect(await fast.answer).toMatchObject({ status: 200, text: "200000" });
  });

  it("a small body (a form) must arrive whole within formMs, however steady it is", async () => {
    const url = await serve(createSlowBodyWatch({ timeouts: TIMEOUTS, minBytesPerSecond: 1 }));
    const form = trickle(`${url}/read`, { declared: 2_000, chunk: 10, everyMs: 50 }); // 200 B/s: 10 s for the whole
    const cut = await form.answer;
    expect(cut).toMatchObject({ status: 408, text: t.errors.bodyTimeout });
    expect(cut.at).toBeLessThan(TIMEOUTS.formMs + 1_000);
  });

  it("at most N bodies in flight per address: the next one from that address is a 429 at once, other addresses go on", async () => {
    const watch = createSlowBodyWatch({ timeouts: { ...TIMEOUTS, formMs: 60_000, rateWindowMs: 60_000 }, perAddress: 3 });
    const url = await serve(watch);
    const held = Array.from({ length: 3 }, () => trickle(`${url}/read`, { declared: 100_000, chunk: 1, everyMs: 100, localAddress: "127.0.0.2" }));
    await expect.poll(() => watch.inFlight().get("127.0.0.2")).toBe(3);
    const refused = trickle(`${url}/read`, { declared: 100_000, chunk: 1, everyMs: 100, localAddress: "127.0.0.2" });
    expect(await refused.answer).toMatchObject({ status: 429, text: t.errors.tooManyBodies });
    const other = trickle(`${url}/read`, { declared: 100, chunk: 100, everyMs: 10, localAddress: "127.0.0.3" });
    expect(await other.answer).toMatchObject({ status: 200, text: "100" });
    // Bodies that end (here: their clients go away) free their places.
    for (const body of held) body.stop();
    await expect.poll(() => watch.inFlight().size).toBe(0);
    refused.stop();
  });

  it("a keep-alive connection carrying 20 bodies keeps no listener of theirs: no MaxListenersExceededWarning, counts settle", async () => {
    const watch = createSlowBodyWatch({ timeouts: TIMEOUTS });
    const sockets = new Set<unknown>();
    const closeListeners: number[] = [];
    let ownDestroySoon = 0;
    const server = http.createServer((req, res) => {
      if (watch.watch(req, res)) return;
      sockets.add(req.socket);
      req.resume();
      // The watch's own "end" listener ran first (it was added first): what is left on the socket is what stays.
      req.on("end", () => {
        closeListeners.push(req.socket.listenerCount("close"));
        // The early-answer close (lingerIfAnsweredEarly) is this request's only: gone once its body has arrived.
        if (Object.hasOwn(req.socket, "destroySoon")) ownDestroySoon++;
        res.writeHead(200).end("ok");
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 20; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const request = http.request(`${url}/read`, { method: "POST", agent, headers: { "Content-Type": "application/json" } }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          });
          request.on("error", reject);
          request.end(JSON.stringify({ id: `noticia-${i}` }));
        });
        expect(status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
    process.off("warning", onWarning);
    expect(sockets.size).toBe(1);
    expect(closeListeners).toHaveLength(20);
    // The same few listeners (Node's own) after the 20th request as after the first: none left per request.
    expect(Math.max(...closeListeners)).toBe(closeListeners[0]);
    expect(ownDestroySoon).toBe(0);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    await expect.poll(() => watch.inFlight().size).toBe(0);
  });
});
