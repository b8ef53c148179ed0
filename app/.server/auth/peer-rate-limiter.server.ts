import cluster from "node:cluster";
import { createMemoryRateLimiter, type RateLimiter, type RateLimitResult } from "./rate-limiter.server.ts";

/** A worker's question to the primary process, which keeps the counts of every worker (server/cluster-primary.ts). */
export interface RateRequestMessage {
  eef: "rate";
  id: number;
  op: "hit" | "reset";
  key: string;
  max: number;
  windowSeconds: number;
}

export interface RateResultMessage {
  eef: "rate-result";
  id: number;
  result: RateLimitResult | null;
}

export const isRateRequest = (message: unknown): message is RateRequestMessage =>
  typeof message === "object" && message !== null && (message as { eef?: unknown }).eef === "rate";

/** How long a worker waits for the primary before counting in its own memory. */
const ANSWER_MS = 1000;

/**
 * Sign-in limits shared by the server's worker processes (WORKERS > 1) without Redis: each count is kept by the
 * primary, so a 10-attempt limit is 10 whichever worker answers (in a worker's own memory, it would be 10 per worker).
 * Should the primary not answer within a second, the worker counts in its own memory.
 */
export function createPeerRateLimiter(): RateLimiter {
  const local = createMemoryRateLimiter();
  const waiting = new Map<number, (result: RateLimitResult | null) => void>();
  let next = 0;
  process.on("message", (message: unknown) => {
    const answer = message as Partial<RateResultMessage>;
    if (answer?.eef !== "rate-result" || typeof answer.id !== "number") return;
    waiting.get(answer.id)?.(answer.result ?? null);
    waiting.delete(answer.id);
  });
  function ask(op: RateRequestMessage["op"], key: string, max: number, windowSeconds: number): Promise<RateLimitResult | null> {
    const id = ++next;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(null);
      }, ANSWER_MS);
      timer.unref();
      waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      process.send?.({ eef: "rate", id, op, key, max, windowSeconds } satisfies RateRequestMessage);
    });
  }
  return {
    async hit(key, max, windowSeconds) {
      return (await ask("hit", key, max, windowSeconds)) ?? local.hit(key, max, windowSeconds);
    },
    async reset(key) {
      await ask("reset", key, 0, 0);
      await local.reset(key);
    },
  };
}

/** The primary's side: answers a worker's question from the one memory limiter. */
export async function answerRateRequest(limiter: RateLimiter, message: RateRequestMessage): Promise<RateResultMessage> {
  if (message.op === "reset") {
    await limiter.reset(message.key);
    return { eef: "rate-result", id: message.id, result: null };
  }
  return { eef: "rate-result", id: message.id, result: await limiter.hit(message.key, message.max, message.windowSeconds) };
}

/** Whether this process is one of several workers of the server (node:cluster). */
export const isClusterWorker = () => cluster.isWorker && typeof process.send === "function";
