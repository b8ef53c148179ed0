import { Newspaper } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { data, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/news-list";
import { pageHeaders } from "../../lib/cache-headers.ts";
import { getServices } from "../../.server/app.server.ts";
import { AppError } from "../../.server/errors.ts";
import { adminReadsOf } from "../../.server/news/most-read.server.ts";
import { isNewsroomViewer } from "../../.server/auth/guards.server.ts";
import { formatDateTime } from "../../i18n/format.ts";
import { Banner } from "../../components/admin/banner.tsx";
import { DeleteNewsButton } from "../../components/admin/lazy-delete-news-button.tsx";
import { FIRST_ROW_WHEN_WIDE, NewsCard } from "../../components/news/news-card.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { t } from "../../i18n/pt-BR.ts";
import { isListedAfter, LIST_PAGE_SIZE, type NewsStatus, type NewsSummary } from "../../lib/news-view.ts";
import { pageMeta, siteOf } from "../../lib/seo.ts";
import { useRootData } from "../../lib/site-context.ts";
import grid from "../../components/news/news-grid.module.css";
import styles from "./news-list.module.css";

/** The admin list's status filter (`?situacao=`): which statuses each choice lists (null: every one). */
const STATUS_FILTERS = { todas: null, publicadas: "published", agendadas: "scheduled", rascunhos: "draft" } as const satisfies Record<
  string,
  NewsStatus | null
>;
type StatusFilter = keyof typeof STATUS_FILTERS;

function statusFilterOf(value: string | null): StatusFilter {
  return value !== null && Object.hasOwn(STATUS_FILTERS, value) ? (value as StatusFilter) : "todas";
}

export async function loader({ request }: Route.LoaderArgs) {
  const { news, log, config } = getServices();
  const params = new URL(request.url).searchParams;
  const cursor = params.get("cursor");
  // Readers always get the published news; the newsroom picks a status (drafts and scheduled ones included).
  const statusFilter = (await isNewsroomViewer(request)) ? statusFilterOf(params.get("situacao")) : null;
  const status = statusFilter ? STATUS_FILTERS[statusFilter] : "published";
  try {
    const page = await news.listNewsPage({ cursor, highlightedOnly: params.get("tab") === "1", limit: LIST_PAGE_SIZE, status });
    // Signed in as admin: each item's reads of the last 7 days.
    const reads = await adminReadsOf(request, page.items.map((item) => item.id));
    return { news: page.items, reads, nextCursor: page.nextCursor, continued: Boolean(cursor), failure: null, statusFilter, timeZone: config.timeZone };
  } catch (error) {
    const invalidCursor = error instanceof AppError && error.code === "invalid_cursor";
    if (!invalidCursor) log.error({ err: error }, "news list load failed");
    return data(
      {
        news: [] as NewsSummary[],
        reads: null,
        nextCursor: null,
        continued: Boolean(cursor),
        failure: invalidCursor ? ("cursor" as const) : ("load" as const),
        statusFilter,
        timeZone: config.timeZone,
      },
      { status: invalidCursor ? 400 : 500, headers: { "Cache-Control": "no-store" } },
    );
  }
}

export const headers = pageHeaders;

export function meta({ matches, loaderData, location }: Route.MetaArgs) {
  const site = siteOf(matches);
  const name = site?.name ?? "";
  const highlights = new URLSearchParams(location.search).get("tab") === "1";
  const cursor = new URLSearchParams(location.search).get("cursor");
  return pageMeta(site, {
    title: `${t.newsList.title} | ${name}`,
    description: highlights ? t.newsList.metaDescriptionHighlights(name) : t.newsList.metaDescription(name),
    path: `/news-list${listHref(highlights, cursor) === "?" ? "" : listHref(highlights, cursor)}`,
    // The pages after the first are there to be followed (they reach every article), not to be listed themselves.
    extra: loaderData?.continued ? [{ name: "robots", content: "noindex, follow" }] : [],
  });
}

const TABS = [
  { value: "0", label: t.newsList.tabRecent, hint: t.newsList.emptyHintRecent },
  { value: "1", label: t.newsList.tabHighlights, hint: t.newsList.emptyHintHighlights },
] as const;

/** The list page's URL for a tab, optionally starting after `cursor` (and, for the newsroom, a status filter). */
function listHref(highlights: boolean, cursor?: string | null, statusFilter?: StatusFilter | null): string {
  const params = new URLSearchParams();
  if (highlights) params.set("tab", "1");
  if (statusFilter && statusFilter !== "todas") params.set("situacao", statusFilter);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `?${query}` : "?";
}

export default function NewsList({ loaderData }: Route.ComponentProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const tabRefs = useRef<Array<HTMLAnchorElement | null>>([]);
  const activeIndex = searchParams.get("tab") === "1" ? 1 : 0;
  const active = TABS[activeIndex]!;
  const loading = navigation.state === "loading" && navigation.location.pathname === "/news-list";

  const statusFilter = loaderData.statusFilter;
  function select(index: number) {
    setSearchParams(new URLSearchParams(listHref(index === 1, null, statusFilter).slice(1)), { preventScrollReset: true, replace: false });
    tabRefs.current[index]?.focus();
  }

  return (
    <div className="page">
      <h1 className="page-title">{t.newsList.title}</h1>
      {statusFilter ? (
        <nav aria-label={t.newsList.statusFilterLabel} className={styles.statusFilter} data-testid="status-filter">
          {(Object.keys(STATUS_FILTERS) as StatusFilter[]).map((key) => (
            <Link key={key} to={listHref(activeIndex === 1, null, key)} aria-current={key === statusFilter ? "page" : undefined} preventScrollReset>
              {t.newsList.statusFilter[key]}
            </Link>
          ))}
        </nav>
      ) : null}
      <div role="tablist" aria-label={t.newsList.tabsLabel} className={styles.tabs}>
        {TABS.map((tab, index) => (
          <Link
            key={tab.value}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            id={`aba-${tab.value}`}
            role="tab"
            to={listHref(index === 1, null, statusFilter)}
            preventScrollReset
            aria-selected={index === activeIndex}
            aria-controls="painel-noticias"
            tabIndex={index === activeIndex ? 0 : -1}
            className={styles.tab}
            onKeyDown={(event) => {
              if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
                event.preventDefault();
                select((index + 1) % TABS.length);
              }
            }}
          >
            {tab.label}
          </Link>
        ))}
      </div>

      <div role="tabpanel" id="painel-noticias" aria-labelledby={`aba-${active.value}`} className={styles.panel}>
        {loading ? (
          <Spinner label={t.newsList.loading} />
        ) : loaderData.failure === "load" ? (
          <p className={grid.error} role="alert">
            {t.newsList.loadError}
          </p>
        ) : loaderData.failure === "cursor" ? (
          <p className={grid.error} role="alert">
            {t.newsList.invalidCursor} <Link to={listHref(activeIndex === 1, null, statusFilter)}>{t.newsList.title}</Link>
          </p>
        ) : loaderData.news.length === 0 && !loaderData.continued ? (
          <div className={grid.empty}>
            <Newspaper aria-hidden="true" size={48} />
            <p className={grid.emptyTitle}>{t.newsList.empty}</p>
            <p className={grid.emptyHint}>{active.hint}</p>
          </div>
        ) : (
          // A new tab or a new starting point is a new list; a revalidation of the same URL (live updates) is not.
          <PagedGrid
            key={listHref(activeIndex === 1, searchParams.get("cursor"), statusFilter)}
            first={loaderData.news}
            reads={loaderData.reads}
            nextCursor={loaderData.nextCursor}
            continued={loaderData.continued}
            highlights={activeIndex === 1}
            statusFilter={statusFilter}
            timeZone={loaderData.timeZone}
          />
        )}
      </div>
    </div>
  );
}

