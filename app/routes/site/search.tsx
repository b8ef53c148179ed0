import { SearchX, Search as SearchIcon } from "lucide-react";
import { Fragment, useEffect, useRef, useState } from "react";
import { data, Form, href, Link, useFetcher } from "react-router";
import type { Route } from "./+types/search";
import { siteOf, titleWithSite } from "#app/lib/seo.ts";
import { NO_STORE, pageHeaders } from "#app/lib/cache-headers.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { parseSearchPage, type SearchHit } from "#app/.server/search/search.service.server.ts";
import { loadMostRead } from "#app/.server/news/reads/most-read.server.ts";
import { MostRead, type MostReadLink } from "#app/components/news/most-read.tsx";
import { NewsCard } from "#app/components/news/news-card.tsx";
import { Spinner } from "#app/components/ui/spinner.tsx";
import { t } from "#app/i18n/pt-BR.ts";
import { MAX_QUERY_LENGTH } from "#app/lib/search.ts";
import grid from "#app/components/news/news-grid.module.css";
import styles from "./search.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { foldToSlug, termPath } from "#app/lib/slug.ts";

type Failure = "page" | "load" | null;

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  const { search, log } = services;
  const params = new URL(request.url).searchParams;
  const query = (params.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const empty = {
    query,
    page: 1,
    hits: [] as SearchHit[],
    nextPage: null as number | null,
    suggestion: null as string | null,
    mostRead: [] as MostReadLink[],
  };
  try {
    const page = parseSearchPage(params.get("pagina"));
    const result = await search.search({ query, page });
    // A search that found nothing offers the most-read stories instead (the sections come with every page).
    const mostRead = query && result.hits.length === 0 && page === 1 ? await loadMostRead(request, services) : [];
    return {
      query,
      page,
      hits: result.hits,
      nextPage: result.nextPage,
      suggestion: result.suggestion,
      mostRead,
      failure: null as Failure,
    };
  } catch (error) {
    const invalidPage = error instanceof AppError && error.code === "invalid_page";
    if (!invalidPage) log.error({ err: error }, "search failed");
    return data(
      { ...empty, failure: (invalidPage ? "page" : "load") as Failure },
      { status: invalidPage ? 400 : 500, headers: { "Cache-Control": NO_STORE } },
    );
  }
}

export const headers = pageHeaders;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const heading = loaderData?.query ? t.search.resultsTitle(loaderData.query) : t.search.title;
  return [
    { title: titleWithSite(heading, siteOf(matches)) },
    // Result pages lead to articles, but are not pages to be listed themselves.
    { name: "robots", content: "noindex, follow" },
  ];
}

/** The URL of a page of results. */
function searchHref(query: string, page = 1): string {
  const params = new URLSearchParams({ q: query });
  if (page > 1) params.set("pagina", String(page));
  return `${href("/busca")}?${params}`;
}

/** The search box of the page itself, with what was searched in it (a reader corrects the query there). */
function SearchForm({ query }: { query: string }) {
  return (
    <Form method="get" action={href("/busca")} role="search" className={styles.form}>
      <label htmlFor="busca-pagina" className="visually-hidden">
        {t.search.pageFieldLabel}
      </label>
      <input
        id="busca-pagina"
        type="search"
        name="q"
        defaultValue={query}
        maxLength={MAX_QUERY_LENGTH}
        required
        className={styles.input}
        placeholder={t.search.placeholder}
      />
      <button type="submit" className={styles.submit}>
        {t.search.submit}
      </button>
    </Form>
  );
}

/** The sections whose name is the query ("basquete", "fórmula 1"): their page is offered above the results. */
function SectionsNamed({ query }: { query: string }) {
  const { sections } = useRootData();
  const wanted = foldToSlug(query);
  const named = sections.filter((section) => section.slug === wanted);
  if (named.length === 0) return null;
  return (
    <p className={styles.sectionLinks}>
      {named.map((section) => (
        <Link key={section.slug} to={termPath("category", section.slug)} className={styles.sectionLink}>
          {t.search.sectionPage(section.name)}
        </Link>
      ))}
    </p>
  );
}

/** Text with the matched words in <mark>: React elements from plain strings, never HTML. */
function Marked({ parts }: { parts: SearchHit["titleParts"] }) {
  return (
    <>
      {parts.map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, fixed for its render: the position is the identity.
        part.mark ? <mark key={index}>{part.text}</mark> : <Fragment key={index}>{part.text}</Fragment>,
      )}
    </>
  );
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, failure } = loaderData;
  if (!query) {
    return (
      <div className="page">
        <h1 className="page-title">{t.search.title}</h1>
        <div className={grid.empty}>
          <SearchIcon aria-hidden="true" size={48} />
          <p className={grid.emptyTitle}>{t.search.emptyQuery}</p>
          <p className={grid.emptyHint}>{t.search.emptyQueryHint}</p>
          <SearchForm query="" />
        </div>
      </div>
    );
  }
  return (
    <div className={`page ${styles.results}`}>
      <h1 className="page-title">{t.search.resultsTitle(query)}</h1>
      {failure === "load" ? (
        <p className={grid.error} role="alert">
          {t.search.loadError}
        </p>
      ) : failure === "page" ? (
        <p className={grid.error} role="alert">
          {t.search.invalidPage} <Link to={searchHref(query)}>{t.search.firstPage}</Link>
        </p>
      ) : loaderData.hits.length === 0 && loaderData.page === 1 ? (
        <NoResults query={query} mostRead={loaderData.mostRead} />
      ) : (
        <>
          {loaderData.suggestion ? (
            <p className={styles.suggestion} data-testid="search-suggestion">
              {t.search.didYouMean} <Link to={searchHref(loaderData.suggestion)}>{loaderData.suggestion}</Link>? {t.search.showingSuggestion(query)}
            </p>
          ) : (
            <SectionsNamed query={query} />
          )}
          <Results
            key={searchHref(loaderData.suggestion ?? query, loaderData.page)}
            query={loaderData.suggestion ?? query}
            first={loaderData.hits}
            page={loaderData.page}
            nextPage={loaderData.nextPage}
          />
        </>
      )}
    </div>
  );
}

