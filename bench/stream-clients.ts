/**
 * Open pages of a live article for `npm run bench:live`, in a process of their own (the bench starts several, so the
 * measuring side is not one event loop that saturates before the server does). Each page is a connection of its own
 * (no agent) to `GET /events` from its own address (X-Forwarded-For, which the app believes from its loopback proxy,
 * or a loopback address of its own), reading the stream as the page's script does (app/lib/use-live-coverage.ts): a
 * `liveUpdated` of the story that carries the new update is held at once; any other fetches the first page of
 * updates (GET /api/news/:id/updates), one fetch at a time per page; a `newsUpdated` that concerns the article
 * (app/lib/use-live-updates.ts) reloads its data once, at a moment spread as the page's script spreads it. Times are
 * milliseconds since the epoch (`performance.timeOrigin + performance.now()`), comparable between processes.
 *
 * Messages from the parent (IPC): `{ open }` → `{ ready, admitted, refused }`; `{ await, updateId, sentAt,
 * timeoutMs }` → `{ arrivals, updateId, delays, missed }` once every admitted page holds the update or the time is up;
 * `{ lost, ids }` → `{ lost, count, fetches, reloads }` (page × update pairs never held; the pages' fetches of updates
 * and reloads of their data in all); `{ close }` ends the process.
 */
import http from "node:http";
import { concernsPage, RELOAD_AFTER_MS, RELOAD_SPREAD_MS } from "#app/lib/use-live-updates.ts";

interface Open {
  type: "open";
  url: string;
  fetchUrl: string;
  newsId: string;
  /** Index of the first page (its address) and how many. */
  from: number;
  count: number;
  /**
   * Each page connects from a loopback address of its own (127.x.y.z) instead of saying it in X-Forwarded-For: what
   * nginx counts per address is the connection's, and 50 000 connections from one address would also run out of ports.
   */
  ownAddresses: boolean;
}
type Message = Open | { type: "await"; updateId: string; sentAt: number; timeoutMs: number } | { type: "lost"; ids: string[] } | { type: "close" };