interface PagedGridProps {
  /** The page the server rendered (and re-renders on live updates). */
  first: NewsSummary[];
  /** Admins: reads of the last 7 days by news id (the pages loaded later bring theirs); null for readers. */
  reads: Record<string, number> | null;
  nextCursor: string | null;
  /** This page starts after an earlier one (a "Mais notícias" link followed without JavaScript). */
  continued: boolean;
  highlights: boolean;
  /** The newsroom's status filter (null for readers). */
  statusFilter: StatusFilter | null;
  timeZone: string;
}

interface Loaded {
  first: NewsSummary[];
  /** Older items loaded in this page as the reader scrolled, in list order. */
  more: NewsSummary[];
  next: string | null;
}

/**
 * The cards of one tab: the server renders the first screenful with a plain "Mais notícias" link to the next page
 * (works without JavaScript, and lets crawlers reach every article). In the browser the same link, or scrolling near
 * it, appends the next page in place, from the JSON API with the same keyset cursor.
 */
function PagedGrid({ first, reads, nextCursor, continued, highlights, statusFilter, timeZone }: PagedGridProps) {
  const { isAdmin } = useRootData();
  const [loaded, setLoaded] = useState<Loaded>({ first, more: [], next: nextCursor });
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

  const items = [...loaded.first, ...loaded.more].filter((item) => !removed.has(item.id));
  const next = loaded.next;

  const loadMore = useCallback(async () => {
    if (!next || status === "loading") return;
    setStatus("loading");
    firstNew.current = items.length;
    const params = new URLSearchParams({ cursor: next, limit: String(LIST_PAGE_SIZE) });
    if (highlights) params.set("highlighted", "1");
    if (statusFilter) params.set("status", STATUS_FILTERS[statusFilter] ?? "all");
    try {
      const response = await fetch(`/api/news?${params}`, { headers: { Accept: "application/json" } });
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
  }, [next, status, highlights, statusFilter, items.length]);

  // Scrolling near the end loads the next page (well before the reader reaches it).
  useEffect(() => {
    const link = moreLink.current;
    if (!link || !next || status !== "idle" || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void loadMore();
    }, { rootMargin: "0px 0px 800px 0px" });
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
                      {item.status === "draft" ? (
                        <strong data-testid="card-status">{t.newsForm.statusLabel.draft}</strong>
                      ) : item.status === "scheduled" ? (
                        <strong data-testid="card-status">{t.newsList.scheduledFor(formatDateTime(item.publishedAt, timeZone))}</strong>
                      ) : null}
                      {item.status !== "published" && reads ? " · " : null}
                      {reads ? <span data-testid="reads-7d">{t.mostRead.readsLastWeek(reads[item.id] ?? moreReads[item.id] ?? 0)}</span> : null}
                    </>
                  ) : undefined
                }
                actions={
                  isAdmin ? (
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
            href={listHref(highlights, next, statusFilter)}
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
      </div>
    </>
  );
}
