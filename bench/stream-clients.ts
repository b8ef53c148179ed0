/**
 * Open pages of a live article for `npm run bench:live`, in a process of their own (the bench starts several, so the
 * measuring side is not one event loop that saturates before the server does). Each page is a bare TCP connection
 * to `GET /events` from its own address (X-Forwarded-For; the app trusts its loopback proxy), reading the stream as
 * the page's script does (app/lib/use-live-coverage.ts): a `liveUpdated` of the story that carries the new update is
 * held at once; any other fetches the first page of updates (GET /api/news/:id/updates), one fetch at a time per
 * page; a `newsUpdated` that concerns the article (app/lib/use-live-updates.ts) reloads its data once, at a moment
 * spread as the page's script spreads it. Times are milliseconds since the epoch (`performance.timeOrigin + performance.now()`), comparable between
 * processes.
 *
 * Messages from the parent (IPC): `{ open }` → `{ ready, admitted, refused }`; `{ await, updateId, sentAt,
 * timeoutMs }` → `{ arrivals, updateId, delays, missed }` once every admitted page holds the update or the time is up;
 * `{ lost, ids }` → `{ lost, count, fetches, reloads }` (page × update pairs never held; the pages' fetches of updates
 * and reloads of their data in all); `{ close }` ends the process.
 */
import net from "node:net";
import { concernsPage, RELOAD_AFTER_MS, RELOAD_SPREAD_MS } from "../app/lib/use-live-updates.ts";

interface Open {
  type: "open";
  url: string;
  fetchUrl: string;
  newsId: string;
  /** Index of the first page (its address) and how many. */
  from: number;
  count: number;
}
type Message = Open | { type: "await"; updateId: string; sentAt: number; timeoutMs: number } | { type: "lost"; ids: string[] } | { type: "close" };

const now = () => performance.timeOrigin + performance.now();
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i & 255) + 1}`;

interface Page {
  held: Map<string, number>;
  admitted: boolean;
}

const pages: Page[] = [];
const sockets: net.Socket[] = [];
/** Updates the parent is waiting for: how many admitted pages hold each, and who to tell. */
const waits = new Map<string, { sentAt: number; delays: number[]; done: () => void }>();
let fetches = 0;
/** The pages' data reloads after a `newsUpdated` (what app/lib/use-live-updates.ts does: one per page, spread). */
let reloads = 0;

function hold(page: Page, updateId: string, at: number) {
  if (page.held.has(updateId)) return;
  page.held.set(updateId, at);
  const wait = waits.get(updateId);
  if (!wait) return;
  wait.delays.push(at - wait.sentAt);
  if (wait.delays.length >= pages.filter((each) => each.admitted).length) wait.done();
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
    const socket = net.connect(Number(url.port), url.hostname);
    sockets.push(socket);
    socket.setEncoding("utf8");
    let buffer = "";
    let answered = false;
    let reloading = false;
    const newsUpdates: string[] = [];
    socket.on("connect", () => {
      socket.write(
        `GET /events HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nX-Forwarded-For: ${address}\r\nConnection: keep-alive\r\n\r\n`,
      );
    });
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      if (!answered) {
        const head = buffer.indexOf("\r\n\r\n");
        if (head < 0) return;
        answered = true;
        page.admitted = buffer.startsWith("HTTP/1.1 200");
        buffer = buffer.slice(head + 4);
        resolve(page);
        if (!page.admitted) socket.destroy();
      }
      // Each event is one write of the server, so one chunk of the chunked body: its size line comes before "event:".
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const news = block.indexOf("event: newsUpdated\ndata: ");
        if (news >= 0) newsUpdates.push(block.slice(news + "event: newsUpdated\ndata: ".length));
        const start = block.indexOf("event: liveUpdated\ndata: ");
        if (start < 0) continue;
        let change: { newsId?: string; change?: string; update?: { id: string }; coverage?: unknown };
        try {
          change = JSON.parse(block.slice(start + "event: liveUpdated\ndata: ".length)) as typeof change;
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
    });
    socket.on("error", () => {
      if (!answered) {
        answered = true;
        resolve(page);
      }
    });
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
    waits.set(message.updateId, { sentAt: message.sentAt, delays, done: finish });
    if (delays.length >= admitted.length) finish();
  } else if (message.type === "lost") {
    const count = message.ids.reduce((sum, id) => sum + pages.filter((page) => page.admitted && !page.held.has(id)).length, 0);
    process.send?.({ type: "lost", count, fetches, reloads });
  } else if (message.type === "close") {
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  }
});
