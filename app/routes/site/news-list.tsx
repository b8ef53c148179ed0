import { Newspaper } from "lucide-react";
import { useRef } from "react";
import { data, href, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/news-list";
import { pageHeaders } from "#app/lib/cache-headers.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { listPageFailure } from "#app/.server/news/list-cursor.ts";
import { readsLastWeekOf } from "#app/.server/news/reads/most-read.server.ts";
import { newsroomAccess } from "#app/.server/auth/permissions.server.ts";
import { ListFailure, PagedGrid } from "#app/components/news/paged-grid.tsx";
import { Spinner } from "#app/components/ui/spinner.tsx";
import { t } from "#app/i18n/pt-BR.ts";
import { LIST_PAGE_SIZE, type NewsSummary } from "#app/lib/news-view.ts";
import { NEWSROOM_STATUS_FILTERS, type NewsroomStatusFilter } from "#app/lib/newsroom-query.ts";
import { pageMeta, siteOf, titleWithSite } from "#app/lib/seo.ts";
import grid from "#app/components/news/news-grid.module.css";
import styles from "./news-list.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";

/**
 * The admin list's status filter (`?situacao=`): which statuses each choice lists (null: every one). The newsroom
 * list's own, spelled the same, without its Lixeira (app/lib/newsroom-query.ts).
 */
const { lixeira: _trash, ...STATUS_FILTERS } = NEWSROOM_STATUS_FILTERS;
type StatusFilter = Exclude<NewsroomStatusFilter, "lixeira">;

function statusFilterOf(value: string | null): StatusFilter {
  return value !== null && Object.hasOwn(STATUS_FILTERS, value) ? (value as StatusFilter) : "todas";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  const { news, log, config } = services;
  const params = new URL(request.url).searchParams;
  const cursor = params.get("cursor");
  // One lookup of the viewer: an admin sees read counts, the newsroom picks a status (drafts and scheduled ones
  // included); readers always get the published news.
  const access = await newsroomAccess(request, context);
  const statusFilter = access.newsroom ? statusFilterOf(params.get("situacao")) : null;
  const status = statusFilter ? STATUS_FILTERS[statusFilter] : "published";
  try {
    const page = await news.listNewsPage({ cursor, highlightedOnly: params.get("tab") === "1", limit: LIST_PAGE_SIZE, status });
    // Signed in as admin: each item's reads of the last 7 days.
    const reads = access.admin
      ? await readsLastWeekOf(
          page.items.map((item) => item.id),
          services,
        )
      : null;
    return {
      news: page.items,
      reads,
      nextCursor: page.nextCursor,
      continued: Boolean(cursor),
      failure: null,
      statusFilter,
      timeZone: config.timeZone,
    };
  } catch (error) {
    const { failure, init } = listPageFailure(error, log, "news list load failed");
    return data(
      {
        news: [] as NewsSummary[],
        reads: null,
        nextCursor: null,
        continued: Boolean(cursor),
        failure,
        statusFilter,
        timeZone: config.timeZone,
      },
      init,
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
    title: titleWithSite(t.newsList.title, site),
    description: highlights ? t.newsList.metaDescriptionHighlights(name) : t.newsList.metaDescription(name),
    path: `${href("/news-list")}${listHref(highlights, cursor) === "?" ? "" : listHref(highlights, cursor)}`,
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

/** What /api/news is asked for the next pages of a tab (and, for the newsroom, of a status filter). */
function apiQueryOf(highlights: boolean, statusFilter: StatusFilter | null): string {
  const params = new URLSearchParams();
  if (highlights) params.set("highlighted", "1");
  if (statusFilter) params.set("status", STATUS_FILTERS[statusFilter] ?? "all");
  return params.toString();
}

export default function NewsList({ loaderData }: Route.ComponentProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const tabRefs = useRef<Array<HTMLAnchorElement | null>>([]);
  const activeIndex = searchParams.get("tab") === "1" ? 1 : 0;
  const active = TABS[activeIndex]!;
  const loading = navigation.state === "loading" && navigation.location.pathname === href("/news-list");

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
        ) : loaderData.failure ? (
          <ListFailure
            failure={loaderData.failure}
            firstPage={<Link to={listHref(activeIndex === 1, null, statusFilter)}>{t.newsList.title}</Link>}
          />
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
            pageHref={(cursor) => listHref(activeIndex === 1, cursor, statusFilter)}
            apiQuery={apiQueryOf(activeIndex === 1, statusFilter)}
            timeZone={loaderData.timeZone}
          />
        )}
      </div>
    </div>
  );
}

// The highlights tab and the list cursor; anything else (a newsroom status filter, utm_*) is not part of a shared page.
export const handle = routeFacts({ cache: "page", params: { tab: ["1"], cursor: "cursor" }, uploads: false });
