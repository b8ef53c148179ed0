import type { Route } from "./+types/events";
import { isNewsroomViewer } from "../../.server/auth/guards.server.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { t } from "../../i18n/pt-BR.ts";
import { clientIpContext } from "../../lib/request-context.ts";
import { PRIVATE_ROUTE } from "../../lib/route-facts.ts";

/** How often a comment line keeps idle connections (and proxies) open. */
const HEARTBEAT_MS = 25_000;

/**
 * Open streams allowed per client address and in all: a reader has a few tabs; one address holding thousands of
 * connections is an attack, and each stream costs a socket and memory. Beyond them the answer is a 429 (an
 * EventSource then stops trying, and the page simply has no live updates); nothing else slows down.
 */
export const EVENT_STREAM_LIMITS = { perAddress: 20, total: 5_000 };
const openStreams = { total: 0, byAddress: new Map<string, number>() };

/** Counts a stream in; returns the function that counts it out (once), or null when a limit is reached. */
function admitStream(address: string): (() => void) | null {
  const mine = openStreams.byAddress.get(address) ?? 0;
  if (mine >= EVENT_STREAM_LIMITS.perAddress || openStreams.total >= EVENT_STREAM_LIMITS.total) return null;
  openStreams.byAddress.set(address, mine + 1);
  openStreams.total++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    openStreams.total--;
    const left = (openStreams.byAddress.get(address) ?? 1) - 1;
    if (left > 0) openStreams.byAddress.set(address, left);
    else openStreams.byAddress.delete(address);
  };
}

/**
 * Server-Sent Events: `newsUpdated`, `sponsorsUpdated` and `resync` reach every open page, which reloads its data;
 * `liveUpdated` (`{ newsId, updateId?, change }`) reaches the open pages of that live story, which fetch the change.
 * Public: the events carry no content, only the fact that something changed, and nothing of a story readers do not
 * see (a change only the newsroom sees, `newsroomOnly` — any change to an unpublished story, its live coverage's
 * included —, goes to signed-in members' streams alone).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { events } = servicesOf(context);
  const release = admitStream(context.get(clientIpContext));
  if (!release) {
    return new Response(t.events.tooManyStreams, {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "60" },
    });
  }
  const encoder = new TextEncoder();
  // Whether this stream is a newsroom member's (looked up once; a failed look is a reader's).
  const newsroom = isNewsroomViewer(request, context).catch(() => false);
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const close = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      // Only `liveUpdated` says more than its name: which story's coverage changed, and how (no content); an
      // unpublished story's is newsroomOnly (live-coverage.server.ts).
      const unsubscribe = events.subscribe((event, detail) => {
        if (event === "liveUpdated" && !detail.live) return;
        const message = `event: ${event}\ndata: ${event === "liveUpdated" ? JSON.stringify(detail.live) : "{}"}\n\n`;
        // A change only the newsroom sees (an unpublished story's) goes to the newsroom's streams alone.
        if (detail.newsroomOnly) void newsroom.then((member) => member && send(message));
        else send(message);
      });
      const offClose = events.onClose(close);
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        offClose();
        release();
      };
      request.signal.addEventListener("abort", close);
      send("retry: 3000\n: conectado\n\n");
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
