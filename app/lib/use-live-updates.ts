import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/**
 * Listens to the server's `newsUpdated` / `sponsorsUpdated` / `resync` events and reloads the page's data (home, lists,
 * article, footer) when one arrives. Several events in a burst cause one reload.
 */
export function useLiveUpdates(): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void revalidate.current(), 150);
    };
    source.addEventListener("newsUpdated", onChange);
    source.addEventListener("sponsorsUpdated", onChange);
    source.addEventListener("resync", onChange);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);
}
