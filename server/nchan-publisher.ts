import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { eventData } from "./event-streams.ts";

/**
 * LIVE_FANOUT=nchan: every event this instance originates that readers hear is published to nginx's nchan module
 * (NCHAN_PUBLISH_URL, deploy/nginx/esporte-em-foco-nchan.conf), which holds the readers' open streams and writes it to
 * each as `event: <name>` / `data: <the same JSON the app's own streams send>`. One POST per event, in order, on a
 * kept-alive connection; a failed one is logged (at most once a minute) and the next goes on: the pages reload their
 * data when their stream comes back, as with the app's own streams.
 *
 * Not published: what only the newsroom sees (members' streams are the app's, nginx gives them to it), and what this
 * instance heard from another (`remote`: that one published it).
 */
export interface NchanPublisher {
  onEvent(event: SiteEvent, detail: SiteEventDetail): void;
  /** Resolves once every event handed over so far was published or given up (tests, shutdown). */
  idle(): Promise<void>;
}

const PUBLISH_TIMEOUT_MS = 5_000;
const WARN_EVERY_MS = 60_000;

export function createNchanPublisher(options: { publishUrl: string; log: Pick<Logger, "warn"> }): NchanPublisher {
  let queue: Promise<void> = Promise.resolve();
  let lastWarning = 0;
  let failed = 0;
  const publish = async (event: SiteEvent, data: string) => {
    const response = await fetch(options.publishUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-EventSource-Event": event },
      body: data,
      signal: AbortSignal.timeout(PUBLISH_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`nchan answered ${response.status}`);
  };
  return {
    onEvent(event, detail) {
      if (detail.remote || detail.newsroomOnly) return;
      const data = eventData(event, detail);
      if (data === null) return;
      queue = queue
        .then(() => publish(event, data))
        .catch((error: unknown) => {
          failed++;
          const now = Date.now();
          if (now - lastWarning < WARN_EVERY_MS) return;
          options.log.warn({ err: error, event, failed, publishUrl: options.publishUrl }, "live fan-out: publishing to nchan failed");
          lastWarning = now;
          failed = 0;
        });
    },
    idle: () => queue,
  };
}
