import { PassThrough, pipeline, Readable } from "node:stream";
import type { AppServices } from "#app/.server/context.server.ts";
import { createSyndication, type Syndication } from "./syndication.server.ts";
import { requestIdFrom } from "#app/.server/errors.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { NO_STORE, SYNDICATION_CACHE } from "#app/lib/cache-headers.ts";

/** What the feeds, sitemaps and robots.txt read. */
export type SyndicationDeps = Pick<AppServices, "database" | "store" | "config" | "log" | "events">;

/** One syndication per running application (its caches), found by its database. */
const syndications = new WeakMap<SyndicationDeps["database"], Syndication>();
function syndicationOf({ database, store, config, events }: SyndicationDeps): Syndication {
  let syndication = syndications.get(database);
  if (!syndication) {
    const created = createSyndication({ db: database.db, store, site: config.site });
    // The feeds it keeps in memory follow the news and their live coverage, here and on every instance (sponsors
    // are not in them). Listeners run one after another in the same turn, so a page cache re-rendering the feed
    // after an event (an earlier listener) reads it only once this one has dropped the old copy.
    events.subscribe((event, detail) => {
      if (event !== "sponsorsUpdated" && !detail?.newsroomOnly) created.invalidate();
    });
    syndication = created;
    syndications.set(database, created);
  }
  return syndication;
}

/**
 * Answers a feed, sitemap or robots.txt request: the body (text, or a Node stream passed on as it is produced),
 * with its type and cache headers; 404 when `make` finds nothing; a logged 503 when the database fails.
 */
export async function respondWith(
  request: Request,
  services: SyndicationDeps,
  contentType: string,
  make: (syndication: Syndication) => Promise<string | Readable | null> | string | Readable | null,
): Promise<Response> {
  try {
    const body = await make(syndicationOf(services));
    if (body === null) return new Response(t.feeds.notFound, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    const headers = { "Content-Type": contentType, "Cache-Control": SYNDICATION_CACHE };
    if (typeof body === "string") return new Response(body, { headers });
    // The sitemap streams give strings (object mode): through a byte stream, so the response's body is bytes, as a
    // web stream must be (reading it whole, as the page cache does, refuses anything else).
    const bytes = new PassThrough();
    pipeline(body, bytes, (error) => {
      if (error) services.log.error({ err: error, reqId: requestIdFrom(request) }, "sitemap stream failed");
    });
    return new Response(Readable.toWeb(bytes) as ReadableStream, { headers });
  } catch (error) {
    services.log.error({ err: error, reqId: requestIdFrom(request) }, "syndication request failed");
    return new Response(t.feeds.unavailable, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "30", "Cache-Control": NO_STORE },
    });
  }
}
