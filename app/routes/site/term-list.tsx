import { Newspaper } from "lucide-react";
import { data, isRouteErrorResponse, Link, redirect, useLocation, useNavigation, useRouteError } from "react-router";
import type { Route } from "./+types/term-list";
import { NO_STORE, pageHeaders } from "../../lib/cache-headers.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { listPageFailure } from "../../.server/news/list-cursor.ts";
import { AppError, requestIdFrom } from "../../.server/errors.ts";
import type { TermKind } from "../../.server/news/taxonomy.server.ts";
import { PersonHeader } from "../../components/news/author-box.tsx";
import { MatchStrip } from "../../components/news/match-strip.tsx";
import { ListFailure, PagedGrid } from "../../components/news/paged-grid.tsx";
import { ErrorState } from "../../components/ui/error-state.tsx";
import { Spinner } from "../../components/ui/spinner.tsx";
import { t } from "../../i18n/pt-BR.ts";
import { LIST_PAGE_SIZE, type NewsSummary } from "../../lib/news-view.ts";
import { noindexMeta, pageMeta, siteOf, titleWithSite } from "../../lib/seo.ts";
import { termPath } from "../../lib/slug.ts";
import grid from "../../components/news/news-grid.module.css";
import styles from "./term-list.module.css";
import { routeFacts } from "../../lib/route-facts.ts";

/** /categoria/{slug} and /autor/{slug}: one category's or one author's news, paged like the list. */
function kindOf(pathname: string): TermKind {
  return pathname.startsWith("/autor/") ? "author" : "category";
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { news, log, config, profiles } = servicesOf(context);
  const kind = kindOf(new URL(request.url).pathname);
  const cursor = new URL(request.url).searchParams.get("cursor");
  let term: Awaited<ReturnType<typeof news.getTerm>>;
  try {
    term = await news.getTerm(kind, params.slug).catch(async (error: unknown) => {
      if (kind !== "author" || !(error instanceof AppError) || error.status !== 404) throw error;
      // The page a member's stories were listed under before they renamed themselves: their current one.
      const renamed = await profiles.renamedAuthorPath(params.slug);
      if (renamed) throw redirect(renamed, 301);
      // A member with a profile has a page before their first published story (their name, bio and links).
      const member = await profiles.memberPage(params.slug);
      if (!member) throw error;
      return { kind, slug: member.slug, name: member.name };
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) log.error({ err: error, reqId: requestIdFrom(request) }, "term page load failed");
    throw data({ kind }, { status, headers: { "Cache-Control": NO_STORE } });
  }
  // A member's page: their profile above the list (a free-text author has none).
  const person = kind === "author" ? await profiles.personOfSlug(term.slug).catch(() => null) : null;
  // A section's matches of the day ("Jogos de hoje"); a failure only hides the strip.
  const matches = kind === "category" && !cursor ? await news.sectionMatches(term.slug).catch(() => []) : [];
  try {
    const page = await news.listNewsPage({
      cursor,
      limit: LIST_PAGE_SIZE,
      ...(kind === "category" ? { categorySlug: term.slug } : { authorSlug: term.slug }),
    });
    return {
      term,
      person,
      news: page.items,
      nextCursor: page.nextCursor,
      continued: Boolean(cursor),
      failure: null,
      timeZone: config.timeZone,
      matches,
    };
  } catch (error) {
    const { failure, init } = listPageFailure(error, log, "term page load failed");
    return data(
      {
        term,
        person,
        news: [] as NewsSummary[],
        nextCursor: null,
        continued: Boolean(cursor),
        failure,
        timeZone: config.timeZone,
        matches,
      },
      init,
    );
  }
}

export const headers = pageHeaders;

function pageHref(term: { kind: TermKind; slug: string }, cursor?: string | null): string {
  const path = termPath(term.kind, term.slug);
  return cursor ? `${path}?${new URLSearchParams({ cursor })}` : path;
}

export function meta({ matches, loaderData, location }: Route.MetaArgs) {
  const site = siteOf(matches);
  const siteName = site?.name ?? "";
  if (!loaderData) {
    const missing = kindOf(location.pathname) === "author" ? t.taxonomy.authorNotFound : t.taxonomy.categoryNotFound;
    return noindexMeta(titleWithSite(missing, site));
  }
  const { term, continued, news } = loaderData;
  const category = term.kind === "category";
  const cursor = new URLSearchParams(location.search).get("cursor");
  return pageMeta(site, {
    title: titleWithSite(category ? t.taxonomy.categoryTitle(term.name) : t.taxonomy.authorTitle(term.name), site),
    description: category ? t.taxonomy.metaCategory(term.name, siteName) : t.taxonomy.metaAuthor(term.name, siteName),
    path: pageHref(term, cursor),
    // Later pages are there to be followed, not listed; an empty page has nothing to list.
    extra: continued || news.length === 0 ? [{ name: "robots", content: "noindex, follow" }] : [],
  });
}

export default function TermList({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const { term } = loaderData;
  const category = term.kind === "category";
  const loading = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  return (
    <div className="page">
      {loaderData.person ? (
        <PersonHeader person={loaderData.person} kicker={t.taxonomy.authorKicker} />
      ) : (
        <>
          <p className={styles.kicker}>{category ? t.taxonomy.categoryKicker : t.taxonomy.authorKicker}</p>
          <h1 className="page-title">{term.name}</h1>
        </>
      )}
      <MatchStrip matches={loaderData.matches} />
      <section aria-label={category ? t.taxonomy.categoryTitle(term.name) : t.taxonomy.authorTitle(term.name)} className={styles.panel}>
        {loading ? (
          <Spinner label={t.newsList.loading} />
        ) : loaderData.failure ? (
          <ListFailure failure={loaderData.failure} firstPage={<Link to={pageHref(term)}>{term.name}</Link>} />
        ) : loaderData.news.length === 0 && !loaderData.continued ? (
          <div className={grid.empty} data-testid="term-empty">
            <Newspaper aria-hidden="true" size={48} />
            <p className={grid.emptyTitle}>{category ? t.taxonomy.emptyCategory : t.taxonomy.emptyAuthor}</p>
            <p className={grid.emptyHint}>
              <Link to="/news-list">{t.taxonomy.allNews}</Link>
            </p>
          </div>
        ) : (
          <PagedGrid
            key={pageHref(term, new URLSearchParams(location.search).get("cursor"))}
            first={loaderData.news}
            nextCursor={loaderData.nextCursor}
            continued={loaderData.continued}
            pageHref={(cursor) => pageHref(term, cursor)}
            apiQuery={new URLSearchParams({ [term.kind]: term.slug }).toString()}
            timeZone={loaderData.timeZone}
          />
        )}
      </section>
    </div>
  );
}

/** An unknown slug is a 404 with its own message; a failed load says so. */
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const author = kindOf(location.pathname) === "author";
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ErrorState
      title={missing ? (author ? t.taxonomy.authorNotFound : t.taxonomy.categoryNotFound) : t.newsList.loadError}
      text={missing ? t.taxonomy.notFoundHint : undefined}
      actionLabel={t.taxonomy.allNews}
      actionTo="/news-list"
    />
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", params: { cursor: "cursor" }, uploads: false });
