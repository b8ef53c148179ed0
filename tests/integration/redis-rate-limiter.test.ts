import { randomUUID } from "node:crypto";
import net from "node:net";
import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import { createRedisRateLimiter } from "#app/.server/auth/redis-rate-limiter.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";

// The real Redis server of this machine (127.0.0.1:6379; REDIS_TEST_URL overrides).
const url = process.env.REDIS_TEST_URL ?? "redis://127.0.0.1:6379";
const log = createLogger({ logLevel: "silent" });

describe("Redis rate limiter", () => {
  it("two instances share one count per key, per window", async () => {
    const first = createRedisRateLimiter({ url, log });
    const second = createRedisRateLimiter({ url, log });
    const key = `teste:${randomUUID()}`;
    try {
      expect((await first.hit(key, 3, 60)).allowed).toBe(true);
      expect((await second.hit(key, 3, 60)).allowed).toBe(true);
      expect((await first.hit(key, 3, 60)).allowed).toBe(true);
      const blocked = await second.hit(key, 3, 60);
      expect(blocked.allowed).toBe(false);
      expect(blocked.retryAfterSeconds).toBeGreaterThan(50);
      expect(blocked.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect((await first.hit(`${key}:outra`, 3, 60)).allowed).toBe(true);
      await first.reset(key);
      expect((await second.hit(key, 3, 60)).allowed).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("the window expires: it is the count's time to live in Redis, and once Redis lets the count go a new window starts", async () => {
    const limiter = createRedisRateLimiter({ url, log });
    const redis = createClient({ url });
    await redis.connect();
    const key = `teste:${randomUUID()}`;
    const stored = `eef:ratelimit:${key}`;
    try {
      expect((await limiter.hit(key, 1, 1)).allowed).toBe(true);
      expect((await limiter.hit(key, 1, 1)).allowed).toBe(false);
      const ttl = await redis.pTTL(stored);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(1000);
      // Redis's own expiry, made to come now rather than waited for.
      await redis.pExpire(stored, 1);
      await expect.poll(() => redis.exists(stored), { interval: 5 }).toBe(0);
      expect((await limiter.hit(key, 1, 1)).allowed).toBe(true);
    } finally {
      await limiter.close();
      await redis.close();
    }
  });

  it("with Redis unreachable it still limits, in memory", async () => {
    const limiter = createRedisRateLimiter({ url: "redis://127.0.0.1:1", log });
    try {
      expect((await limiter.hit("k", 1, 60)).allowed).toBe(true);
      expect((await limiter.hit("k", 1, 60)).allowed).toBe(false);
    } finally {
      await limiter.close();
    }
  });

  it("with a Redis that accepts connections and never answers, checks go to memory without waiting; one warning", async () => {
    const sockets = new Set<net.Socket>();
    const blackHole = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    const warnings: string[] = [];
    const recording = { ...log, warn: (_fields: unknown, message: string) => void warnings.push(message), info: () => undefined };
    const limiter = createRedisRateLimiter({ url: `redis://127.0.0.1:${(blackHole.address() as net.AddressInfo).port}`, log: recording as never });
    try {
      await limiter.hit("aquecimento", 10, 60);
      const durations: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        const started = performance.now();
        expect((await limiter.hit("k", 3, 60)).allowed).toBe(attempt < 3);
        durations.push(performance.now() - started);
      }
      expect(Math.max(...durations), durations.join(", ")).toBeLessThan(50);
      expect(await limiter.backend()).toBe("memory");
      expect(warnings).toHaveLength(1);
    } finally {
      await limiter.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});
