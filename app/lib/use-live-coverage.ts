import { href } from "react-router";
import { useCallback, useEffect, useRef, useState } from "react";
import { LIVE_LIMITS } from "./limits.ts";
import { byNewest, isKeyEvent, keyEventOf, type LiveChangeEvent, type LiveUpdatesPage, type LiveUpdateView, withKeyEvent } from "./live-coverage.ts";
import { onSiteEvent, onSiteEventsReconnect } from "./site-events.ts";

/**
 * An article's live coverage in the browser: starts from the server's page (what a reader without JavaScript sees)
 * and follows the story's `liveUpdated` events. An event that brings the new update, the new score or a deletion is
 * applied as it is; any other (and a reconnection, a `resync`) fetches the first page of updates
 * (GET /api/news/:id/updates, shared by the page cache and the CDN) and reconciles: new updates go on top, or wait in
 * `pending` ("N novas atualizações") when the reader has scrolled into the list, so the page never moves under them;
 * edits and deletions apply in place; the scoreboard, pinned updates and key events are replaced. An edit to an
 * update beyond the first page is fetched on its own. `unseen` counts the new updates the reader has not seen yet
 * (tab hidden, or waiting in `pending`), for the tab title.
 */
export interface LiveCoverageState {
  page: LiveUpdatesPage;
  pending: LiveUpdateView[];
  unseen: number;
  /** Shows the waiting updates (the "N novas atualizações" button). */
  showPending: () => void;
  /** The caller's own change (the newsroom's composer): applies the page it fetched at once. */
  refresh: () => Promise<void>;
}

/** How long after a stale copy of the first page it is asked for again. */
const STALE_RETRY_MS = 1_000;

