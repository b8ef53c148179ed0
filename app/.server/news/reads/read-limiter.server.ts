import { createHash, randomBytes } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { isbot } from "isbot";

/** The header the article page's beacon sends; a request without it is not a read (docs/decisions/006-read-counts.md). */
export const READ_BEACON_HEADER = "X-Read-Beacon";

export interface ReadLimits {
  /** Reads of one news item counted per address and hour (a reload is a new view, up to this). */
  perArticle: number;
  /** Reads counted per address and hour, all news together. */
  perClient: number;
  /** Reads of one news item counted per network (IPv4 /24, IPv6 /64) and hour, all its addresses together. */
  perNetworkArticle: number;
  /** Reads counted per network and hour, all news and addresses together. */
  perNetwork: number;
  /**
   * Counters kept per hour (each address, network, and address or network with a news item, is one). When full, the
   * least recently used counter makes room: a new reader is still counted.
   */
  maxCounters: number;
}

export const READ_LIMITS: ReadLimits = { perArticle: 4, perClient: 60, perNetworkArticle: 8, perNetwork: 240, maxCounters: 200_000 };

const HOUR_MS = 3_600_000;

/** Whether this User-Agent is a crawler, a monitor, a preview fetcher or a script (or says nothing). */
export function isBotAgent(userAgent: string | null): boolean {
  return !userAgent?.trim() || isbot(userAgent);
}

/** The eight 16-bit groups of an IPv6 address (zone removed, `::` expanded, a trailing IPv4 part converted), or null. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.replace(/%.*$/, "");
  if (!isIPv6(plain)) return null;
  let text = plain.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array.from({ length: 8 - left.length - right.length }, () => "0"), ...right];
  return groups.length === 8 ? groups.map((group) => Number.parseInt(group, 16)) : null;
}

/**
 * The network an address belongs to, as the limiter counts it: an IPv4 address (or an IPv4-mapped IPv6 one) by its
 * /24, an IPv6 address by its /64 (what one subscriber line or one host is given: it can use every address in it).
 * Anything else is its own network.
 */
export function networkOf(address: string): string {
  if (isIPv4(address)) return `${address.split(".").slice(0, 3).join(".")}.0/24`;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return `${g6 >> 8}.${g6 & 255}.${g7 >> 8}.0/24`;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/**
 * Caps how many reads one client can add, per clock hour, in memory: `perArticle` per news item and `perClient` in
 * all from one address, and `perNetworkArticle` and `perNetwork` from all the addresses of its network (IPv4 /24,
 * IPv6 /64), so a client with many addresses (a /64 is 2^64 of them) counts as one network. Counters are keyed hashes
 * of the address or network with a random key that lives only in memory and is replaced every hour, when the whole
 * table is dropped: no address is stored or logged, and last hour's entries cannot be linked to anyone once the key
 * is gone. The table holds at most `maxCounters`; when full, the counters used longest ago are dropped, so new
 * readers keep being counted (dropping counters can only give back an allowance, and only after maxCounters / 2
 * other counters were made, each by a read that was counted).
 */
export function createReadLimiter(limits: ReadLimits = READ_LIMITS, now: () => number = Date.now) {
  let hour = -1;
  let key = randomBytes(32);
  // Two generations instead of a linked list: counters are written to `recent`; when it holds half the table, it
  // becomes `older` (the previous `older` is dropped whole). A counter used again moves to `recent`, so whatever was
  // used within the last maxCounters / 2 new counters is kept. O(1) per read, no per-entry bookkeeping.
  let recent = new Map<string, number>();
  let older = new Map<string, number>();

  /**
   * A counter's name: 16 characters (96 bits) of SHA-256 over the hour's secret key and the value, so its size does
   * not depend on the address or the id, and without the key (gone with the hour) it names no one. A keyed hash is
   * enough here (nothing is verified against it); it costs a tenth of an HMAC, and a read takes four.
   */
  const counterOf = (value: string) => createHash("sha256").update(key).update(value).digest("base64url").slice(0, 16);
  const readsOf = (counter: string) => recent.get(counter) ?? older.get(counter) ?? 0;

  function bump(counter: string) {
    const value = readsOf(counter) + 1;
    older.delete(counter);
    recent.set(counter, value);
    if (recent.size >= limits.maxCounters / 2) {
      older = recent;
      recent = new Map();
    }
  }

  return {
    /** Whether a read of `newsId` from `address` counts (and, if so, takes it from the allowances). */
    allow(address: string, newsId: string): boolean {
      const current = Math.floor(now() / HOUR_MS);
      if (current !== hour) {
        hour = current;
        key = randomBytes(32);
        recent = new Map();
        older = new Map();
      }
      const network = networkOf(address);
      // Prefixes keep the four kinds apart (an address is never read as a network, "a b" never as "a" with id "b").
      const checks: Array<[string, number]> = [
        [counterOf(`a ${address}`), limits.perClient],
        [counterOf(`A ${newsId} ${address}`), limits.perArticle],
        [counterOf(`n ${network}`), limits.perNetwork],
        [counterOf(`N ${newsId} ${network}`), limits.perNetworkArticle],
      ];
      if (checks.some(([counter, max]) => readsOf(counter) >= max)) return false;
      for (const [counter] of checks) bump(counter);
      return true;
    },

    /** Counters held now (at most `maxCounters`). */
    size(): number {
      return recent.size + older.size;
    },
  };
}

export type ReadLimiter = ReturnType<typeof createReadLimiter>;
