/**
 * The open pages' event stream (server/event-streams.ts) on a real HTTP server on loopback: caps per address and in
 * all, what only the newsroom hears, and a client that stops reading. Nothing here touches a database: it runs once,
 * in the SQLite project.
 */
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { createEventStreamHub, type EventStreamOptions } from "#server/event-streams.ts";
import { TEST_DATABASE } from "#tests/factories/services.ts";

type Listener = (event: SiteEvent, detail: SiteEventDetail) => void;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A hub behind a server on loopback; each request's address is its `x-address` header. `emit` sends an event. */
async function startHub(options: Partial<EventStreamOptions> = {}) {
  const listeners = new Set<Listener>();
  const hub = createEventStreamHub({
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasSession: (cookie) => Boolean(cookie),
    isNewsroomMember: async () => false,
    limits: { perAddress: 20, total: 100 },
    ...options,
  });
  const server = http.createServer((req, res) => hub.handle(req, res, String(req.headers["x-address"] ?? "x")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  cleanups.push(async () => {
    hub.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    hub,
    port,
    emit: (event: SiteEvent, detail: SiteEventDetail = {}) => {
      for (const listener of listeners) listener(event, detail);
    },
  };
}

/** Opens a stream; its status, everything it received so far, and a way to close it. */
function openStream(port: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: () => string; close: () => void }>((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/events", headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("error", () => undefined);
      resolve({ status: response.statusCode ?? 0, text: () => text, close: () => request.destroy() });
    });
    request.on("error", reject);
  });
}

describe.runIf(TEST_DATABASE === "sqlite")("o fluxo de eventos das páginas abertas", () => {
  it("limita fluxos por endereço e no total com 429 em português; fechar um abre a vaga", async () => {
    const { hub, port } = await startHub({ limits: { perAddress: 2, total: 3 } });
    const a1 = await openStream(port, { "x-address": "a" });
    const a2 = await openStream(port, { "x-address": "a" });
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await openStream(port, { "x-address": "a" });
    expect(a3.status).toBe(429);
    await expect.poll(() => a3.text()).toBe(t.events.tooManyStreams);
    const b1 = await openStream(port, { "x-address": "b" });
    expect(b1.status).toBe(200);
    expect((await openStream(port, { "x-address": "c" })).status).toBe(429);
    expect(hub.size()).toBe(3);
    a1.close();
    await expect.poll(() => hub.size()).toBe(2);
    expect((await openStream(port, { "x-address": "a" })).status).toBe(200);
  });

  it("o que só a redação vê vai só aos fluxos de membros, também o que chegou enquanto o cookie era conferido", async () => {
    let answer!: (member: boolean) => void;
    const { port, emit } = await startHub({ isNewsroomMember: () => new Promise((resolve) => (answer = resolve)) });
    const reader = await openStream(port);
    const member = await openStream(port, { cookie: "sessao=1" });
    emit("newsUpdated", { paths: ["/article/rascunho"], newsroomOnly: true });
    emit("newsUpdated", { paths: ["/article/publicada"] });
    await expect.poll(() => reader.text()).toContain("/article/publicada");
    answer(true);
    await expect.poll(() => member.text()).toContain("/article/rascunho");
    expect(member.text()).toContain("/article/publicada");
    emit("liveUpdated", { live: { newsId: "rascunho", change: "created" }, newsroomOnly: true });
    emit("sponsorsUpdated");
    await expect.poll(() => reader.text()).toContain("sponsorsUpdated");
    await expect.poll(() => member.text()).toContain('"newsId":"rascunho"');
    expect(reader.text()).not.toContain("rascunho");
  });

  it("um cliente que para de ler é desligado em vez de acumular na memória; os outros recebem tudo", async () => {
    const { hub, port, emit } = await startHub();
    const reading = await openStream(port);
    // A client that sends its request and never reads a byte.
    const stuck = net.connect(port, "127.0.0.1");
    stuck.write("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
    stuck.pause();
    await expect.poll(() => hub.size()).toBe(2);
    const paths = Array.from({ length: 40 }, (_, i) => `/article/${String(i).padStart(4, "0")}${"x".repeat(2000)}`);
    for (let round = 0; round < 400 && hub.size() === 2; round++) {
      emit("newsUpdated", { paths });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => hub.size()).toBe(1);
    emit("sponsorsUpdated");
    await expect.poll(() => reading.text()).toContain("sponsorsUpdated");
    stuck.destroy();
  });
});
