import { href, Link, useLocation, useNavigationType } from "react-router";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Banner } from "#app/components/admin/banner.tsx";
import { DeleteNewsButton } from "#app/components/admin/lazy-delete-news-button.tsx";
import { Spinner } from "#app/components/ui/spinner.tsx";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { isListedAfter, LIST_PAGE_SIZE, type NewsSummary } from "#app/lib/news-view.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { mayChangeStory } from "#app/lib/roles.ts";
import { recallList, rememberList } from "#app/lib/list-memory.ts";
import { FIRST_ROW_WHEN_WIDE, NewsCard } from "./news-card.tsx";
import grid from "./news-grid.module.css";

interface PagedGridProps {
  /** The page the server rendered (and re-renders on live updates). */
  first: NewsSummary[];
  /** Admins: reads of the last 7 days by news id (the pages loaded later bring theirs); null for readers. */
  reads?: Record<string, number> | null;
  nextCursor: string | null;
  /** This page starts after an earlier one (a "Mais notícias" link followed without JavaScript). */
  continued: boolean;
  /**
   * The page's own URL starting after `cursor` (the "Mais notícias" link, followed as is without JavaScript); with
   * null, its first page (the "Primeira página" link of a later page).
   */
  pageHref(cursor: string | null): string;
  /** What /api/news is asked besides the cursor and limit (e.g. `highlighted=1`, `category=volei`, `status=draft`). */
  apiQuery: string;
  /** The site's time zone (a scheduled item's time, for admins). */
  timeZone: string;
}

/** The app has hydrated: a grid rendered from now on may start from what it remembered (not the server's HTML). */
let hydrated = false;

interface Loaded {
  first: NewsSummary[];
  /** Older items loaded in this page as the reader scrolled, in list order. */
  more: NewsSummary[];
  next: string | null;
}

/**
 * The cards of one list (a tab of the list page, a category's or an author's page): the server renders the first screenful with a plain "Mais notícias" link to the next page
 * (works without JavaScript, and lets crawlers reach every article). In the browser the same link, or scrolling near
 * it, appends the next page in place, from the JSON API with the same keyset cursor.
 */
