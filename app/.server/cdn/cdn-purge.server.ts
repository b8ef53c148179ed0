import { href } from "react-router";
import type { CdnConfig } from "#app/.server/config/env.server.ts";
import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { purgeKeysOf, SITE_KEY } from "./surrogate-keys.ts";

/** Pages a CDN that purges only by URL (Cloudflare below Enterprise) is told to drop on any story change: the lists. */
const LIST_PATHS = [
  "/",
  "/_.data",
  href("/news-list"),
  `${href("/news-list")}.data`,
  href("/rss.xml"),
  href("/rss/destaques.xml"),
  href("/sitemap.xml"),
];
/** Cloudflare takes at most 30 URLs per purge call. */
const CLOUDFLARE_BATCH = 30;
/** Events that arrive together (a bulk publish) go out as one purge, this long after the first. */
const BATCH_MS = 10;
const TIMEOUT_MS = 5000;

interface PurgeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The requests that purge `keys` at each kind of CDN (docs/decisions/010-cdn-purge.md). */
export function purgeRequests(config: CdnConfig, siteUrl: string, keys: string[]): PurgeRequest[] {
  if (config.provider === "varnish") {
    // The keys as they are: the VCL checks their alphabet and matches each one literally (it escapes the dots itself).
    return [{ url: `${config.purgeUrl}/`, method: "PURGE", headers: { "Surrogate-Key": keys.join(" ") } }];
  }
  if (config.provider === "fastly") {
    // Fastly's purge of several surrogate keys in one call (at most 256).
    return chunks(keys, 256).map((part) => ({
      url: `${config.purgeUrl}/service/${config.serviceId}/purge`,
      method: "POST",
      headers: { "Fastly-Key": config.token ?? "", "Surrogate-Key": part.join(" ") },
    }));
  }
  const url = `${config.purgeUrl}/zones/${config.serviceId}/purge_cache`;
  const headers = { Authorization: `Bearer ${config.token}`, "Content-Type": "application/json" };
  if (keys.includes(SITE_KEY)) return [{ url, method: "POST", headers, body: JSON.stringify({ purge_everything: true }) }];
  // By URL: each changed page and its `.data`, and the lists.
  const paths = keys.filter((key) => key.startsWith("/")).flatMap((path) => [path, `${path}.data`]);
  const files = [...new Set([...paths, ...LIST_PATHS])].map((path) => siteUrl + path);
  return chunks(files, CLOUDFLARE_BATCH).map((part) => ({ url, method: "POST", headers, body: JSON.stringify({ files: part }) }));
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += size) result.push(items.slice(index, index + size));
  return result;
}

/**
 * The event bus subscriber that purges the CDN in front: every change this instance hears of (its own or another
 * instance's) purges the changed story's pages and the lists, or the whole site for an event without paths. Events
 * of the same moment go out as one purge. A failed purge is logged (one warning per outage), never thrown: the CDN
 * then serves the old page until its own expiry (CDN-Cache-Control: 30 s).
 */
export function createCdnPurger(
  config: CdnConfig,
  { siteUrl, log, fetch: send = globalThis.fetch }: { siteUrl: string; log: Pick<Logger, "warn" | "info">; fetch?: typeof fetch },
) {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let failing = false;
  let inFlight: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    timer = null;
    const keys = pending.has(SITE_KEY) ? [SITE_KEY] : [...pending];
    pending.clear();
    for (const request of purgeRequests(config, siteUrl, keys)) {
      try {
        const response = await send(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        if (failing) log.info({ cdn: config.provider }, "cdn purge works again");
        failing = false;
      } catch (error) {
        if (!failing) log.warn({ err: error, cdn: config.provider, keys }, "cdn purge failed: the CDN serves old pages until they expire");
        failing = true;
      }
    }
  }

  return {
    onEvent(event: SiteEvent, detail: SiteEventDetail): void {
      // An unpublished story's change: nothing the CDN stores changed.
      if (detail?.newsroomOnly) return;
      for (const key of purgeKeysOf(detail?.paths, { lists: event !== "liveUpdated" })) pending.add(key);
      timer ??= setTimeout(() => {
        inFlight = inFlight.then(flush);
      }, BATCH_MS);
    },
    /** Resolves once the purges asked for so far have been sent (tests, shutdown). */
    async settled(): Promise<void> {
      while (timer) await new Promise((resolve) => setTimeout(resolve, BATCH_MS));
      await inFlight;
    },
  };
}
