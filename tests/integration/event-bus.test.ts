import { describe, expect, it } from "vitest";
import { createMemoryEventBus, type SiteEvent } from "../../app/.server/events/event-bus.ts";
import { type createPostgresEventBus, parsePayload } from "../../app/.server/events/postgres-event-bus.server.ts";
import { createTestServices, TEST_DATABASE } from "../factories/services.ts";

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
  });
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
      await expect.poll(() => details, { timeout: 5000 }).toEqual([["newsUpdated", { paths: ["/news/abc/velho", "/news/abc/novo"] }]]);
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
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(received).toEqual(["newsUpdated", "sponsorsUpdated"]);
    } finally {
      await services.close();
    }
  });

  it("reconnects after the listening connection is killed", async () => {
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
      // Events from another instance arrive only through the (re-established) listening connection.
      await expect
        .poll(
          async () => {
            await other.events.publish("newsUpdated");
            return received.length;
          },
          { timeout: 15_000, interval: 300 },
        )
        .toBeGreaterThan(0);
    } finally {
      await other.events.close();
      await other.database.close();
      await services.close();
    }
  });
});

describe.runIf(TEST_DATABASE === "postgres")("advisory lock (one sweeper at a time)", () => {
  it("a second instance does not run the task while the first holds the lock, and can after release", async () => {
    const { runExclusive } = await import("../../app/.server/db/locks.server.ts");
    const first = await createTestServices();
    const url = first.config.database.kind === "postgres" ? first.config.database.url : "";
    const second = await createTestServices(undefined, { DATABASE_URL: url });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const firstRun = runExclusive(first.database, 4242, () => held);
      await new Promise((resolve) => setTimeout(resolve, 200));
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
