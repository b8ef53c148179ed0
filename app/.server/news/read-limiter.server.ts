import { createHmac, randomBytes } from "node:crypto";
import { isbot } from "isbot";

/** The header the article page's beacon sends; a request without it is not a read (docs/decisions/006-read-counts.md). */
export const READ_BEACON_HEADER = "X-Read-Beacon";

export interface ReadLimits {
  /** Reads of one news item counted per client and hour (a reload is a new view, up to this). */
  perArticle: number;
  /** Reads counted per client and hour, all news together. */
  perClient: number;
  /** Clients remembered per hour; reads from new clients beyond it are not counted until the hour turns. */
  maxClients: number;
}

export const READ_LIMITS: ReadLimits = { perArticle: 4, perClient: 60, maxClients: 50_000 };

const HOUR_MS = 3_600_000;

/** Whether this User-Agent is a crawler, a monitor, a preview fetcher or a script (or says nothing). */
export function isBotAgent(userAgent: string | null): boolean {
  return !userAgent?.trim() || isbot(userAgent);
}

/**
 * Caps how many reads one client can add: `perArticle` per news item and `perClient` in all, per clock hour, in
 * memory. The client is known by an HMAC of its address with a random key that lives only in memory and is replaced
 * every hour, when the whole table is dropped: no address is stored or logged, and last hour's entries cannot be
 * linked to anyone once the key is gone.
 */
export function createReadLimiter(limits: ReadLimits = READ_LIMITS, now: () => number = Date.now) {
  let hour = -1;
  let key = randomBytes(32);
  let clients = new Map<string, { total: number; articles: Map<string, number> }>();

  return {
    /** Whether a read of `newsId` from `address` counts (and, if so, takes it from the client's allowance). */
    allow(address: string, newsId: string): boolean {
      const current = Math.floor(now() / HOUR_MS);
      if (current !== hour) {
        hour = current;
        key = randomBytes(32);
        clients = new Map();
      }
      const client = createHmac("sha256", key).update(address).digest("base64url").slice(0, 22);
      let entry = clients.get(client);
      if (!entry) {
        if (clients.size >= limits.maxClients) return false;
        entry = { total: 0, articles: new Map() };
        clients.set(client, entry);
      }
      const reads = entry.articles.get(newsId) ?? 0;
      if (entry.total >= limits.perClient || reads >= limits.perArticle) return false;
      entry.total++;
      entry.articles.set(newsId, reads + 1);
      return true;
    },
  };
}

export type ReadLimiter = ReturnType<typeof createReadLimiter>;
