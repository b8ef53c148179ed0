import { useEffect } from "react";
import { SERVICE_WORKER_PATH } from "./offline-copies.ts";

/**
 * Registers the readers' service worker (app/service-worker/service-worker.ts: offline reading) once the page has
 * loaded and the browser is idle: nothing a first visit waits for, and the worker's own download (the reader shell it
 * precaches) starts after the page is interactive. Not under `npm run dev` (no worker is built there); a browser
 * without service workers, or one that refuses (private mode), reads the site as before.
 */
export function useServiceWorker(): void {
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    const register = () => {
      navigator.serviceWorker.register(SERVICE_WORKER_PATH).catch(() => {});
    };
    const whenIdle = () => ("requestIdleCallback" in window ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000));
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
  }, []);
}
