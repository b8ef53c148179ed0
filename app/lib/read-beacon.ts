import { href } from "react-router";

/** Must match READ_BEACON_HEADER on the server (app/.server/news/reads/read-limiter.server.ts). */
const BEACON_HEADER = "X-Read-Beacon";

/**
 * Tells the server that this article was shown: one POST to /api/reads, same origin, no cookie needed, sent with
 * `keepalive` so it survives the reader leaving at once. Part of the bundled client code (no inline script, nothing
 * third-party: the Content-Security-Policy's `connect-src 'self'` covers it). Failures are ignored: a lost read
 * never bothers the reader.
 */
export function sendReadBeacon(newsId: string): void {
  try {
    void fetch(href("/api/reads"), {
      method: "POST",
      keepalive: true,
      credentials: "omit",
      headers: { "Content-Type": "application/json", [BEACON_HEADER]: "1" },
      body: JSON.stringify({ id: newsId }),
    }).catch(() => undefined);
  } catch {
    // An old browser without fetch options: the read is simply not counted.
  }
}
