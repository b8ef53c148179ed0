import { Readable } from "node:stream";
import type { Route } from "./+types/media";
import { servicesOf } from "#app/.server/context.server.ts";
import { parseRange } from "#app/.server/media/http-range.ts";
import { contentTypeOfKey } from "#app/.server/media/media-types.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { IMMUTABLE_CACHE, NO_STORE } from "#app/lib/cache-headers.ts";
/** How long a client (or a CDN) should wait before asking again while the store cannot be reached. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Serves stored media with HTTP range support (videos seek without downloading everything). A key the store does
 * not have is a 404; a store that cannot answer (S3 down, Drive failing) is a 503 with Retry-After and no-store,
 * never a 404 a CDN would keep, and a warning in the log (the store checks itself again on the next /readyz).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  const { store, log } = servicesOf(context);
  const contentType = contentTypeOfKey(key);
  if (!contentType) return notFound();

  const unavailable = (error: unknown) => {
    log.warn({ err: error, key, store: store.name }, "media store unavailable; answered 503");
    return new Response(t.errors.mediaUnavailable, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_STORE, "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  };

  let stat: { size: number } | null;
  try {
    stat = await store.stat(key);
  } catch (error) {
    return unavailable(error);
  }
  if (!stat) return notFound();

  const etag = `"${key.replace(/[^a-z0-9]/g, "")}"`;
  const headers = new Headers({
    "Content-Type": contentType,
    "Cache-Control": IMMUTABLE_CACHE,
    "Accept-Ranges": "bytes",
    ETag: etag,
  });
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });

  const range = parseRange(request.headers.get("Range"), stat.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${stat.size}`);
    return new Response(null, { status: 416, headers });
  }
  let object: Awaited<ReturnType<typeof store.get>>;
  try {
    object = await store.get(key, range ?? undefined);
  } catch (error) {
    return unavailable(error);
  }
  if (!object) return notFound();
  const length = range ? range.end - range.start + 1 : stat.size;
  headers.set("Content-Length", String(length));
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${stat.size}`);
  const body = request.method === "HEAD" ? null : (Readable.toWeb(object.body) as ReadableStream<Uint8Array>);
  if (!body) object.body.destroy();
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** A key the store does not have, or a type it never serves. */
function notFound() {
  return new Response(t.errors.notFound, { status: 404 });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