/**
 * Nothing found, not even by a close spelling: the query stays in the box to be corrected, and the sections and the
 * most-read stories are offered.
 */
function NoResults({ query, mostRead }: { query: string; mostRead: readonly MostReadLink[] }) {
  const { sections } = useRootData();
  return (
    <>
      <div className={grid.empty}>
        <SearchX aria-hidden="true" size={48} />
        <p className={grid.emptyTitle}>{t.search.noResults(query)}</p>
        <p className={grid.emptyHint}>{t.search.noResultsHint}</p>
        <SearchForm query={query} />
      </div>
      {sections.length > 0 ? (
        <nav aria-labelledby="busca-secoes" className={styles.sections}>
          <h2 id="busca-secoes" className={styles.sectionsTitle}>
            {t.search.browseSections}
          </h2>
          <ul className={styles.sectionList}>
            {sections.map((section) => (
              <li key={section.slug}>
                <Link to={termPath("category", section.slug)} className={styles.sectionLink}>
                  {section.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <MostRead items={mostRead} />
    </>
  );
}

interface ResultsProps {
  query: string;
  first: SearchHit[];
  page: number;
  nextPage: number | null;
}

/**
 * The results: the server renders a page with a plain "Mais resultados" link to the next one (works without
 * JavaScript). In the browser the same link appends the next page in place, from this route's loader.
 */
function Results({ query, first, page, nextPage }: ResultsProps) {
  const fetcher = useFetcher<typeof loader>();
  const [more, setMore] = useState<SearchHit[]>([]);
  const [next, setNext] = useState(nextPage);
  const [failed, setFailed] = useState(false);
  const handled = useRef<unknown>(null);
  const list = useRef<HTMLUListElement>(null);
  const firstNew = useRef<number | null>(null);
  const retry = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (result.failure) {
      setFailed(true);
      return;
    }
    setMore((current) => {
      const shown = new Set(current.map((hit) => hit.id));
      return [...current, ...result.hits.filter((hit) => !shown.has(hit.id))];
    });
    setNext(result.nextPage);
  }, [fetcher.state, fetcher.data]);

  // A live update re-renders the first page; a result it now has is not repeated below.
  const firstIds = new Set(first.map((hit) => hit.id));
  const hits = [...first, ...more.filter((hit) => !firstIds.has(hit.id))];
  const loading = fetcher.state !== "idle";

  // The page asked for arrived: focus goes on to its first result instead of staying at the bottom.
  useEffect(() => {
    if (failed) retry.current?.focus();
    const from = firstNew.current;
    if (from === null || loading || from >= hits.length) return;
    firstNew.current = null;
    list.current?.children[from]?.querySelector("a")?.focus();
  }, [loading, failed, hits.length]);

  function loadMore() {
    if (!next || loading) return;
    setFailed(false);
    firstNew.current = hits.length;
    fetcher.load(searchHref(query, next));
  }

  return (
    <>
      <ul className={`${grid.grid} ${styles.hits}`} ref={list}>
        {hits.map((hit, index) => (
          <li key={hit.id}>
            <NewsCard
              news={hit}
              variant="grid"
              showHighlight
              headingLevel="h2"
              priority={page === 1 && index < 3}
              titleContent={<Marked parts={hit.titleParts} />}
              subtitleContent={<Marked parts={hit.subtitleParts} />}
              extra={
                hit.excerptParts ? (
                  <>
                    <span className="visually-hidden">{t.search.foundInText}: </span>
                    <Marked parts={hit.excerptParts} />
                  </>
                ) : undefined
              }
            />
          </li>
        ))}
      </ul>
      <div className={grid.more} aria-live="polite">
        {loading ? <Spinner label={t.search.loadingMore} /> : null}
        {failed ? (
          <p className={grid.error} role="alert">
            {t.search.loadMoreError}{" "}
            <button type="button" ref={retry} className={grid.retry} onClick={loadMore}>
              {t.search.retry}
            </button>
          </p>
        ) : null}
        {next && !failed ? (
          <a
            href={searchHref(query, next)}
            className={grid.moreLink}
            aria-disabled={loading || undefined}
            onClick={(event) => {
              event.preventDefault();
              loadMore();
            }}
          >
            {t.search.more}
          </a>
        ) : null}
        {!next && (page > 1 || more.length > 0) ? <p className={grid.end}>{t.search.end}</p> : null}
      </div>
    </>
  );
}

// Every query is different: rendered each time, never kept.
export const handle = routeFacts({ cache: false, uploads: false });