const now = () => performance.timeOrigin + performance.now();
/** Page `i`'s address: `prefix` then two more bytes, never 0 or 255 in the last. */
const quad = (prefix: string, i: number) => `${prefix}.${Math.floor(i / 250 / 250) % 250}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;
const addressOf = (i: number) => quad("10", i);
/** A loopback address per page (127.0.0.1, the app's own, stays out: from 127.1.x.y on). */
const loopbackOf = (i: number) => quad("127", i + 250 * 250);

interface Page {
  held: Map<string, number>;
  admitted: boolean;
}

const pages: Page[] = [];
const requests: http.ClientRequest[] = [];
/** Updates the parent is waiting for: how many admitted pages hold each, and who to tell. */
const waits = new Map<string, { sentAt: number; delays: number[]; admitted: number; done: () => void }>();
let fetches = 0;
/** The pages' data reloads after a `newsUpdated` (what app/lib/use-live-updates.ts does: one per page, spread). */
let reloads = 0;

function hold(page: Page, updateId: string, at: number) {
  if (page.held.has(updateId)) return;
  page.held.set(updateId, at);
  const wait = waits.get(updateId);
  if (!wait) return;
  wait.delays.push(at - wait.sentAt);
  if (wait.delays.length >= wait.admitted) wait.done();
}

function openPage(options: Open, index: number): Promise<Page> {
  const page: Page = { held: new Map(), admitted: false };
  const url = new URL(options.url);
  const address = addressOf(index);
  let fetching = false;
  let again = false;
  const refresh = async (): Promise<void> => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      fetches++;
      const response = await fetch(`${options.fetchUrl}/api/news/${options.newsId}/updates`, {
        headers: { "accept-encoding": "br, gzip", "x-forwarded-for": address },
      });
      const body = (await response.json()) as { updates: Array<{ id: string }> };
      const at = now();
      for (const update of body.updates) hold(page, update.id, at);
    } catch {
      // As a page: the next event fetches again.
    } finally {
      fetching = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };
  return new Promise((resolve) => {
    let buffer = "";
    let reloading = false;
    const newsUpdates: string[] = [];
    const request = http.get(
      {
        host: url.hostname,
        port: Number(url.port),
        path: "/events",
        agent: false,
        headers: { Accept: "text/event-stream", ...(options.ownAddresses ? {} : { "X-Forwarded-For": address }) },
        ...(options.ownAddresses ? { localAddress: loopbackOf(index) } : {}),
      },
      (response) => {
        page.admitted = response.statusCode === 200;
        resolve(page);
        if (!page.admitted) {
          response.resume();
          request.destroy();
          return;
        }
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => read(chunk));
      },
    );
    requests.push(request);
    request.on("error", () => resolve(page));
    // Not answered within 15 s: counted as refused (a server past its limits may accept and never answer).
    request.setTimeout(15_000, () => {
      if (!page.admitted) {
        request.destroy();
        resolve(page);
      }
    });
    const read = (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        // `event:`, maybe an `id:` (nchan writes one), then `data:`.
        const name = /(?:^|\n)event: (\w+)\n/.exec(block)?.[1];
        const dataAt = block.indexOf("\ndata: ");
        if (!name || dataAt < 0) continue;
        const data = block.slice(dataAt + "\ndata: ".length);
        if (name === "newsUpdated") newsUpdates.push(data);
        if (name !== "liveUpdated") continue;
        let change: { newsId?: string; change?: string; update?: { id: string }; coverage?: unknown };
        try {
          change = JSON.parse(data) as typeof change;
        } catch {
          continue;
        }
        if (change.newsId !== options.newsId) continue;
        // As the page's script: what the event brings whole is not asked for (app/lib/use-live-coverage.ts).
        if (change.change === "created" && change.update) hold(page, change.update.id, now());
        else if (change.change === "scoreboard" && change.coverage !== undefined) continue;
        else void refresh();
      }
      for (const data of newsUpdates.splice(0)) {
        if (reloading || !concernsPage(data, `/article/${options.newsId}`)) continue;
        reloading = true;
        setTimeout(
          () => {
            reloading = false;
            reloads++;
            void fetch(`${options.fetchUrl}/article/${options.newsId}.data`, { headers: { "x-forwarded-for": address } })
              .then((response) => response.arrayBuffer())
              .catch(() => undefined);
          },
          RELOAD_AFTER_MS + Math.random() * RELOAD_SPREAD_MS,
        );
      }
    };
  });
}

process.on("message", (message: Message) => {
  if (message.type === "open") {
    void (async () => {
      // In rounds, so the server's accept queue is not flooded by thousands of connections in one tick.
      for (let i = 0; i < message.count; i += 200) {
        const round = Array.from({ length: Math.min(200, message.count - i) }, (_, j) => openPage(message, message.from + i + j));
        pages.push(...(await Promise.all(round)));
      }
      const admitted = pages.filter((page) => page.admitted).length;
      process.send?.({ type: "ready", admitted, refused: pages.length - admitted });
    })();
  } else if (message.type === "await") {
    const admitted = pages.filter((page) => page.admitted);
    const delays = admitted.flatMap((page) => {
      const at = page.held.get(message.updateId);
      return at === undefined ? [] : [at - message.sentAt];
    });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      waits.delete(message.updateId);
      process.send?.({
        type: "arrivals",
        updateId: message.updateId,
        delays,
        missed: admitted.length - delays.length,
      });
    };
    const timer = setTimeout(finish, message.timeoutMs);
    waits.set(message.updateId, { sentAt: message.sentAt, delays, admitted: admitted.length, done: finish });
    if (delays.length >= admitted.length) finish();
  } else if (message.type === "lost") {
    const count = message.ids.reduce((sum, id) => sum + pages.filter((page) => page.admitted && !page.held.has(id)).length, 0);
    process.send?.({ type: "lost", count, fetches, reloads });
  } else if (message.type === "close") {
    for (const request of requests) request.destroy();
    process.exit(0);
  }
});
