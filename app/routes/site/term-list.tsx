import { Newspaper } from "lucide-react";
import { data, href, isRouteErrorResponse, Link, redirect, useLocation, useNavigation, useRouteError } from "react-router";
import type { Route } from "./+types/term-list";
import { AlertButton } from "#app/components/news/alert-button.tsx";
import { NO_STORE, pageHeaders } from "#app/lib/cache-headers.ts";
import { PUSH_TOPICS } from "#app/lib/push-topics.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { listPageFailure } from "#app/.server/news/list-cursor.ts";
import { AppError, requestIdFrom } from "#app/.server/errors.ts";
import { PersonHeader } from "#app/components/news/author-box.tsx";
import { MatchStrip } from "#app/components/news/match-strip.tsx";
import { ListFailure, PagedGrid } from "#app/components/news/paged-grid.tsx";
import { ErrorState, isConnectionError, OfflineState } from "#app/components/ui/error-state.tsx";
import { Spinner } from "#app/components/ui/spinner.tsx";
import { t } from "#app/i18n/pt-BR.ts";
import { LIST_PAGE_SIZE, type NewsSummary } from "#app/lib/news-view.ts";
import { noindexMeta, pageMeta, siteOf, titleWithSite } from "#app/lib/seo.ts";
import { termFeedPath, termPath } from "#app/lib/slug.ts";
import grid from "#app/components/news/news-grid.module.css";
import styles from "./term-list.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";

/** Which page: a category's, an author's or a club's. */
type PageKind = "category" | "author" | "team";

/** /categoria/{slug}, /autor/{slug} and /time/{slug}: one category's, author's or club's news, paged like the list. */
function kindOf(pathname: string): PageKind {
  // The prefixes of the routes /autor/:slug and /time/:slug (app/routes.ts; the route module is the same for the three).
  return pathname.startsWith("/autor/") ? "author" : pathname.startsWith("/time/") ? "team" : "category";
}

const TEXTS = {
  category: {
    kicker: t.taxonomy.categoryKicker,
    title: t.taxonomy.categoryTitle,
    missing: t.taxonomy.categoryNotFound,
    empty: t.taxonomy.emptyCategory,
  },
  author: { kicker: t.taxonomy.authorKicker, title: t.taxonomy.authorTitle, missing: t.taxonomy.authorNotFound, empty: t.taxonomy.emptyAuthor },
  team: { kicker: t.taxonomy.teamKicker, title: t.taxonomy.teamTitle, missing: t.taxonomy.teamNotFound, empty: t.taxonomy.emptyTeam },
} as const;

/** The page's term: a category or author with published news, or a club of the desk's list. */
function loadTerm(services: ReturnType<typeof servicesOf>, kind: PageKind, slug: string): Promise<{ kind: PageKind; slug: string; name: string }> {
  if (kind === "team") return services.news.getTeam(slug).then((team) => ({ kind, ...team }));
  return services.news.getTerm(kind, slug);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  const { news, log, config, profiles } = services;
  const kind = kindOf(new URL(request.url).pathname);
  const cursor = new URL(request.url).searchParams.get("cursor");
  let term: Awaited<ReturnType<typeof loadTerm>>;
  try {
    term = await loadTerm(services, kind, params.slug).catch(async (error: unknown) => {
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
  // A section's matches of the day ("Jogos de hoje"), a club's live and next ones; a failure only hides the strip.
  const matches = cursor
    ? []
    : kind === "category"
      ? await news.sectionMatches(term.slug).catch(() => [])
      : kind === "team"
        ? await news.teamMatches(term.slug).catch(() => [])
        : [];
  try {
    const page = await news.listNewsPage({
      cursor,
      limit: LIST_PAGE_SIZE,
      ...(kind === "category" ? { categorySlug: term.slug } : kind === "team" ? { teamSlug: term.slug } : { authorSlug: term.slug }),
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

function pageHref(term: { kind: PageKind; slug: string }, cursor?: string | null): string {
  const path = termPath(term.kind, term.slug);
  return cursor ? `${path}?${new URLSearchParams({ cursor })}` : path;
}

export function meta({ matches, loaderData, location }: Route.MetaArgs) {
  const site = siteOf(matches);
  const siteName = site?.name ?? "";
  if (!loaderData) return noindexMeta(titleWithSite(TEXTS[kindOf(location.pathname)].missing, site));
  const { term, continued, news } = loaderData;
  const cursor = new URLSearchParams(location.search).get("cursor");
  const description =
    term.kind === "category"
      ? t.taxonomy.metaCategory(term.name, siteName)
      : term.kind === "team"
        ? t.taxonomy.metaTeam(term.name, siteName)
        : t.taxonomy.metaAuthor(term.name, siteName);
  // A category's and a club's feed, for feed readers that look for it on the page.
  const feed =
    term.kind === "author"
      ? []
      : [
          {
            tagName: "link",
            rel: "alternate",
            type: "application/rss+xml",
            title: t.feeds.termTitle(siteName, term.name),
            href: termFeedPath(term.kind, term.slug),
          },
        ];
  return pageMeta(site, {
    title: titleWithSite(TEXTS[term.kind].title(term.name), site),
    description,
    path: pageHref(term, cursor),
    // Later pages are there to be followed, not listed; an empty page has nothing to list.
    extra: [...feed, ...(continued || news.length === 0 ? [{ name: "robots", content: "noindex, follow" }] : [])],
  });
}

export default function TermList({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const { term } = loaderData;
  const texts = TEXTS[term.kind];
  const loading = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  return (
    <div className="page">
      {loaderData.person ? (
        <PersonHeader person={loaderData.person} kicker={t.taxonomy.authorKicker} />
      ) : (
        <>
          <p className={styles.kicker}>{texts.kicker}</p>
          <h1 className="page-title">{term.name}</h1>
        </>
      )}
      {term.kind === "author" ? null : (
        <div className={styles.feed}>
          <a href={termFeedPath(term.kind, term.slug)} data-testid="term-feed">
            {t.taxonomy.feedLink(term.name)}
          </a>
          <AlertButton
            topic={term.kind === "team" ? PUSH_TOPICS.team(term.slug) : PUSH_TOPICS.section(term.slug)}
            label={t.alerts.follow}
            labelOn={t.alerts.following}
            hint={t.alerts.followHint(term.name)}
          />
        </div>
      )}
      <MatchStrip matches={loaderData.matches} club={term.kind === "team"} />
      <section aria-label={texts.title(term.name)} className={styles.panel}>
        {loading ? (
          <Spinner label={t.newsList.loading} />
        ) : loaderData.failure ? (
          <ListFailure failure={loaderData.failure} firstPage={<Link to={pageHref(term)}>{term.name}</Link>} />
        ) : loaderData.news.length === 0 && !loaderData.continued ? (
          <div className={grid.empty} data-testid="term-empty">
            <Newspaper aria-hidden="true" size={48} />
            <p className={grid.emptyTitle}>{texts.empty}</p>
            <p className={grid.emptyHint}>
              <Link to={href("/news-list")}>{t.taxonomy.allNews}</Link>
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
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (isConnectionError(error)) return <OfflineState />;
  return (
    <ErrorState
      title={missing ? TEXTS[kindOf(location.pathname)].missing : t.newsList.loadError}
      text={missing ? t.taxonomy.notFoundHint : undefined}
      actionLabel={t.taxonomy.allNews}
      actionTo={href("/news-list")}
    />
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", params: { cursor: "cursor" }, uploads: false });