export function useLiveCoverage(
  newsId: string,
  initial: LiveUpdatesPage,
  options: { firstPage: boolean; listRef: React.RefObject<HTMLElement | null> },
): LiveCoverageState {
  const [page, setPage] = useState(initial);
  const [pending, setPending] = useState<LiveUpdateView[]>([]);
  const [unseen, setUnseen] = useState(0);
  const state = useRef({ page, pending });
  const deferred = useRef<Pick<LiveUpdatesPage, "keyEvents" | "pinned"> | null>(null);
  state.current = { page, pending };
  const { firstPage, listRef } = options;

  // The server's page again (a reload of the route's data: the coverage started, ended, the story changed).
  useEffect(() => {
    setPage(initial);
    setPending([]);
  }, [initial]);

  const scrolledIntoList = useCallback(() => {
    const list = listRef.current;
    return list ? list.getBoundingClientRect().top < 0 : false;
  }, [listRef]);

  const reconcile = useCallback(
    (fresh: LiveUpdatesPage) => {
      const { page: current, pending: waiting } = state.current;
      const inFresh = new Map(fresh.updates.map((update) => [update.id, update]));
      const pinnedNow = new Set(fresh.pinned.map((update) => update.id));
      const oldestFresh = fresh.updates.at(-1)?.createdAt ?? "";
      // Whether the fresh first page speaks for this update's place: it holds every update from its oldest on.
      const covered = (update: LiveUpdateView) => firstPage && (fresh.nextCursor === null || update.createdAt >= oldestFresh);
      // As it is now; gone when pinned since, or deleted (the fresh page covers its time and does not have it).
      const keep = (list: LiveUpdateView[]) =>
        list
          .filter((update) => !pinnedNow.has(update.id) && (inFresh.has(update.id) || !covered(update)))
          .map((update) => inFresh.get(update.id) ?? update);
      const kept = keep(current.updates);
      const stillWaiting = keep(waiting);
      const listed = new Set([...current.updates, ...waiting].map((update) => update.id));
      const wasPinned = new Set(current.pinned.map((update) => update.id));
      // An update older than the oldest shown, while older ones are on the next page, is not new: it moved up into the
      // first page (one above it was pinned or deleted). It stays on the next page, where the link leads.
      const oldestShown = current.updates.at(-1)?.createdAt ?? "";
      const slidIn = (update: LiveUpdateView) => current.nextCursor !== null && update.createdAt < oldestShown;
      const missing = firstPage ? fresh.updates.filter((update) => !listed.has(update.id) && (wasPinned.has(update.id) || !slidIn(update))) : [];
      // Unpinned since: back in the list at its place. New: on top, or waiting when the reader is inside the list.
      const unpinned = missing.filter((update) => wasPinned.has(update.id));
      const arrivals = missing.filter((update) => !wasPinned.has(update.id));
      const hold = arrivals.length > 0 && (scrolledIntoList() || stillWaiting.length > 0);
      const shown = [...(hold ? [] : arrivals), ...unpinned, ...kept].sort(byNewest);
      setPending(hold ? [...arrivals, ...stillWaiting].sort(byNewest) : stillWaiting);
      // Held: the summary and the pinned updates above the list wait too (the page must not move under the reader).
      deferred.current = hold ? { keyEvents: fresh.keyEvents, pinned: fresh.pinned } : null;
      setPage({
        ...fresh,
        ...(hold ? { keyEvents: current.keyEvents, pinned: current.pinned } : {}),
        updates: shown,
        nextCursor: current.nextCursor,
        media: { ...current.media, ...fresh.media },
      });
      const newPinned = fresh.pinned.filter((update) => !wasPinned.has(update.id) && !listed.has(update.id)).length;
      const fresher = arrivals.length + newPinned;
      if (fresher > 0 && (hold || document.visibilityState === "hidden")) setUnseen((count) => count + fresher);
    },
    [firstPage, scrolledIntoList],
  );

  const refresh = useCallback(
    async (again = true): Promise<void> => {
      try {
        const response = await fetch(href("/api/news/:id/updates", { id: newsId }), { headers: { Accept: "application/json" } });
        if (!response.ok) return;
        const fresh = (await response.json()) as LiveUpdatesPage;
        // A copy older than what the events already brought (a cache that had not heard of the change yet) would take
        // the newest updates away: asked once more a moment later instead (a copy older still waits for the next event).
        const held = state.current.page.coverage?.updatedAt;
        const got = fresh.coverage?.updatedAt;
        if (held && got && got < held) {
          if (again) setTimeout(() => void refresh(false), STALE_RETRY_MS);
          return;
        }
        reconcile(fresh);
      } catch {
        // Offline for a moment: the next event or the reconnection fetches again.
      }
    },
    [newsId, reconcile],
  );

  /**
   * A new update the event brought whole: reconciled as if the first page had been fetched with it on top (so it
   * waits in `pending` the same way, and the summary and the pinned updates follow).
   */
  const applyNew = useCallback(
    (update: LiveUpdateView, media: LiveUpdatesPage["media"], coverage: LiveUpdatesPage["coverage"] | undefined) => {
      const { page: current, pending: waiting } = state.current;
      // The summary and the pinned updates as they are, held ones included.
      const above = deferred.current ?? current;
      reconcile({
        coverage: coverage === undefined ? current.coverage : coverage,
        pinned:
          firstPage && update.pinned ? [update, ...above.pinned.filter((each) => each.id !== update.id)].slice(0, LIVE_LIMITS.pinned) : above.pinned,
        keyEvents: firstPage && isKeyEvent(update) ? withKeyEvent(above.keyEvents, keyEventOf(update)) : above.keyEvents,
        updates: [...(update.pinned ? [] : [update]), ...waiting, ...current.updates],
        nextCursor: current.nextCursor,
        media: { ...current.media, ...media },
      });
    },
    [firstPage, reconcile],
  );

  /** An update beyond the first page was edited: that one, in place. */
  const refreshOne = useCallback(
    async (updateId: string) => {
      try {
        const response = await fetch(href("/api/news/:id/updates/:updateId", { id: newsId, updateId }));
        if (!response.ok) return;
        const { update, media } = (await response.json()) as { update: LiveUpdateView; media: LiveUpdatesPage["media"] };
        setPage((current) => ({
          ...current,
          updates: current.updates.filter((each) => !(update.pinned && each.id === update.id)).map((each) => (each.id === update.id ? update : each)),
          media: { ...current.media, ...media },
        }));
      } catch {
        // As above.
      }
    },
    [newsId],
  );

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A burst of events (a goal, then the scoreboard) fetches once.
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), 50);
    };
    const stopLive = onSiteEvent("liveUpdated", (data) => {
      let change: LiveChangeEvent;
      try {
        change = JSON.parse(data) as LiveChangeEvent;
      } catch {
        return;
      }
      if (change.newsId !== newsId) return;
      const coverage = change.coverage === undefined ? {} : { coverage: change.coverage };
      // Brought whole by the event: nothing to ask the server (ten thousand open pages would all ask at once).
      if (change.change === "created" && change.update && change.media) {
        applyNew(change.update, change.media, change.coverage);
        return;
      }
      if (change.change === "scoreboard" && change.coverage !== undefined) {
        setPage((now) => ({ ...now, ...coverage }));
        return;
      }
      if (change.change === "deleted" && change.updateId) {
        const gone = change.updateId;
        const { page: now, pending: waiting } = state.current;
        const above = deferred.current ?? now;
        // Another pinned update or key event may come up in its place: only the server knows which.
        const makesRoom =
          above.pinned.some((each) => each.id === gone) ||
          (above.keyEvents.some((each) => each.id === gone) && above.keyEvents.length >= LIVE_LIMITS.keyEvents);
        const without = <T extends { id: string }>(list: T[]) => list.filter((each) => each.id !== gone);
        if (deferred.current) deferred.current = { pinned: without(deferred.current.pinned), keyEvents: without(deferred.current.keyEvents) };
        setPage({ ...now, ...coverage, updates: without(now.updates), pinned: without(now.pinned), keyEvents: without(now.keyEvents) });
        setPending(without(waiting));
        if (!makesRoom && change.coverage !== undefined) return;
      }
      // An edit may be beyond the first page: that update on its own, besides the first page.
      if (change.change === "edited" && change.updateId && state.current.page.updates.some((each) => each.id === change.updateId)) {
        void refreshOne(change.updateId);
      }
      soon();
    });
    const stopResync = onSiteEvent("resync", soon);
    const stopReconnect = onSiteEventsReconnect(soon);
    return () => {
      clearTimeout(timer);
      stopLive();
      stopResync();
      stopReconnect();
    };
  }, [newsId, refresh, refreshOne, applyNew]);

  // Seen: the tab is visible again with nothing waiting, or the reader is back at the top of the list.
  useEffect(() => {
    const seen = () => {
      if (document.visibilityState === "visible" && state.current.pending.length === 0) setUnseen(0);
    };
    document.addEventListener("visibilitychange", seen);
    return () => document.removeEventListener("visibilitychange", seen);
  }, []);

  const showPending = useCallback(() => {
    const held = deferred.current;
    deferred.current = null;
    setPage((current) => ({ ...current, ...held, updates: [...state.current.pending, ...current.updates].sort(byNewest) }));
    setPending([]);
    setUnseen(0);
    listRef.current?.scrollIntoView({ block: "start" });
  }, [listRef]);

  return { page, pending, unseen, showPending, refresh };
}
