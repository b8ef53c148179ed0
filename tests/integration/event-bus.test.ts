import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createMemoryEventBus, type SiteEvent } from "#app/.server/events/event-bus.ts";
import { createPostgresEventBus, parsePayload } from "#app/.server/events/postgres-event-bus.server.ts";
import type { createSqliteEventBus } from "#app/.server/events/sqlite-event-bus.server.ts";
import { recordingLogger } from "#tests/factories/recording-logger.ts";
import { countRows, createTestServices, TEST_DATABASE } from "#tests/factories/services.ts";
import { startTcpProxy } from "#tests/factories/tcp-proxy.ts";
import { useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-events-");
const run = promisify(execFile);

/** `npm run seed:news` as its own process, on the test's database. */
function seedNewsProcess(services: Awaited<ReturnType<typeof open>>, count: number) {
  const database = services.config.database;
  return run(process.execPath, [path.resolve("scripts/seed-news.ts"), "--count", String(count), "--images", "0"], {
    env: {
      ...process.env,
      DATA_DIR: services.dataDir,
      ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : {}),
      SEED_DEMO: "0",
      NODE_ENV: "production",
    },
    timeout: 60_000,
  });
}

describe("memory event bus", () => {
  it("delivers each event to every subscriber until it unsubscribes, and ends streams on close", async () => {
    const bus = createMemoryEventBus();
    const a: SiteEvent[] = [];
    const b: SiteEvent[] = [];
    const offA = bus.subscribe((event) => a.push(event));
    bus.subscribe((event) => b.push(event));
    let closed = 0;
    bus.onClose(() => closed++);
    await bus.publish("newsUpdated");
    offA();
    await bus.publish("sponsorsUpdated");
    expect(a).toEqual(["newsUpdated"]);
    expect(b).toEqual(["newsUpdated", "sponsorsUpdated"]);
    await bus.close();
    expect(closed).toBe(1);
  });
});

describe("event details", () => {
  it("the memory bus hands each listener the event's detail", async () => {
    const bus = createMemoryEventBus();
    const received: unknown[] = [];
    bus.subscribe((event, detail) => received.push([event, detail]));
    await bus.publish("newsUpdated", { paths: ["/news/a", "/news/a.data"] });
    await bus.publish("resync");
    expect(received).toEqual([
      ["newsUpdated", { paths: ["/news/a", "/news/a.data"] }],
      ["resync", {}],
    ]);
  });

  it("a notification's payload is read back, and a foreign or broken one is ignored or stripped of its detail", () => {
    expect(parsePayload('abc:newsUpdated:{"paths":["/news/x"]}')).toEqual({ from: "abc", event: "newsUpdated", detail: { paths: ["/news/x"] } });
    expect(parsePayload("abc:resync")).toEqual({ from: "abc", event: "resync", detail: {} });
    expect(parsePayload("sponsorsUpdated")).toEqual({ from: null, event: "sponsorsUpdated", detail: {} });
    expect(parsePayload("abc:dropTables")).toBeNull();
    expect(parsePayload("abc:newsUpdated:{not json")).toEqual({ from: "abc", event: "newsUpdated", detail: {} });
    expect(parsePayload('abc:newsUpdated:{"paths":[1,"/news/y"]}')).toEqual({ from: "abc", event: "newsUpdated", detail: { paths: ["/news/y"] } });
    // A live story's change carries what changed; a made-up change is dropped, the paths kept.
    expect(parsePayload('abc:liveUpdated:{"paths":["/article/n1"],"live":{"newsId":"n1","updateId":"u1","change":"created"}}')).toEqual({
      from: "abc",
      event: "liveUpdated",
      detail: { paths: ["/article/n1"], live: { newsId: "n1", updateId: "u1", change: "created" } },
    });
    expect(parsePayload('abc:liveUpdated:{"paths":["/article/n1"],"live":{"newsId":"n1","change":"dropped"}}')).toEqual({
      from: "abc",
      event: "liveUpdated",
      detail: { paths: ["/article/n1"] },
    });
    // With the update and the coverage it carries (an update without its images' map is passed without either); a
    // score change of one story says which.
    const update = { id: "u1", text: "Gol", body: { type: "doc" } };
    const coverage = { state: "live", scoreboard: null };
    expect(parsePayload(`abc:liveUpdated:${JSON.stringify({ live: { newsId: "n1", change: "created", update, media: {}, coverage } })}`)).toEqual({
      from: "abc",
      event: "liveUpdated",
      detail: { live: { newsId: "n1", change: "created", update, media: {}, coverage } },
    });
    expect(parsePayload(`abc:liveUpdated:${JSON.stringify({ live: { newsId: "n1", change: "created", update, coverage: "x" } })}`)).toEqual({
      from: "abc",
      event: "liveUpdated",
      detail: { live: { newsId: "n1", change: "created" } },
    });
    expect(parsePayload('abc:newsUpdated:{"paths":["/article/n1"],"liveStory":"n1"}')).toEqual({
      from: "abc",
      event: "newsUpdated",
      detail: { paths: ["/article/n1"], liveStory: "n1" },
    });
  });
});

