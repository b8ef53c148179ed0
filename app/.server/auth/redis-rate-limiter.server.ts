import type { RedisClientType } from "redis";
import type { Logger } from "../logger.server.ts";
import { createMemoryRateLimiter, type RateLimiter } from "./rate-limiter.server.ts";

/** Counts one attempt and returns [count, milliseconds left in the window], atomically. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

/**
 * Rate limits shared by every instance, in Redis (fixed windows, one atomic script per attempt). If Redis cannot
 * be reached the limiter falls back to this process's memory, so sign-in keeps working and stays limited.
 */
export function createRedisRateLimiter(options: { url: string; log: Logger; prefix?: string }): RateLimiter & { close(): Promise<void> } {
  const prefix = options.prefix ?? "eef:ratelimit:";
  const fallback = createMemoryRateLimiter();
  // The client (and the redis package, ~500 modules) is loaded on the first attempt, not at start.
  let client: RedisClientType | null = null;
  let lastWarning = 0;
  let connecting: Promise<unknown> | null = null;
  let loading: Promise<RedisClientType | null> | null = null;
  let closed = false;
  /** Loads the redis package and builds the client, once. Not counted in the 1 s wait for the connection. */
  function build(): Promise<RedisClientType | null> {
    loading ??= import("redis").then(({ createClient }) => {
      if (closed) return null;
      client = createClient({
        url: options.url,
        // Commands fail at once while disconnected (and fall back to memory) instead of waiting in a queue.
        disableOfflineQueue: true,
        socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(retries * 200, 5000) },
      }) as RedisClientType;
      client.on("error", (error: unknown) => {
        if (Date.now() - lastWarning > 60_000) options.log.warn({ err: error }, "redis rate limiter error");
        lastWarning = Date.now();
      });
      return client;
    });
    return loading;
  }
  /** Waits (at most 1 s) for the connection; afterwards the client reconnects in the background by itself. */
  async function ready(): Promise<RedisClientType> {
    const built = await build();
    if (!built) throw new Error("redis limiter closed");
    connecting ??= built.connect().catch(() => undefined);
    await Promise.race([connecting, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    if (!built.isReady) throw new Error("redis not connected");
    return built;
  }

  return {
    async hit(key, max, windowSeconds) {
      try {
        const redis = await ready();
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, { keys: [prefix + key], arguments: [String(windowSeconds * 1000)] })) as [number, number];
        return { allowed: count <= max, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
      } catch (error) {
        options.log.warn({ err: error }, "redis unavailable; rate limiting in memory");
        return fallback.hit(key, max, windowSeconds);
      }
    },
    async reset(key) {
      await fallback.reset(key);
      try {
        const redis = await ready();
        await redis.del(prefix + key);
      } catch (error) {
        options.log.warn({ err: error }, "redis unavailable; could not reset a rate limit");
      }
    },
    async close() {
      closed = true;
      const open = client;
      if (!open) return;
      if (open.isOpen) await open.close().catch(() => open.destroy());
      else open.destroy();
    },
  };
}
