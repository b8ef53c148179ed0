export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets (when not allowed). */
  retryAfterSeconds: number;
}

/**
 * Counts attempts per key in fixed windows. In memory for one process; a shared store (Redis) can implement the
 * same interface for several instances.
 */
export interface RateLimiter {
  hit(key: string, max: number, windowSeconds: number): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
}

export function createMemoryRateLimiter(clock: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, max, windowSeconds) {
      const now = clock();
      let entry = windows.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + windowSeconds * 1000 };
        windows.set(key, entry);
        if (windows.size > 50_000) pruneExpired(windows, now);
      }
      entry.count++;
      return { allowed: entry.count <= max, retryAfterSeconds: Math.ceil((entry.resetAt - now) / 1000) };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

function pruneExpired(windows: Map<string, { resetAt: number }>, now: number) {
  for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key);
}
