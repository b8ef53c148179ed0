import type { Route } from "./+types/events";
import { getServices } from "../../.server/app.server.ts";

/** How often a comment line keeps idle connections (and proxies) open. */
const HEARTBEAT_MS = 25_000;

/**
 * Server-Sent Events: `newsUpdated` and `sponsorsUpdated` reach every open page, which reloads its data.
 * Public: the events carry no data, only the fact that something changed.
 */
export function loader({ request }: Route.LoaderArgs) {
  const { events } = getServices();
  const encoder = new TextEncoder();
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
      const unsubscribe = events.subscribe((event) => send(`event: ${event}\ndata: {}\n\n`));
      const offClose = events.onClose(close);
      const heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        offClose();
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
