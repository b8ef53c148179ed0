import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { type CacheEntry, DROPPED_HEADERS, documentPolicyOf, type RenderedPage } from "./page-cache-entry.ts";
import { pickEncoding } from "./page-cache-keys.ts";
import { t } from "#app/i18n/pt-BR.ts";
import type { PageCacheOptions, ServedRequest } from "./page-cache.ts";
import { NO_STORE, ONE_HOUR_CACHE, STALE_PAGE_CACHE, STALE_PAGE_CDN_CACHE } from "#app/lib/cache-headers.ts";

/**
 * How the page cache (page-cache.ts) writes its answers: a stored page (or a 304 for its ETag) in the encoding the
 * reader takes, a page that may not be shared as rendered, a redirect to a canonical URL; each with the fixed headers
 * and the request id, and reported to the access log once sent.
 */
export function createAnswers(options: Pick<PageCacheOptions, "headers" | "requestId" | "onServed" | "partnerConsented" | "documentPolicy">) {
  const fixedHeaders = Object.entries(options.headers ?? {});

  return {
    /** Stamps the request id and fixed headers, and reports the answer to the access log once it is sent. */
    track(req: IncomingMessage, res: ServerResponse, started: number) {
      for (const [name, value] of fixedHeaders) res.setHeader(name, value);
      const id = options.requestId?.(req);
      if (id) res.setHeader("X-Request-Id", id);
      if (!options.onServed) return;
      const onServed = options.onServed;
      res.once("finish", () =>
        onServed({
          id,
          method: req.method ?? "GET",
          url: req.url ?? "/",
          status: res.statusCode,
          state: String(res.getHeader("X-Page-Cache") ?? "miss") as ServedRequest["state"],
          ms: Math.round(performance.now() - started),
        }),
      );
    },

    /**
     * A stored page, or 304 when the reader has its ETag. `shared` false (this instance is behind the other
     * instances' changes): `no-store`, so no cache in front keeps it.
     */
    send(req: IncomingMessage, res: ServerResponse, entry: CacheEntry, state: "hit" | "stale" | "miss", shared = true) {
      const encoding = pickEncoding(req.headers["accept-encoding"]);
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      if (entry.partnerPolicy && options.partnerConsented?.(req)) res.setHeader("Content-Security-Policy", entry.partnerPolicy);
      res.setHeader("ETag", entry.etag);
      // With an ad partner the policy depends on the consent cookie: a shared cache in front must keep them apart.
      res.setHeader("Vary", options.partnerConsented ? "Accept-Encoding, Cookie" : "Accept-Encoding");
      res.setHeader("X-Page-Cache", state);
      // A stale copy (served while its re-render runs) is kept by a shared cache in front for a second at most.
      if (state === "stale") {
        res.setHeader("Cache-Control", STALE_PAGE_CACHE);
        res.setHeader("CDN-Cache-Control", STALE_PAGE_CDN_CACHE);
      }
      if (!shared) noStore(res);
      const match = req.headers["if-none-match"];
      if (match?.split(/\s*,\s*/).some((tag) => tag.replace(/^W\//, "") === entry.etag)) {
        res.statusCode = 304;
        res.end();
        return;
      }
      const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
      if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", body.length);
      res.statusCode = entry.status;
      res.end(req.method === "HEAD" ? undefined : body);
    },

    /** A page that may not be shared (a 404, a redirect, an error): sent as rendered, gzip-compressed when the client takes it. */
    sendUncached(req: IncomingMessage, res: ServerResponse, page: RenderedPage, shared = true) {
      page.headers.forEach((value, name) => {
        if (!DROPPED_HEADERS.has(name) || name === "set-cookie") res.setHeader(name, value);
      });
      if (!shared) noStore(res);
      const policy = documentPolicyOf(options.documentPolicy, page, options.partnerConsented?.(req) ?? false);
      if (policy) res.setHeader("Content-Security-Policy", policy);
      res.setHeader("X-Page-Cache", "bypass");
      res.statusCode = page.status;
      const gzipped = pickEncoding(req.headers["accept-encoding"]) !== "identity" && page.body.length > 1024;
      const body = gzipped ? zlib.gzipSync(page.body, { level: 6 }) : page.body;
      if (gzipped) res.setHeader("Content-Encoding", "gzip");
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Content-Length", body.length);
      res.end(req.method === "HEAD" ? undefined : body);
    },

    /**
     * This instance cannot vouch for the page now (cut off from the other instances' changes, the render not back):
     * 503, Retry-After and `no-store`, a plain pt-BR page (JSON for `/api/`), so a cache in front keeps nothing.
     */
    sendUnavailable(req: IncomingMessage, res: ServerResponse) {
      const api = (req.url ?? "").startsWith("/api/"); // the API routes' prefix (app/routes.ts: api/…)
      const body = api
        ? JSON.stringify({ error: { code: "database_unavailable", message: t.errors.databaseUnavailable } })
        : `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.errors.genericTitle}</title></head><body><main><h1>${t.errors.genericTitle}</h1><p>${t.errors.genericText}</p></main></body></html>`;
      res.setHeader("Content-Type", api ? "application/json; charset=utf-8" : "text/html; charset=utf-8");
      res.setHeader("Retry-After", "5");
      res.setHeader("X-Page-Cache", "bypass");
      noStore(res);
      res.setHeader("Content-Length", Buffer.byteLength(body));
      res.statusCode = 503;
      res.end(req.method === "HEAD" ? undefined : body);
    },

    /** The canonical URL of a variant: a permanent redirect, from memory. */
    sendRedirect(res: ServerResponse, location: string) {
      res.setHeader("Location", location);
      res.setHeader("Cache-Control", ONE_HOUR_CACHE);
      res.setHeader("X-Page-Cache", "redirect");
      res.setHeader("Content-Length", 0);
      res.statusCode = 301;
      res.end();
    },
  };
}

/** Kept by no cache: neither the reader's nor one in front (Varnish reads `Cache-Control`, a CDN may read its own). */
function noStore(res: ServerResponse) {
  res.setHeader("Cache-Control", NO_STORE);
  res.setHeader("CDN-Cache-Control", NO_STORE);
  res.removeHeader("Surrogate-Control");
}
