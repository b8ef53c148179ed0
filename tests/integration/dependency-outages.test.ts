import { randomBytes } from "node:crypto";
import net from "node:net";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { recordingLogger } from "#tests/factories/recording-logger.ts";
import { loader as mediaLoader } from "#app/routes/resources/media.ts";
import { loader as readyzLoader } from "#app/routes/resources/readyz.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { startTcpProxy } from "#tests/factories/tcp-proxy.ts";
import { useTestServices } from "#tests/factories/use-services.ts";
import { startS3Server } from "#tests/storage/s3-server.ts";

/**
 * What the site does when a dependency other than the database goes away: Redis (shared rate limits) and the S3
 * media store. Real Redis (127.0.0.1:6379) behind a TCP proxy the test cuts, a closed port, and a real s3rver the
 * test stops; both databases.
 */
const open = useTestServices("eef-outages-");
const REDIS_PORT = Number(new URL(process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379").port || 6379);

/** The event link's check: only PostgreSQL's bus has a link that can be cut (SQLite reads the shared file). */
const eventsCheck = (services: AppServices) => (services.events.currentAsOf ? { events: "ok" } : {});
const WARN = 40;
const INFO = 30;

function contextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

async function readyz(services: AppServices): Promise<{ status: number; body: { status: string; checks: Record<string, string> } }> {
  const url = "http://127.0.0.1/readyz";
  const response = await readyzLoader({
    request: new Request(url),
    context: contextOf(services),
    params: {},
    url: new URL(url),
    pattern: "/readyz",
  } as Parameters<typeof readyzLoader>[0]);
  return { status: response.status, body: await response.json() };
}

function media(services: AppServices, key: string): Promise<Response> {
  const url = `http://127.0.0.1/media/${key}`;
  return mediaLoader({
    request: new Request(url),
    context: contextOf(services),
    params: { "*": key },
    url: new URL(url),
    pattern: "/media/*",
  } as Parameters<typeof mediaLoader>[0]);
}

/** A port on 127.0.0.1 nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function signIn(services: AppServices, email: string, password: string, ip: string) {
  return services.auth.signInWithPassword({ email, password, ip, headers: new Headers() });
}

/** Records how long each rate-limit check of the services takes (the auth service calls the same object). */
function timeChecks(services: AppServices): number[] {
  const durations: number[] = [];
  const limiter = services.rateLimiter;
  const hit = limiter.hit.bind(limiter);
  limiter.hit = async (...args) => {
    const started = performance.now();
    try {
      return await hit(...args);
    } finally {
      durations.push(performance.now() - started);
    }
  };
  return durations;
}

/**
 * Whether `check` settles before the event loop's next turn: it waited for no connection, command, timer or other I/O
 * (counted in memory). A check that waited for Redis, even 1 ms, would still be pending then.
 */
async function answersAtOnce(check: Promise<unknown>): Promise<boolean> {
  const later = Symbol("later");
  return (await Promise.race([check, new Promise((resolve) => setImmediate(() => resolve(later)))])) !== later;
}

const redisWarnings = (lines: Array<{ level: number; msg: string }>) => lines.filter((line) => line.level === WARN && line.msg.includes("redis"));

describe("Redis unreachable", () => {
  it("REDIS_URL at a closed port: sign-in answers at once, counted in memory; one warning; /readyz says so and stays 200", async () => {
    const { log, lines } = recordingLogger();
    const services = await open({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }, { log });
    const admin = await createAdmin(services);
    const checks = timeChecks(services);
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await signIn(services, admin.email, admin.password, `10.7.0.${attempt + 1}`)).ok).toBe(true);
    }
    // Before: each check waited ~1 s for a connection that never came (4–7 s per sign-in). Now only the very first
    // loads the redis package (~500 modules, once) and waits at most 300 ms for the first connection; every other
    // goes to memory without waiting for anything.
    expect(checks.length).toBeGreaterThanOrEqual(4 * 3);
    expect(checks[0], checks.join(", ")).toBeLessThan(3_000);
    for (let check = 0; check < 3; check++) expect(await answersAtOnce(services.rateLimiter.hit(`a-seguir-${check}`, 5, 60))).toBe(true);
    expect(redisWarnings(lines)).toHaveLength(1);
    const ready = await readyz(services);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: "degraded",
      checks: { database: "ok", ...eventsCheck(services), media: "ok", redis: "unavailable, limits in memory" },
    });
    // Still limited, in memory.
    expect((await services.rateLimiter.hit("sondagem", 1, 60)).allowed).toBe(true);
    expect((await services.rateLimiter.hit("sondagem", 1, 60)).allowed).toBe(false);
    expect(redisWarnings(lines)).toHaveLength(1);
  });

  it("Redis cut while in use: memory at once, one warning for the outage, one line when it is back, /readyz follows", async () => {
    const proxy = await startTcpProxy(REDIS_PORT);
    try {
      const { log, lines } = recordingLogger();
      const services = await open({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` }, { log });
      const admin = await createAdmin(services);
      expect((await signIn(services, admin.email, admin.password, "10.8.0.1")).ok).toBe(true);
      expect((await readyz(services)).body.checks.redis).toBe("ok");

      // While Redis is up a check waits for its answer (what `answersAtOnce` tells apart; 0 of 200 at once measured).
      expect(await answersAtOnce(services.rateLimiter.hit("antes-do-corte", 5, 60))).toBe(false);

      await proxy.cut();
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await signIn(services, admin.email, admin.password, `10.8.1.${attempt + 1}`)).ok).toBe(true);
      }
      // The first check after the cut may still try the dead connection (it fails and opens the breaker); from then on
      // every check goes to memory without waiting for anything.
      for (let check = 0; check < 3; check++) expect(await answersAtOnce(services.rateLimiter.hit(`corte-${check}`, 5, 60))).toBe(true);
      expect(redisWarnings(lines)).toHaveLength(1);
      expect((await readyz(services)).body.checks.redis).toBe("unavailable, limits in memory");

      await proxy.restore();
      // The client reconnects by itself (backoff up to 5 s) and the breaker lets Redis back in.
      await expect
        .poll(() => services.rateLimiter.backend?.(), { timeout: 15_000, interval: 200, message: "the limits counted in Redis again" })
        .toBe("redis");
      expect((await readyz(services)).body.checks.redis).toBe("ok");
      expect(lines.filter((line) => line.level === INFO && line.msg.includes("redis reachable again"))).toHaveLength(1);
      expect(redisWarnings(lines)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  }, 45_000);
});

describe("S3 media store unreachable", () => {
  it("/media answers 503 with Retry-After and no-store, logs a warning, and /readyz reports the media failure within 2 s without leaving the pool", async () => {
    const s3 = await startS3Server(["midia-queda"]);
    let stopped = false;
    try {
      const { log, lines } = recordingLogger();
      const services = await open(s3.env("midia-queda"), { log });
      const key = `queda-${randomBytes(4).toString("hex")}/800.webp`;
      await services.store.put(key, randomBytes(2_000), "image/webp");
      expect((await media(services, key)).status).toBe(200);
      expect((await media(services, "queda-nada/800.webp")).status).toBe(404);
      // A successful bucket check is trusted for 10 s: from here /readyz would say "ok" without asking.
      expect((await readyz(services)).body.checks.media).toBe("ok");

      await s3.stop();
      stopped = true;
      const failed = await media(services, key);
      const failedAt = performance.now();
      expect(failed.status).toBe(503);
      expect(failed.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(failed.headers.get("Cache-Control")).toBe("no-store");
      expect(await failed.text()).toBe(t.errors.mediaUnavailable);
      expect(lines.filter((line) => line.level === WARN && line.msg.includes("media store unavailable"))).toHaveLength(1);

      const ready = await readyz(services);
      expect(performance.now() - failedAt).toBeLessThan(2_000);
      // Reader pages do not need the store: the instance stays in the pool (200), the body says what is degraded.
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: "degraded", checks: { database: "ok", ...eventsCheck(services), media: "failed" } });
    } finally {
      if (!stopped) await s3.stop();
    }
  }, 45_000);
});
