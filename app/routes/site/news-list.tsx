import { Newspaper } from "lucide-react";
import { useRef, useState } from "react";
import { data, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/news-list";
import { pageHeaders } from "../../lib/cache-headers.ts";
import { getServices } from "../../.server/app.server.ts";
import { Banner } from "../../components/admin/banner.tsx";
import { DeleteNewsButton } from "../../components/admin/delete-news-button.tsx";
import { NewsCard } from "../../components/news/news-card.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { t } from "../../i18n/pt-BR.ts";
import type { NewsSummary } from "../../lib/news-view.ts";
import { useRootData } from "../../lib/site-context.ts";
import styles from "./news-list.module.css";

export async function loader() {
  const { news, log } = getServices();
  try {
    return { news: await news.listNews(), failed: false };
  } catch (error) {
    log.error({ err: error }, "news list load failed");
    return data({ news: [] as NewsSummary[], failed: true }, { status: 500, headers: { "Cache-Control": "no-store" } });
  }
}

/**
 * Switching tabs (only the query changes) filters what is already loaded. A revalidation of the same URL (the live
 * updates' `newsUpdated`) must reload the list.
 */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate, formMethod }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  const root = matches[0]?.loaderData as { site?: { name: string } } | undefined;
  return [{ title: `${t.newsList.title} | ${root?.site?.name ?? ""}` }];
}

const TABS = [
  { value: "0", label: t.newsList.tabRecent, hint: t.newsList.emptyHintRecent },
  { value: "1", label: t.newsList.tabHighlights, hint: t.newsList.emptyHintHighlights },
] as const;

export default function NewsList({ loaderData }: Route.ComponentProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const tabRefs = useRef<Array<HTMLAnchorElement | null>>([]);
  const { isAdmin } = useRootData();
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const activeIndex = searchParams.get("tab") === "1" ? 1 : 0;
  const active = TABS[activeIndex]!;
  const visible = loaderData.news.filter((item) => !removed.has(item.id));
  const items = activeIndex === 1 ? visible.filter((item) => item.isHighlighted) : visible;
  const loading = navigation.state === "loading" && navigation.location.pathname === "/news-list" && !navigation.location.search.includes("tab");

  function select(index: number) {
    setSearchParams(index === 1 ? { tab: "1" } : {}, { preventScrollReset: true, replace: false });
    tabRefs.current[index]?.focus();
  }

  return (
    <div className="page">
      <h1 className="page-title">{t.newsList.title}</h1>
      <div role="tablist" aria-label={t.newsList.tabsLabel} className={styles.tabs}>
        {TABS.map((tab, index) => (
          <Link
            key={tab.value}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            id={`aba-${tab.value}`}
            role="tab"
            to={index === 1 ? "?tab=1" : "?"}
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

      {deleteError ? <Banner kind="error" message={deleteError} /> : null}
      <div role="tabpanel" id="painel-noticias" aria-labelledby={`aba-${active.value}`} className={styles.panel}>
        {loading ? (
          <Spinner label={t.newsList.loading} />
        ) : loaderData.failed ? (
          <p className={styles.error} role="alert">
            {t.newsList.loadError}
          </p>
        ) : items.length === 0 ? (
          <div className={styles.empty}>
            <Newspaper aria-hidden="true" size={48} />
            <p className={styles.emptyTitle}>{t.newsList.empty}</p>
            <p className={styles.emptyHint}>{active.hint}</p>
          </div>
        ) : (
          <ul className={styles.grid}>
            {items.map((item, index) => (
              <li key={item.id}>
                <NewsCard
                  news={item}
                  variant="grid"
                  showHighlight
                  priority={index < 3}
                  headingLevel="h2"
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
        )}
      </div>
    </div>
  );
}
