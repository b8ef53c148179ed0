/**
 * Turning a device's alerts on, changing them, or off (loaded when a "Receber alertas" button is tapped): the
 * browser's permission (asked only now), its push subscription made with the site's public key (GET /api/push), and
 * the whole list of topics sent to POST /api/push/subscriptions; an empty list unsubscribes (DELETE) and drops the
 * browser's subscription. Needs the readers' service worker (it shows the notifications): registered here if the page
 * has not done it yet.
 */
import { href } from "react-router";
import { SERVICE_WORKER_PATH } from "./offline-copies.ts";
import type { PushTopic } from "./push-topics.ts";

export type AlertsOutcome = "ok" | "unsupported" | "denied" | "failed";

const READY_TIMEOUT_MS = 10_000;

export function alertsSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function workerRegistration(): Promise<ServiceWorkerRegistration | null> {
  const existing = await navigator.serviceWorker.getRegistration();
  if (!existing) {
    // The page registers its worker once idle (use-service-worker.ts); a tap before that does it now. None in dev.
    if (!import.meta.env.PROD) return null;
    await navigator.serviceWorker.register(SERVICE_WORKER_PATH);
  }
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), READY_TIMEOUT_MS));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

const json = (body: unknown): RequestInit => ({ headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

/** Makes `topics` what this device follows. */
export async function changeAlerts(topics: readonly PushTopic[]): Promise<AlertsOutcome> {
  if (!alertsSupported()) return "unsupported";
  try {
    const registration = await workerRegistration();
    if (!registration) return "unsupported";
    const current = await registration.pushManager.getSubscription();
    if (topics.length === 0) {
      if (current) {
        await fetch(href("/api/push/subscriptions"), { method: "DELETE", ...json({ endpoint: current.endpoint }) });
        await current.unsubscribe();
      }
      return "ok";
    }
    const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    if (permission !== "granted") return "denied";
    let subscription = current;
    if (!subscription) {
      const answer = await fetch(href("/api/push"));
      if (!answer.ok) return "failed";
      const { publicKey } = (await answer.json()) as { publicKey: string };
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    }
    const saved = await fetch(href("/api/push/subscriptions"), { method: "POST", ...json({ subscription: subscription.toJSON(), topics }) });
    return saved.ok ? "ok" : "failed";
  } catch {
    return "failed";
  }
}
