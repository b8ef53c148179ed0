import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * A rendered page as the page cache (page-cache.ts) keeps it: which renders may be shared with every reader, and the
 * stored form of one — the body once in each encoding, its ETag, the headers to answer with and its policies.
 */

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What the render function gives back: a complete response, read into memory. */
export interface RenderedPage {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** A rendered page as the cache keeps it: the body once in each encoding, and what to answer with. */
export interface CacheEntry {
  key: string;
  /** The key's path (no query), `.data` included: what an eviction by path compares. */
  path: string;
  status: number;
  headers: Array<[string, string]>;
  /** The policy for a reader who accepted the ad partner (null: not an HTML page, or no partner configured). */
  partnerPolicy: string | null;
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Bytes held (the three bodies). */
  size: number;
  renderedAt: number;
  /** When it stopped being current (an invalidation, or its TTL), or null while it is. */
  staleSince: number | null;
  /** Requests it answered (halved at each re-render): the most requested pages are re-rendered first. */
  requests: number;
}

/** The Content-Security-Policy of an HTML page, from its text (the hashes of its inline scripts). */
export type DocumentPolicy = (html: string, partner: boolean) => string;

/** Headers a stored page keeps (the rest are per-response: length, encoding, date, cookies). */
export const DROPPED_HEADERS: ReadonlySet<string> = new Set([
  "content-length",
  "content-encoding",
  "date",
  "set-cookie",
  "connection",
  "transfer-encoding",
  "vary",
  "etag",
]);

/** Whether a rendered page may be shared with every reader. */
export function isShareable(page: RenderedPage): boolean {
  const cacheControl = page.headers.get("cache-control") ?? "";
  return page.status === 200 && !page.headers.has("set-cookie") && /\bpublic\b/.test(cacheControl) && !/no-store|private/.test(cacheControl);
}

/** The policy of an HTML page (its scripts' hashes), or null for anything else (a `.data` answer, a feed). */
export function documentPolicyOf(documentPolicy: DocumentPolicy | undefined, page: RenderedPage, partner: boolean): string | null {
  if (!documentPolicy || !/^text\/html\b/i.test(page.headers.get("content-type") ?? "")) return null;
  return documentPolicy(page.body.toString("utf8"), partner);
}

/**
 * Brotli for a stored page: quality 6, its window fitted to the page. On the home (124 kB) that is 18 924 bytes against
 * quality 9's 18 845 (+0.4 %) for 2 ms of a zlib thread instead of 94 ms, and ~6 MB of encoder memory instead of ~28.
 * A publish re-renders dozens of pages at once, and their compression competed with the readers for both cores
 * (bench:writes, 500 readers: home 1 990 → 3 244–4 008 req/s, article 935 → 1 842–2 841, peak RSS 273–279 →
 * 240–267 MB).
 */
export function brotliParams(length: number): Record<number, number> {
  return {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
    [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(length + 1)))),
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length,
  };
}

/**
 * The stored form of a shareable page: compressed with brotli (quality 6, see brotliParams) and gzip 9, its headers
 * without the per-response ones, its policy (and, with an ad partner, the partner's) computed once here. Not
 * requested yet.
 */
export async function toEntry(
  key: string,
  path: string,
  page: RenderedPage,
  policies: { documentPolicy: DocumentPolicy | undefined; withPartner: boolean },
  now: () => number,
): Promise<CacheEntry> {
  const [br, gz] = await Promise.all([brotli(page.body, { params: brotliParams(page.body.length) }), gzip(page.body, { level: 9 })]);
  const headers: Array<[string, string]> = [];
  page.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name)) headers.push([name, value]);
  });
  const policy = documentPolicyOf(policies.documentPolicy, page, false);
  if (policy) headers.push(["content-security-policy", policy]);
  return {
    key,
    path,
    status: page.status,
    headers,
    partnerPolicy: policies.withPartner ? documentPolicyOf(policies.documentPolicy, page, true) : null,
    etag: `"${createHash("sha1").update(page.body).digest("base64url").slice(0, 22)}"`,
    identity: page.body,
    br,
    gzip: gz,
    size: page.body.length + br.length + gz.length,
    renderedAt: now(),
    staleSince: null,
    requests: 0,
  };
}
