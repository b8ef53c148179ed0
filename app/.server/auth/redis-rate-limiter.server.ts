import type { RedisClientType } from "redis";
import type { Logger } from "../logger.server.ts";
import { createMemoryRateLimiter, type RateLimiter } from "./rate-limiter.server.ts";

/** Counts one attempt and returns [count, milliseconds left in the window], atomically. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

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
 * Rate limits shared by every instance, in Redis (fixed windows, one atomic script per attempt). If Redis cannot
 * be reached the limiter counts in this process's memory, so sign-in keeps working and stays limited, without
 * waiting for Redis: a check uses Redis only while its connection is up (the client reconnects in the background),
 * and after a failed or slow command Redis is left alone for BREAKER_OPEN_MS (a short circuit breaker). One warning
 * when an outage starts, one line when Redis is back.
 */
export function createRedisRateLimiter(options: {
  url: string;
  log: Pick<Logger, "info" | "warn">;
  prefix?: string;
  now?: () => number;
}): SharedRateLimiter {
  const prefix = options.prefix ?? "eef:ratelimit:";
  const now = options.now ?? Date.now;
  const fallback = createMemoryRateLimiter();
  // The client (and the redis package, ~500 modules) is loaded on the first attempt, not at start.
  let client: RedisClientType | null = null;
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

  /** Loads the redis package, builds the client and starts connecting, once. */
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
      firstConnection = built.connect().catch(() => undefined);
      return built;
    });
    return loading;
  }

  /** The client when a command can go to Redis now; null means "count in memory" (never waits for a connection). */
  async function usable(): Promise<RedisClientType | null> {
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
    return built;
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
          const [count, ttl] = (await withDeadline(redis.eval(HIT_SCRIPT, { keys: [prefix + key], arguments: [String(windowSeconds * 1000)] }))) as [
            number,
            number,
          ];
          // A command that works ends an outage the connection never saw (a slow Redis answering again).
          recovered();
          return { allowed: count <= max, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
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
        await withDeadline(redis.del(prefix + key));
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
