import { RateLimiterRedis } from "rate-limiter-flexible";
import type { RedisClientType } from "redis";
import type { Logger } from "#app/.server/logger.server.ts";
import { countAttempt, createMemoryRateLimiter, type RateLimiter, resultOf, UNUSED_LIMIT } from "./rate-limiter.server.ts";

/** How long the first check waits for the first connection (a healthy Redis on the network answers in a few ms). */
const FIRST_CONNECT_WAIT_MS = 300;
/** A command that takes longer fails over to memory (and opens the breaker). */
const COMMAND_TIMEOUT_MS = 500;
/** After a failed command, this long in memory before Redis is tried again. */
const BREAKER_OPEN_MS = 5_000;

/** Where the limits are counted now: shared in Redis, or (Redis unreachable) in this process's memory. */
export type RateLimitBackend = "redis" | "memory";

export interface SharedRateLimiter extends RateLimiter {
  /** Where the next check will count, without waiting: for /readyz. Starts the connection if nothing has yet. */
  backend(): Promise<RateLimitBackend>;
  close(): Promise<void>;
}

/**
 * Rate limits shared by every instance, in Redis: rate-limiter-flexible's Redis limiter (fixed windows, one atomic
 * script per attempt, keys `eef:ratelimit:<key>`) on the node-redis client. If Redis cannot be reached the limiter
 * counts in this process's memory, so sign-in keeps working and stays limited, without waiting for Redis: a check
 * uses Redis only while its connection is up (the client reconnects in the background), and after a failed or slow
 * command Redis is left alone for BREAKER_OPEN_MS (a short circuit breaker). One warning when an outage starts, one
 * line when Redis is back.
 *
 * The memory stands in here rather than as the library's `insuranceLimiter`: the library would answer from it
 * without saying so, and the breaker, the warning and the line when Redis is back need to know each failure. The
 * library has no deadline on a command nor a breaker (a Redis that accepts connections and never answers would hold
 * every sign-in): both are here.
 */
export function createRedisRateLimiter(options: { url: string; log: Pick<Logger, "info" | "warn">; now?: () => number }): SharedRateLimiter {
  const now = options.now ?? Date.now;
  const fallback = createMemoryRateLimiter();
  // The client (and the redis package, ~500 modules) is loaded on the first attempt, not at start.
  let client: RedisClientType | null = null;
  let shared: RateLimiterRedis | null = null;
  let loading: Promise<RedisClientType | null> | null = null;
  let firstConnection: Promise<unknown> | null = null;
  let closed = false;
  /** Whether an outage has been reported (and not yet its end). */
  let down = false;
  let breakerOpenUntil = 0;

  function outage(error: unknown, why: string) {
    if (down) return;
    down = true;
    options.log.warn({ err: error }, `redis unavailable (${why}); rate limiting in memory until it is back`);
  }

  function recovered() {
    if (!down) return;
    down = false;
    breakerOpenUntil = 0;
    options.log.info("redis reachable again; rate limits shared again");
  }

  /** Loads the redis package, builds the client and the library's limiter on it, and starts connecting, once. */
  function build(): Promise<RedisClientType | null> {
    loading ??= import("redis").then(({ createClient }) => {
      if (closed) return null;
      const built = createClient({
        url: options.url,
        // Commands fail at once while disconnected instead of waiting in a queue.
        disableOfflineQueue: true,
        socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(retries * 200, 5000) },
      }) as RedisClientType;
      built.on("error", (error: unknown) => outage(error, "connection"));
      built.on("ready", recovered);
      client = built;
      shared = new RateLimiterRedis({
        ...UNUSED_LIMIT,
        storeClient: built,
        useRedisPackage: true,
        // A command issued while the connection is down fails at once (then counted in memory).
        rejectIfRedisNotReady: true,
        keyPrefix: "eef:ratelimit",
      });
      firstConnection = built.connect().catch(() => undefined);
      return built;
    });
    return loading;
  }

  /** The Redis limiter when a command can go to Redis now; null means "count in memory" (never waits for a connection). */
  async function usable(): Promise<RateLimiterRedis | null> {
    const built = client ?? (await build());
    if (!built || closed) return null;
    // Only the very first check waits, briefly, for the first connection: afterwards the state decides at once.
    if (!built.isReady && firstConnection) {
      await Promise.race([firstConnection, new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_WAIT_MS).unref())]);
      firstConnection = null;
    }
    if (!built.isReady) {
      outage(new Error("not connected"), "not connected");
      return null;
    }
    if (now() < breakerOpenUntil) return null;
    return shared;
  }

  function failed(error: unknown) {
    breakerOpenUntil = now() + BREAKER_OPEN_MS;
    outage(error, "command failed");
  }

  /** A Redis command with a deadline: a Redis that accepts connections but does not answer must not hold a sign-in. */
  function withDeadline<T>(command: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
    });
    return Promise.race([command, deadline]).finally(() => clearTimeout(timer));
  }

  return {
    async hit(key, max, windowSeconds) {
      const redis = await usable();
      if (redis) {
        try {
          const counted = await withDeadline(countAttempt(redis, key, windowSeconds));
          // A command that works ends an outage the connection never saw (a slow Redis answering again).
          recovered();
          return resultOf(counted, max);
        } catch (error) {
          failed(error);
        }
      }
      return fallback.hit(key, max, windowSeconds);
    },
    async reset(key) {
      await fallback.reset(key);
      const redis = await usable();
      if (!redis) return;
      try {
        await withDeadline(redis.delete(key));
      } catch (error) {
        failed(error);
      }
    },
    async backend() {
      return (await usable()) ? "redis" : "memory";
    },
    async close() {
      closed = true;
      const open = client ?? (await loading);
      if (!open) return;
      // A client waiting to reconnect is destroyed: closing it would wait for a connection that may never come.
      if (open.isReady) await open.close().catch(() => open.destroy());
      else open.destroy();
    },
  };
}