describe("events sent with a commit", () => {
  it("go out only if the transaction commits, after it, in order, with their detail", async () => {
    const services = await open();
    const url = services.config.database.kind === "postgres" ? services.config.database.url : null;
    const other = url ? await createTestServices(undefined, { DATABASE_URL: url }) : null;
    try {
      const here: unknown[] = [];
      const there: unknown[] = [];
      services.events.subscribe((event, detail) => event !== "resync" && here.push([event, detail]));
      other?.events.subscribe((event, detail) => event !== "resync" && there.push([event, detail]));
      await (other?.events as ReturnType<typeof createPostgresEventBus> | undefined)?.listening();
      const { db } = services.database;
      // Sent, then the transaction fails: nothing is delivered anywhere, nothing is written.
      await expect(
        services.events.withCommit(db, async (trx, send) => {
          await trx.insertInto("app_settings").values({ key: "k1", value: "v" }).execute();
          await send("newsUpdated", { paths: ["/news/a"] });
          throw new Error("after the send");
        }),
      ).rejects.toThrow("after the send");
      expect(here).toEqual([]);
      expect(await countRows(services, "app_settings")).toBe(0);
      const result = await services.events.withCommit(db, async (trx, send) => {
        await trx.insertInto("app_settings").values({ key: "k2", value: "v" }).execute();
        await send("newsUpdated", { paths: ["/news/b"] });
        // Not delivered yet: the transaction has not committed.
        expect(here).toEqual([]);
        await send("sponsorsUpdated");
        return 42;
      });
      expect(result).toBe(42);
      const expected = [
        ["newsUpdated", { paths: ["/news/b"] }],
        ["sponsorsUpdated", {}],
      ];
      expect(here).toEqual(expected);
      if (other) {
        // Marked as heard from another instance (a shared fan-out got it from this one: server/nchan-publisher.ts).
        const heardThere = expected.map(([event, detail]) => [event, { ...(detail as object), remote: true }]);
        await expect.poll(() => there, { timeout: 5000 }).toEqual(heardThere);
        // And nothing more: PostgreSQL delivers notifications in the order their transactions committed, so one sent
        // now comes after anything the commit above sent (twice, say).
        await services.events.publish("newsUpdated", { paths: ["/depois"] });
        await expect.poll(() => there, { timeout: 5000 }).toEqual([...heardThere, ["newsUpdated", { paths: ["/depois"], remote: true }]]);
      }
    } finally {
      await other?.close();
    }
  });
});

