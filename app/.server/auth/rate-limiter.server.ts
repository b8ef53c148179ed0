import cluster from "node:cluster";
import { type RateLimiterAbstract, RateLimiterCluster, RateLimiterMemory, type RateLimiterRes } from "rate-limiter-flexible";

/**
 * Attempts counted per key in fixed windows, with rate-limiter-flexible: its memory limiter in one process, its
 * cluster limiter across the server's worker processes, its Redis limiter across instances
 * (redis-rate-limiter.server.ts). Each check brings its own limit and window: a key's window starts at its first
 * attempt and lasts the `windowSeconds` of that attempt; the attempts are counted with the library's `penalty` (which
 * only counts, never refuses) and compared with `max` here, so one library limiter serves every limit of the site.
 */

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets (when not allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, max: number, windowSeconds: number): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
}

/** The library's own limit and duration, never used: every count passes its window, and `max` is compared here. */
export const UNUSED_LIMIT = { points: 1, duration: 60 };

/** Counts one attempt of `key` in its window (started by the key's first attempt, of `windowSeconds`). */
export function countAttempt(limiter: Pick<RateLimiterAbstract, "penalty">, key: string, windowSeconds: number): Promise<RateLimiterRes> {
  return limiter.penalty(key, 1, { customDuration: windowSeconds });
}

/** A check's answer, from the attempts counted in the key's window and the time left in it. */
export function resultOf(counted: RateLimiterRes, max: number): RateLimitResult {
  return { allowed: counted.consumedPoints <= max, retryAfterSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)) };
}

/** Limits kept in this process's memory (expired windows are dropped by the library's timers). */
export function createMemoryRateLimiter(): RateLimiter {
  const memory = new RateLimiterMemory({ ...UNUSED_LIMIT, keyPrefix: "" });
  return {
    async hit(key, max, windowSeconds) {
      return resultOf(await countAttempt(memory, key, windowSeconds), max);
    },
    async reset(key) {
      await memory.delete(key);
    },
  };
}

/** How long a worker waits for the primary before counting in its own memory. */
const PRIMARY_ANSWER_MS = 1000;

/**
 * Limits shared by the server's worker processes (WORKERS > 1) without Redis: the counts are kept by the primary
 * process (the library's cluster master, created by server/app.ts `primaryOf`), so a 10-attempt limit is 10 whichever
 * worker answers (in a worker's own memory, it would be 10 per worker). Should the primary not answer within a second,
 * the worker counts in its own memory.
 */
export function createClusterRateLimiter(): RateLimiter {
  const primary = new RateLimiterCluster({ ...UNUSED_LIMIT, keyPrefix: "eef:ratelimit", timeoutMs: PRIMARY_ANSWER_MS });
  const local = createMemoryRateLimiter();
  return {
    async hit(key, max, windowSeconds) {
      try {
        return resultOf(await countAttempt(primary, key, windowSeconds), max);
      } catch {
        return local.hit(key, max, windowSeconds);
      }
    },
    async reset(key) {
      await primary.delete(key).catch(() => undefined);
      await local.reset(key);
    },
  };
}

/** Whether this process is one of several workers of the server (node:cluster). */
export const isClusterWorker = () => cluster.isWorker && typeof process.send === "function";
