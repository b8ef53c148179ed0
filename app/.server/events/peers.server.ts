import cluster from "node:cluster";
import type { SiteEvent, SiteEventDetail } from "./event-bus.ts";

/**
 * The other worker processes of this server (`WORKERS` > 1, node:cluster): what one worker's change tells the others,
 * through the primary process (server/cluster-primary.ts relays each message to every other worker).
 */
export interface PeerChannel {
  send(event: SiteEvent, detail: SiteEventDetail | undefined): void;
  listen(listener: (event: SiteEvent, detail: SiteEventDetail) => void): () => void;
}

/** The message a worker's event travels in. */
export interface PeerEventMessage {
  eef: "event";
  event: SiteEvent;
  detail: SiteEventDetail;
}

export const isPeerEventMessage = (message: unknown): message is PeerEventMessage =>
  typeof message === "object" && message !== null && (message as { eef?: unknown }).eef === "event";

/** This process's peers when it is a cluster worker; null otherwise (one process: nobody to tell). */
export function clusterPeers(): PeerChannel | null {
  if (!cluster.isWorker || typeof process.send !== "function") return null;
  return {
    send(event, detail) {
      process.send?.({ eef: "event", event, detail: detail ?? {} } satisfies PeerEventMessage);
    },
    listen(listener) {
      const onMessage = (message: unknown) => {
        if (isPeerEventMessage(message)) listener(message.event, message.detail);
      };
      process.on("message", onMessage);
      return () => process.off("message", onMessage);
    },
  };
}
