import { Readable } from "node:stream";
import type { Route } from "./+types/media";
import { servicesOf } from "../../.server/context.server.ts";
import { parseRange } from "../../.server/media/http-range.ts";
import { contentTypeOfKey } from "../../.server/media/media-types.ts";
import { t } from "../../i18n/pt-BR.ts";
import { PRIVATE_ROUTE } from "../../lib/route-facts.ts";

/** Media keys are content-hashed, so what a URL serves never changes. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Serves stored media with HTTP range support (videos seek without downloading everything). */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  const { store } = servicesOf(context);
  const contentType = contentTypeOfKey(key);
  if (!contentType) return new Response(t.errors.notFound, { status: 404 });

  let stat: { size: number } | null;
  try {
    stat = await store.stat(key);
  } catch {
    return new Response(t.errors.notFound, { status: 404 });
  }
  if (!stat) return new Response(t.errors.notFound, { status: 404 });

  const etag = `"${key.replace(/[^a-z0-9]/g, "")}"`;
  const headers = new Headers({
    "Content-Type": contentType,
    "Cache-Control": IMMUTABLE,
    "Accept-Ranges": "bytes",
    ETag: etag,
  });
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });

  const range = parseRange(request.headers.get("Range"), stat.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${stat.size}`);
    return new Response(null, { status: 416, headers });
  }
  const object = await store.get(key, range ?? undefined);
  if (!object) return new Response(t.errors.notFound, { status: 404 });
  const length = range ? range.end - range.start + 1 : stat.size;
  headers.set("Content-Length", String(length));
  if (range) headers.set("Content-Range", `bytes ${range.start}-${range.end}/${stat.size}`);
  const body = request.method === "HEAD" ? null : (Readable.toWeb(object.body) as ReadableStream<Uint8Array>);
  if (!body) object.body.destroy();
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
