import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext } from "#app/.server/context.server.ts";
import { createReadLimiter, isBotAgent, READ_LIMITS } from "#app/.server/news/reads/read-limiter.server.ts";
import { createReadCounter, hourOf, type ReadCounter } from "#app/.server/news/reads/reads.service.server.ts";
import { clientIpContext } from "#app/lib/request-context.ts";
import { action as readsAction } from "#app/routes/api/reads.ts";
import { createNews, eraseNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-reads-");

const HOUR = 3_600_000;
/** 14:25 UTC: not on an hour boundary, so "the current hour" starts 25 minutes earlier. */
const NOW = Date.UTC(2026, 10, 25, 14, 25, 0);

/** A counter on the services' database whose clock the test moves; flushes only when told. */
function counterAt(services: TestServices, clock: { now: number }): ReadCounter {
  return createReadCounter({ db: services.database.db, log: services.log, now: () => clock.now, flushMs: 3_600_000 });
}

async function rows(services: TestServices) {
  const found = await services.database.db.selectFrom("news_reads").select(["news_id", "hour", "reads"]).orderBy("hour").orderBy("news_id").execute();
  return found.map((row) => ({ ...row, reads: Number(row.reads) }));
}

/** Sets `reads` reads of `newsId` in the hour `hoursAgo` hours before NOW, through the counter (as the beacon does). */
async function readAt(counter: ReadCounter, clock: { now: number }, newsId: string, hoursAgo: number, reads: number) {
  const saved = clock.now;
  clock.now = NOW - hoursAgo * HOUR;
  for (let i = 0; i < reads; i++) counter.record(newsId);
  await counter.flush();
  clock.now = saved;
}

async function seed(services: TestServices, titles: string[]): Promise<string[]> {
  const ids: string[] = [];
  // Created one minute apart, oldest first: ties in reads list the newest first.
  for (const [index, title] of titles.entries()) {
    ids.push(await createNews(services, { media: null, title, createdAt: new Date(NOW - 86_400_000 + index * 60_000).toISOString() }));
  }
  return ids;
}

describe("contagem por hora", () => {
  it("soma as leituras de uma notícia numa linha por hora (upsert), e começa outra linha na hora seguinte", async () => {
    const services = await open();
    const [a, b] = await seed(services, ["Final da Copa", "Clássico"]);
    const clock = { now: NOW };
    const counter = counterAt(services, clock);

    counter.record(a!);
    counter.record(a!);
    counter.record(b!);
    expect(await rows(services)).toEqual([]); // nothing written before the flush
    await counter.flush();
    counter.record(a!);
    await counter.flush();
    expect(await rows(services)).toEqual(
      [
        { news_id: a, hour: "2026-11-25T14:00:00.000Z", reads: 3 },
        { news_id: b, hour: "2026-11-25T14:00:00.000Z", reads: 1 },
      ].sort((x, y) => x.news_id!.localeCompare(y.news_id!)),
    );

    clock.now = NOW + HOUR;
    counter.record(a!);
    await counter.flush();
    const all = await rows(services);
    expect(all.filter((row) => row.news_id === a)).toEqual([
      { news_id: a, hour: "2026-11-25T14:00:00.000Z", reads: 3 },
      { news_id: a, hour: "2026-11-25T15:00:00.000Z", reads: 1 },
    ]);
  });

  it("descarta leituras de uma notícia que não existe (ou foi apagada antes da gravação) sem perder as outras", async () => {
    const services = await open();
    const [a, gone] = await seed(services, ["Fica", "Sai"]);
    const counter = counterAt(services, { now: NOW });
    counter.record(a!);
    counter.record(gone!);
    counter.record("nao-existe");
    await eraseNews(services, gone!);
    await counter.flush();
    expect(await rows(services)).toEqual([{ news_id: a, hour: hourOf(NOW), reads: 1 }]);
  });

  it("apagar uma notícia apaga as contagens dela", async () => {
    const services = await open();
    const [a, b] = await seed(services, ["Apagada", "Mantida"]);
    const clock = { now: NOW };
    const counter = counterAt(services, clock);
    await readAt(counter, clock, a!, 0, 2);
    await readAt(counter, clock, a!, 30, 1);
    await readAt(counter, clock, b!, 0, 1);
    await eraseNews(services, a!);
    expect((await rows(services)).map((row) => row.news_id)).toEqual([b]);
  });
});

describe("janelas de 24 h e 7 dias", () => {
  it("Mais lidas: as últimas 24 horas (a hora atual e as 23 anteriores), da mais lida à menos lida, no máximo 5", async () => {
    const services = await open();
    const titles = ["N0", "N1", "N2", "N3", "N4", "N5", "N6"];
    const ids = await seed(services, titles);
    const clock = { now: NOW };
    const counter = counterAt(services, clock);
    await readAt(counter, clock, ids[0]!, 0, 2);
    await readAt(counter, clock, ids[0]!, 23, 5); // 23 hours before the current hour: inside → 7
    await readAt(counter, clock, ids[1]!, 24, 50); // 24 hours before: outside
    await readAt(counter, clock, ids[1]!, 1, 1); // → 1
    await readAt(counter, clock, ids[2]!, 5, 9);
    await readAt(counter, clock, ids[3]!, 0, 4);
    await readAt(counter, clock, ids[4]!, 0, 4); // ties with N3; N4 is newer, so first
    await readAt(counter, clock, ids[5]!, 0, 3);
    // N6: never read.

    const list = await counter.mostRead();
    expect(list.map((item) => [item.title, item.reads])).toEqual([
      ["N2", 9],
      ["N0", 7],
      ["N4", 4],
      ["N3", 4],
      ["N5", 3],
    ]);
    // Under an article: the article itself is left out and the next one comes in.
    expect((await counter.mostRead({ excludeId: ids[0] })).map((item) => item.title)).toEqual(["N2", "N4", "N3", "N5", "N1"]);
  });

  it("sem leituras nas últimas 24 h, a lista é vazia", async () => {
    const services = await open();
    const [a] = await seed(services, ["Antiga"]);
    const clock = { now: NOW };
    const counter = counterAt(services, clock);
    await readAt(counter, clock, a!, 24, 10);
    expect(await counter.mostRead()).toEqual([]);
  });

  it("a lista fica em memória até um minuto, e é refeita antes disso quando as notícias mudam", async () => {
    const services = await open();
    const [a, b] = await seed(services, ["A", "B"]);
    const clock = { now: NOW };
    const counter = counterAt(services, clock);
    await readAt(counter, clock, a!, 0, 2);
    expect((await counter.mostRead()).map((item) => item.title)).toEqual(["A"]);

    await readAt(counter, clock, b!, 0, 5);
    expect((await counter.mostRead()).map((item) => item.title)).toEqual(["A"]); // from memory
    clock.now += 60_000;
    expect((await counter.mostRead()).map((item) => item.title)).toEqual(["B", "A"]);

    await services.database.db.updateTable("news").set({ title: "A renomeada" }).where("id", "=", a!).execute();
    counter.invalidate();
    expect((await counter.mostRead()).map((item) => item.title)).toEqual(["B", "A renomeada"]);
  });

  it("a lista segue as mudanças publicadas no barramento de eventos (serviço do aplicativo)", async () => {
    const services = await open();
    const [a, b] = await seed(services, ["A", "B"]);
    services.reads.record(a!);
    services.reads.record(b!);
    services.reads.record(b!);
    await services.reads.flush();
    expect((await services.reads.mostRead()).map((item) => item.id)).toEqual([b, a]);
    // Deleting publishes newsUpdated: the deleted item leaves the list at once.
    await eraseNews(services, b!);
    await expect.poll(async () => (await services.reads.mostRead()).map((item) => item.id)).toEqual([a]);
  });

  it("7 dias: a hora atual e as 167 anteriores, por notícia; sem leituras é zero", async () => {
    const services = await open();
    const [a, b, c] = await seed(services, ["A", "B", "C"]);
    const clock = { now: NOW };
    const counter = counterAt(services, clock);
    await readAt(counter, clock, a!, 0, 1);
    await readAt(counter, clock, a!, 100, 2);
    await readAt(counter, clock, a!, 167, 3); // inside
    await readAt(counter, clock, a!, 168, 40); // outside
    await readAt(counter, clock, b!, 168, 7); // outside only
    const week = await counter.readsLastWeek([a!, b!, c!]);
    expect(week.get(a!)).toBe(6);
    expect(week.has(b!)).toBe(false);
    expect(week.has(c!)).toBe(false);
    expect(await counter.readsLastWeek([])).toEqual(new Map());
  });
});

describe("limite por cliente e robôs", () => {
  it("conta até 4 leituras por notícia e 60 no total por cliente e hora, e recomeça na hora seguinte", () => {
    const clock = { now: NOW };
    const limiter = createReadLimiter(undefined, () => clock.now);
    const allowed = (ip: string, id: string, times: number) => Array.from({ length: times }, () => limiter.allow(ip, id)).filter(Boolean).length;
    expect(allowed("203.0.113.7", "a", 10)).toBe(4);
    expect(allowed("203.0.113.8", "a", 2)).toBe(2); // another client has its own allowance
    let total = 4;
    for (let i = 0; total < 60; i++) total += allowed("203.0.113.7", `n${i}`, 4);
    expect(limiter.allow("203.0.113.7", "outra")).toBe(false);
    clock.now += 3_600_000;
    expect(limiter.allow("203.0.113.7", "a")).toBe(true);
  });

  it("uma rede conta como um cliente: 50 endereços de um /24 ou mil de um /64 somam no máximo 8 leituras de uma notícia", () => {
    const limiter = createReadLimiter(undefined, () => NOW);
    const allowedFrom = (addresses: string[], id: string, times: number) =>
      addresses.flatMap((ip) => Array.from({ length: times }, () => limiter.allow(ip, id))).filter(Boolean).length;
    const loopback = Array.from({ length: 50 }, (_, i) => `127.0.0.${i + 1}`);
    expect(allowedFrom(loopback, "alvo", 5)).toBe(READ_LIMITS.perNetworkArticle);
    // One IPv6 client can use every address of its /64 (written every way an address can be).
    const sixty4 = Array.from({ length: 1000 }, (_, i) => `2001:db8:7:9:${(i + 1).toString(16)}::1`);
    expect(allowedFrom([...sixty4, "2001:DB8:7:9::abcd%eth0", "2001:0db8:0007:0009:0:0:0:2"], "alvo", 1)).toBe(READ_LIMITS.perNetworkArticle);
    // An IPv4-mapped IPv6 address is its IPv4 network.
    expect(allowedFrom(["::ffff:198.51.100.1", "198.51.100.2", "::ffff:c633:6403"], "outro", 4)).toBe(READ_LIMITS.perNetworkArticle);
    // All news together: at most perNetwork reads from one network, however many addresses and ids it uses.
    let total = 0;
    for (let i = 0; i < 400; i++) total += allowedFrom([`2001:db8:8:1::${i + 1}`], `n${i}`, 1);
    expect(total).toBe(READ_LIMITS.perNetwork);
    // The neighbouring networks keep their own allowances.
    expect(limiter.allow("127.0.1.1", "alvo")).toBe(true);
    expect(limiter.allow("2001:db8:7:a::1", "alvo")).toBe(true);
  });

  it("com a tabela cheia, quem chega ainda é contado (sai o contador usado há mais tempo) e a tabela não passa do limite", () => {
    const limits = { ...READ_LIMITS, maxCounters: 40 };
    const limiter = createReadLimiter(limits, () => NOW);
    // 100 new networks, one read each: each fresh reader counts, the table stays bounded.
    for (let i = 0; i < 100; i++) {
      expect(limiter.allow(`10.${i}.0.1`, "a")).toBe(true);
      expect(limiter.size()).toBeLessThanOrEqual(limits.maxCounters);
    }
    // A reader seen a moment ago is still capped: its counters are the most recently used.
    for (let i = 0; i < 3; i++) expect(limiter.allow("10.99.0.1", "a")).toBe(true);
    expect(limiter.allow("10.99.0.1", "a")).toBe(false);
  });

  it("a tabela de uma hora movimentada nunca passa do limite de contadores", () => {
    const limits = { ...READ_LIMITS, maxCounters: 20_000 };
    const limiter = createReadLimiter(limits, () => NOW);
    let largest = 0;
    for (let i = 0; i < limits.maxCounters; i++) {
      // A new /64 and a 36-character id each time: four new counters per read, four times what the table holds.
      expect(limiter.allow(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`, `${i}`.padStart(36, "0"))).toBe(true);
      largest = Math.max(largest, limiter.size());
    }
    expect(largest).toBeLessThanOrEqual(limits.maxCounters);
    expect(limiter.size()).toBeGreaterThanOrEqual(limits.maxCounters / 2 - 4);
  });

  it("pelo beacon (/api/reads): 50 endereços de 127.0.0.x lendo 5 vezes uma notícia somam 8 leituras, não 204", async () => {
    const services = await open();
    const [id] = await seed(services, ["Alvo"]);
    const beacon = (address: string) => {
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      context.set(clientIpContext, address);
      const request = new Request("http://127.0.0.1/api/reads", {
        method: "POST",
        body: JSON.stringify({ id }),
        headers: { "Content-Type": "application/json", "X-Read-Beacon": "1", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0" },
      });
      return readsAction({ request, context, params: {}, url: new URL(request.url), pattern: "/api/reads" } as Parameters<typeof readsAction>[0]);
    };
    for (let i = 1; i <= 50; i++) for (let n = 0; n < 5; n++) expect((await beacon(`127.0.0.${i}`)).status).toBe(204);
    for (let i = 1; i <= 50; i++) await beacon(`2001:db8:5:6:${i.toString(16)}::1`);
    await services.reads.flush();
    expect((await rows(services)).reduce((sum, row) => sum + row.reads, 0)).toBe(2 * READ_LIMITS.perNetworkArticle);
  });

  it("reconhece robôs pelo User-Agent (e a falta dele)", () => {
    expect(isBotAgent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(true);
    expect(isBotAgent("curl/8.5.0")).toBe(true);
    expect(isBotAgent("")).toBe(true);
    expect(isBotAgent(null)).toBe(true);
    expect(isBotAgent("Mozilla/5.0 (Linux; Android 14; moto g54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")).toBe(
      false,
    );
  });
});