export function PagedGrid({ first, reads = null, nextCursor, continued, pageHref, apiQuery, timeZone }: PagedGridProps) {
  const { isAdmin, role, userId } = useRootData();
  // Back from an article: the cards loaded before come back (list-memory.ts), in the first render after a client-side
  // navigation so the router's scroll restoration finds them; after a full load, once hydrated (the first render must
  // be the server's).
  const location = useLocation();
  const memoryKey = `${location.key}|${location.pathname}${location.search}|${apiQuery}`;
  // Only coming back (the router's POP: back, forward); a new visit to the list starts from its first page.
  const back = useNavigationType() === "POP";
  const [loaded, setLoaded] = useState<Loaded>(() => {
    const recalled = hydrated && back && !continued ? recallList(memoryKey) : null;
    return recalled ? { first, more: recalled.more, next: recalled.next } : { first, more: [], next: nextCursor };
  });
  const [status, setStatus] = useState<"idle" | "loading" | "failed">("idle");
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [moreReads, setMoreReads] = useState<Record<string, number>>({});
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const moreLink = useRef<HTMLAnchorElement>(null);
  const retryButton = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  /** Index of the first card of the page being loaded. */
  const firstNew = useRef<number | null>(null);
  /** "Mais notícias" or "Tentar de novo" was pressed (not just scrolled to). */
  const pressed = useRef(false);

  // A live update re-rendered the first page: keep the older items already loaded that it does not reach (cursors are
  // stable, so the next page still starts where it did).
  if (loaded.first !== first) {
    const last = first.at(-1);
    const kept = loaded.more.length && nextCursor && last ? [...loaded.first, ...loaded.more].filter((item) => isListedAfter(item, last)) : [];
    setLoaded({ first, more: kept, next: kept.length ? loaded.next : nextCursor });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after the first (hydrating) render.
  useEffect(() => {
    if (hydrated || continued) return;
    hydrated = true;
    // A full load: the browser says whether it came back to this entry (then the first entry's key is "default" again).
    const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    if (entry?.type !== "back_forward") return;
    const recalled = recallList(memoryKey);
    if (recalled) setLoaded((current) => (current.more.length ? current : { ...current, more: recalled.more, next: recalled.next }));
  }, []);
  useEffect(() => {
    hydrated = true;
    rememberList(memoryKey, loaded.more, loaded.next);
  }, [memoryKey, loaded.more, loaded.next]);

  const items = [...loaded.first, ...loaded.more].filter((item) => !removed.has(item.id));
  const next = loaded.next;

  const loadMore = useCallback(async () => {
    if (!next || status === "loading") return;
    setStatus("loading");
    firstNew.current = items.length;
    const params = new URLSearchParams(apiQuery);
    params.set("cursor", next);
    params.set("limit", String(LIST_PAGE_SIZE));
    try {
      const response = await fetch(`${href("/api/news")}?${params}`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const page = (await response.json()) as { news: NewsSummary[]; nextCursor: string | null; reads?: Record<string, number> };
      if (page.reads) setMoreReads((current) => ({ ...current, ...page.reads }));
      setLoaded((current) => {
        if (current.next !== next) return current;
        const shown = new Set([...current.first, ...current.more].map((item) => item.id));
        return { ...current, more: [...current.more, ...page.news.filter((item) => !shown.has(item.id))], next: page.nextCursor };
      });
      setStatus("idle");
    } catch {
      setStatus("failed");
    }
  }, [next, status, apiQuery, items.length]);

  // Scrolling near the end loads the next page (well before the reader reaches it).
  useEffect(() => {
    const link = moreLink.current;
    if (!link || !next || status !== "idle" || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { rootMargin: "0px 0px 800px 0px" },
    );
    observer.observe(link);
    return () => observer.disconnect();
  }, [next, status, loadMore]);

  // When a page asked for with "Mais notícias" (keyboard, screen reader) arrives, focus goes on to its first card
  // instead of staying at the bottom. Pages loaded by scrolling leave focus alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: items.length is the trigger (a page of cards arrived), read through the list's DOM.
  useEffect(() => {
    const from = firstNew.current;
    if (status === "failed" && pressed.current) retryButton.current?.focus();
    if (from === null || status !== "idle") return;
    firstNew.current = null;
    if (pressed.current) list.current?.children[from]?.querySelector("a")?.focus();
    pressed.current = false;
  }, [status, items.length]);

  return (
    <>
      {deleteError ? <Banner kind="error" message={deleteError} /> : null}
      {items.length > 0 ? (
        <ul className={grid.grid} ref={list}>
          {items.map((item, index) => (
            <li key={item.id}>
              <NewsCard
                news={item}
                variant="grid"
                showHighlight
                priority={!continued && (index === 0 || (index < 3 && FIRST_ROW_WHEN_WIDE))}
                headingLevel="h2"
                extra={
                  isAdmin && (item.status !== "published" || reads) ? (
                    <>
                      {item.status === "draft" || item.status === "review" ? (
                        <strong data-testid="card-status">{t.news.statusLabel[item.status]}</strong>
                      ) : item.status === "scheduled" ? (
                        <strong data-testid="card-status">{t.newsList.scheduledFor(formatDateTime(item.publishedAt, timeZone))}</strong>
                      ) : null}
                      {item.status !== "published" && reads ? " · " : null}
                      {reads ? <span data-testid="reads-7d">{t.mostRead.readsLastWeek(reads[item.id] ?? moreReads[item.id] ?? 0)}</span> : null}
                    </>
                  ) : undefined
                }
                actions={
                  mayChangeStory({ role, userId }, item) ? (
                    <DeleteNewsButton
                      id={item.id}
                      title={item.title}
                      onDeleted={(id) => {
                        setDeleteError(null);
                        setRemoved((previous) => new Set(previous).add(id));
                      }}
                      onFailed={setDeleteError}
                    />
                  ) : undefined
                }
              />
            </li>
          ))}
        </ul>
      ) : null}
      <div className={grid.more} aria-live="polite">
        {status === "loading" ? <Spinner label={t.newsList.loadingMore} /> : null}
        {status === "failed" ? (
          <p className={grid.error} role="alert">
            {t.newsList.loadMoreError}{" "}
            <button
              type="button"
              ref={retryButton}
              className={grid.retry}
              onClick={() => {
                pressed.current = true;
                void loadMore();
              }}
            >
              {t.newsList.retry}
            </button>
          </p>
        ) : null}
        {next && status !== "failed" ? (
          <a
            ref={moreLink}
            href={pageHref(next)}
            className={grid.moreLink}
            aria-disabled={status === "loading" || undefined}
            onClick={(event) => {
              event.preventDefault();
              pressed.current = true;
              void loadMore();
            }}
          >
            {t.newsList.more}
          </a>
        ) : null}
        {!next && (continued || loaded.more.length > 0) ? <p className={grid.end}>{t.newsList.end}</p> : null}
        {/* A later page (followed without JavaScript, or opened from a link): the way back to the start. */}
        {continued ? (
          <Link to={pageHref(null)} className={grid.firstLink}>
            {t.newsList.firstPage}
          </Link>
        ) : null}
      </div>
    </>
  );
}

/**
 * A list page's answer when its page could not load (`load`), or when its cursor is not one this site made
 * (`cursor`, with a link back to the first page).
 */
export function ListFailure({ failure, firstPage }: { failure: "load" | "cursor"; firstPage: ReactNode }) {
  return (
    <p className={grid.error} role="alert">
      {failure === "load" ? (
        t.newsList.loadError
      ) : (
        <>
          {t.newsList.invalidCursor} {firstPage}
        </>
      )}
    </p>
  );
}
