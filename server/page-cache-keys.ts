import type { IncomingMessage } from "node:http";
import Negotiator from "negotiator";
import { pageOfPath } from "#app/lib/data-path.ts";
import { hasSessionCookie } from "#app/lib/session-cookie.ts";
import type { RouteTable, TableRoute } from "./route-table.ts";

/**
 * What the page cache (page-cache.ts) stores a request under, and which of its stored bodies it sends: the route's
 * canonical key (or the redirect to it), and the encoding the request's Accept-Encoding takes.
 */

/** What the cache does with a request: answer a key, redirect to the canonical URL, or leave it to the app (null). */
export type CacheLookup = { key: string; path: string } | { redirect: string } | null;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** A list cursor as the site makes them (app/.server/news/list-cursor.ts): base64url of "<ISO date>|<id>". */
function isListCursor(value: string): boolean {
  if (value.length > 400 || !/^[A-Za-z0-9_-]+$/.test(value)) return false;
  const text = Buffer.from(value, "base64url").toString("utf8");
  const separator = text.indexOf("|");
  return separator > 0 && ISO_TIMESTAMP.test(text.slice(0, separator)) && text.length > separator + 1 && !/[\u0000-\u001f]/.test(text);
}

/**
 * The canonical query of a cached route's request: its own parameters with valid values, sorted; for a `.data`
 * request also React Router's `_routes` (only ids of the routes on that page) and `index`. `invalid` says a page
 * parameter had a value the page does not take (the document is then redirected to the URL without it).
 */
function canonicalQuery(route: TableRoute, query: string, data: boolean): { query: string; invalid: boolean } {
  if (!query) return { query: "", invalid: false };
  const declared = route.facts.params ?? {};
  const kept: Array<[string, string]> = [];
  let invalid = false;
  for (const [name, value] of new URLSearchParams(query)) {
    if (kept.some(([seen]) => seen === name)) continue;
    const accepted = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (accepted !== undefined) {
      if (accepted === "cursor" ? isListCursor(value) : accepted.includes(value)) kept.push([name, value]);
      else invalid = true;
    } else if (data && name === "_routes") {
      const known = new Set([...route.parents, route.id]);
      const ids = [...new Set(value.split(","))].filter((id) => known.has(id)).sort();
      if (ids.length) kept.push([name, ids.join(",")]);
    } else if (data && name === "index") {
      kept.push([name, ""]);
    }
  }
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { query: kept.length ? `?${new URLSearchParams(kept)}` : "", invalid };
}

/**
 * What the cache does with a request. Only GET/HEAD of a route that declares itself cached (`routeFacts`), without a
 * session. The key is the route's canonical form: the path as the route spells it, and only the parameters the
 * route reads, with values it takes, sorted; everything else is dropped, so made-up query strings share one entry.
 * A document spelled otherwise (case, trailing or doubled slash) or with a value the page does not take (`?tab=x`,
 * a cursor this site did not make) is redirected to the canonical URL instead of becoming an entry.
 */
export function lookUp(
  req: Pick<IncomingMessage, "method" | "url" | "headers">,
  routes: RouteTable,
  hasSession: (cookieHeader: string | undefined) => boolean = hasSessionCookie,
): CacheLookup {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const raw = req.url ?? "/";
  if (raw.charCodeAt(0) !== 47 /* / */) return null;
  const queryAt = raw.indexOf("?");
  const rawPath = queryAt < 0 ? raw : raw.slice(0, queryAt);
  const data = rawPath.endsWith(".data");
  const pagePath = pageOfPath(rawPath);
  const found = routes.match(pagePath);
  if (!found || found.route.facts.cache === false || (data && found.route.facts.cache !== "page")) return null;
  // A session (a signed-in admin) always gets a fresh, private page.
  const cookie = req.headers.cookie;
  if (cookie && hasSession(cookie)) return null;
  const query = canonicalQuery(found.route, queryAt < 0 ? "" : raw.slice(queryAt + 1), data);
  if (found.canonicalPath !== pagePath || query.invalid) {
    // `.data` requests come from the site's own pages: a variant is not theirs, and the app answers it.
    if (data) return null;
    return { redirect: found.canonicalPath + query.query };
  }
  return { key: rawPath + query.query, path: rawPath };
}

export type Encoding = "br" | "gzip" | "identity";
const ENCODINGS: Encoding[] = ["br", "gzip", "identity"];
const encodingMemo = new Map<string, Encoding>();

/**
 * Which stored body fits the request's Accept-Encoding, negotiated by its q-values (`br;q=0.5` still takes brotli,
 * `br; q=0` refuses it), brotli first among equals. The few headers browsers send are remembered.
 */
export function pickEncoding(accept: string | undefined): Encoding {
  if (!accept) return "identity";
  let encoding = encodingMemo.get(accept);
  if (encoding === undefined) {
    // negotiator 1.x takes the order to prefer among equal q-values (its published types predate the option).
    const negotiator = new Negotiator({ headers: { "accept-encoding": accept } }) as unknown as {
      encoding(available: Encoding[], options: { preferred: Encoding[] }): Encoding | undefined;
    };
    encoding = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS }) ?? "identity";
    if (encodingMemo.size >= 200) encodingMemo.clear();
    encodingMemo.set(accept, encoding);
  }
  return encoding;
}