describe.runIf(TEST_DATABASE === "sqlite")("SQLite: changes made by another process", () => {
  it("a second process writing to the file (npm run seed:news) makes this one's subscribers get resync within 2 s; its own writes do not", async () => {
    const services = await open();
    const bus = services.events as ReturnType<typeof createSqliteEventBus>;
    const received: Array<{ event: SiteEvent; at: number }> = [];
    bus.subscribe((event) => received.push({ event, at: Date.now() }));
    await bus.checkNow();
    // This process's own writes are not another process's: no resync.
    await services.database.db.insertInto("app_settings").values({ key: "own", value: "write" }).execute();
    // The look the timer makes once a second, made now: the version moved for this connection's own write only.
    await bus.checkNow();
    expect(received).toEqual([]);
    const child = seedNewsProcess(services, 3);
    await child;
    const exited = Date.now();
    expect(await countRows(services, "news")).toBe(3);
    await expect.poll(() => received.map((entry) => entry.event), { timeout: 2_000, interval: 50 }).toContain("resync");
    expect(received[0]!.at - exited).toBeLessThan(2_000);
  }, 60_000);
});

describe.runIf(TEST_DATABASE === "postgres")("PostgreSQL: commands reach running servers", () => {
  it("npm run seed:news publishes newsUpdated through LISTEN/NOTIFY", async () => {
    const services = await open();
    const bus = services.events as ReturnType<typeof createPostgresEventBus>;
    const received: SiteEvent[] = [];
    bus.subscribe((event) => received.push(event));
    await bus.listening();
    await seedNewsProcess(services, 3);
    await expect.poll(() => received, { timeout: 5000 }).toContain("newsUpdated");
  }, 60_000);
});

