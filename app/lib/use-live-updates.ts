import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { onSiteEvent } from "./site-events.ts";

/**
 * Listens to the server's `newsUpdated` / `sponsorsUpdated` / `resync` events and reloads the page's data (home, lists,
 * article, footer) when one arrives. Several events in a burst cause one reload. (`liveUpdated`, a live story's
 * update, reloads nothing: the story's open pages apply it themselves, app/lib/use-live-coverage.ts.)
 */
export function useLiveUpdates(): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void revalidate.current(), 150);
    };
    const stops = ["newsUpdated", "sponsorsUpdated", "resync"].map((type) => onSiteEvent(type, onChange));
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, []);
}
