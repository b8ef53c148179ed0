import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { onSiteEvent, onSiteEventsReconnect } from "./site-events.ts";

/**
 * How long after an event an open page may wait before reloading its data: each page picks its moment at random
 * within it, so ten thousand open pages ask the server (its page cache, the CDN) over two seconds instead of all in
 * the same 150 ms.
 */
export const RELOAD_SPREAD_MS = 2_000;
/** The shortest wait: several events of one save (the story, then its section) cause one reload. */
export const RELOAD_AFTER_MS = 150;

/**
 * Whether a `newsUpdated` event (its data: the changed stories' `paths`, when the change has them) concerns the page at
 * `pathname`. An article's page changes with its own story only (and not when only its live score changed:
 * `liveStory`); every other page (home, sections, lists, search, the newsroom) may show any story, and an event
 * without paths (a section renamed, the front page) concerns all.
 */
export function concernsPage(data: string, pathname: string): boolean {
  // The prefix of the article route (/article/:id/:slug?).
  if (!pathname.startsWith("/article/")) return true;
  let paths: unknown;
  let liveStory: unknown;
  try {
    ({ paths, liveStory } = JSON.parse(data) as { paths?: unknown; liveStory?: unknown });
  } catch {
    return true;
  }
  // Only a live story's score changed: its open article has it from the `liveUpdated` sent with it.
  if (typeof liveStory === "string" && articleIdOf(pathname) === liveStory) return false;
  if (!Array.isArray(paths) || paths.length === 0) return true;
  return paths.some((path) => typeof path === "string" && (pathname === path || pathname.startsWith(`${path}/`)));
}

/** The story id of an article's address (`/article/{id}[/{slug}]`). */
function articleIdOf(pathname: string): string | null {
  const segment = pathname.split("/")[2];
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Listens to the server's `newsUpdated` / `sponsorsUpdated` / `resync` events (and a reconnection of the stream, after
 * which events may have been missed) and reloads the page's data (home, lists, article, footer) once, at a random
 * moment within RELOAD_SPREAD_MS; events arriving before it are covered by that one reload. An article's page ignores
 * other stories' changes. (`liveUpdated`, a live story's update, reloads nothing: the story's open pages apply it
 * themselves, app/lib/use-live-coverage.ts.)
 */
export function useLiveUpdates(): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reload = () => {
      if (timer !== undefined) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          void revalidate.current();
        },
        RELOAD_AFTER_MS + Math.random() * RELOAD_SPREAD_MS,
      );
    };
    const stops = [
      onSiteEvent("newsUpdated", (data) => {
        if (concernsPage(data, window.location.pathname)) reload();
      }),
      onSiteEvent("sponsorsUpdated", reload),
      onSiteEvent("resync", reload),
      onSiteEventsReconnect(reload),
    ];
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, []);
}