describe.runIf(TEST_DATABASE === "postgres")("PostgreSQL event bus (LISTEN/NOTIFY)", () => {
  it("an event published by one instance reaches the subscribers of another", async () => {
    const first = await createTestServices();
    const url = first.config.database.kind === "postgres" ? first.config.database.url : "";
    const second = await createTestServices(undefined, { DATABASE_URL: url });
    try {
      const received: SiteEvent[] = [];
      const bus = second.events as ReturnType<typeof createPostgresEventBus>;
      bus.subscribe((event) => received.push(event));
      await bus.listening();
      await first.events.publish("newsUpdated");
      await first.events.publish("sponsorsUpdated");
      await expect.poll(() => received, { timeout: 5000 }).toEqual(["newsUpdated", "sponsorsUpdated"]);
      const details: unknown[] = [];
      bus.subscribe((event, detail) => details.push([event, detail]));
      await first.events.publish("newsUpdated", { paths: ["/news/abc/velho", "/news/abc/novo"] });
      await expect.poll(() => details, { timeout: 5000 }).toEqual([["newsUpdated", { paths: ["/news/abc/velho", "/news/abc/novo"], remote: true }]]);
    } finally {
      await second.events.close();
      await second.database.close();
      await first.close();
    }
  });

  it("the publishing instance's own subscribers get the event at once, and only once", async () => {
    const services = await createTestServices();
    try {
      const bus = services.events as ReturnType<typeof createPostgresEventBus>;
      const received: SiteEvent[] = [];
      bus.subscribe((event) => received.push(event));
      await bus.listening();
      await services.events.publish("newsUpdated");
      // Delivered before publish resolved (the page cache is stale before the write is answered)…
      expect(received).toEqual(["newsUpdated"]);
      // …and its own notification, when it comes back from PostgreSQL, is not delivered again.
      await services.events.publish("sponsorsUpdated");
      const sent = Date.now();
      // Every notification committed before a round trip on the listening connection has arrived once it is back.
      await expect.poll(() => bus.currentAsOf!() > sent, { timeout: 5_000, interval: 50 }).toBe(true);
      expect(received).toEqual(["newsUpdated", "sponsorsUpdated"]);
    } finally {
      await services.close();
    }
  });

  it("reconnects after the listening connection is killed, and tells its subscribers to resync", async () => {
    const services = await createTestServices();
    const url = services.config.database.kind === "postgres" ? services.config.database.url : "";
    const other = await createTestServices(undefined, { DATABASE_URL: url });
    try {
      const bus = services.events as ReturnType<typeof createPostgresEventBus>;
      const received: SiteEvent[] = [];
      bus.subscribe((event) => received.push(event));
      await bus.listening();
      const { sql } = await import("kysely");
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where query like 'listen %' and datname = current_database()`.execute(
        services.database.db,
      );
      // Whatever was sent while it was down is lost: once it listens again, its subscribers get resync.
      await expect.poll(() => received, { timeout: 15_000, interval: 100 }).toContain("resync");
      expect(received.filter((event) => event === "resync")).toHaveLength(1);
      // Events from another instance arrive only through the (re-established) listening connection.
      await expect
        .poll(
          async () => {
            await other.events.publish("newsUpdated");
            return received.includes("newsUpdated");
          },
          { timeout: 15_000, interval: 300 },
        )
        .toBe(true);
    } finally {
      await other.events.close();
      await other.database.close();
      await services.close();
    }
  });
});

describe.runIf(TEST_DATABASE === "postgres")("PostgreSQL: a cut database link", () => {
  it("events missed while the link was down (cut, or down from the start) end in one resync once the bus listens again", async () => {
    const services = await open();
    const url = new URL(services.config.database.kind === "postgres" ? services.config.database.url : "");
    const proxy = await startTcpProxy(Number(url.port || 5432));
    url.port = String(proxy.port);
    // Down from the start: its first attempts fail.
    await proxy.cut();
    const { log, lines } = recordingLogger();
    const failedAttempts = () => lines.filter((line) => line.msg === "event bus could not connect; retrying").length;
    const bus = createPostgresEventBus({ url: url.href, db: services.database.db, log });
    try {
      const received: SiteEvent[] = [];
      bus.subscribe((event) => received.push(event));
      // Two attempts refused (the second after its backoff), nothing delivered meanwhile.
      await expect.poll(failedAttempts, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(2);
      expect(received).toEqual([]);
      await proxy.restore();
      await expect.poll(() => received, { timeout: 10_000, interval: 100 }).toEqual(["resync"]);
      // Up, then cut while another instance publishes: that event is lost, the resync is not. The bus notices the
      // cut and tries twice more, in vain, before the link is back.
      const beforeCut = failedAttempts();
      await proxy.cut();
      await services.events.publish("newsUpdated");
      await expect.poll(failedAttempts, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(beforeCut + 2);
      expect(received).toEqual(["resync"]);
      await proxy.restore();
      await expect.poll(() => received, { timeout: 10_000, interval: 100 }).toEqual(["resync", "resync"]);
      // Listening again: the next event arrives as itself.
      await expect
        .poll(
          async () => {
            await services.events.publish("sponsorsUpdated");
            return received.includes("sponsorsUpdated");
          },
          { timeout: 10_000, interval: 300 },
        )
        .toBe(true);
    } finally {
      await bus.close();
      await proxy.close();
    }
  }, 40_000);
});

describe.runIf(TEST_DATABASE === "postgres")("advisory lock (one sweeper at a time)", () => {
  it("a second instance does not run the task while the first holds the lock, and can after release", async () => {
    const { runExclusive } = await import("#app/.server/db/locks.server.ts");
    const first = await createTestServices();
    const url = first.config.database.kind === "postgres" ? first.config.database.url : "";
    const second = await createTestServices(undefined, { DATABASE_URL: url });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let taken!: () => void;
      const holding = new Promise<void>((resolve) => (taken = resolve));
      // The task runs once the first instance holds the lock.
      const firstRun = runExclusive(first.database, 4242, () => {
        taken();
        return held;
      });
      await holding;
      let secondRan = false;
      expect(await runExclusive(second.database, 4242, async () => (secondRan = true))).toBe(false);
      expect(secondRan).toBe(false);
      release();
      expect(await firstRun).toBe(true);
      expect(await runExclusive(second.database, 4242, async () => (secondRan = true))).toBe(true);
      expect(secondRan).toBe(true);
    } finally {
      await second.events.close();
      await second.database.close();
      await first.close();
    }
  });
});
