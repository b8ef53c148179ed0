import { useEffect } from "react";
import {
  data,
  href,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import { servicesOf } from "./.server/context.server.ts";
import { AdminMenuButton } from "./components/layout/admin-menu-button.tsx";
import { ConsentBanner } from "./components/layout/consent-banner.tsx";
import { ScrollToTopButton } from "./components/layout/scroll-to-top.tsx";
import { SectionNav } from "./components/layout/section-nav.tsx";
import { SiteFooter } from "./components/layout/site-footer.tsx";
import { SiteHeader } from "./components/layout/site-header.tsx";
import { ErrorState, isConnectionError, OfflineState } from "./components/ui/error-state.tsx";
import { currentYear } from "./i18n/format.ts";
import { t } from "./i18n/pt-BR.ts";
import { PRIVATE_NO_STORE, pageHeaders } from "./lib/cache-headers.ts";
import type { RootData } from "./lib/site-context.ts";
import { canPublish } from "./lib/roles.ts";
import { hasSessionCookie } from "./lib/session-cookie.ts";
import { useScriptNonce } from "./lib/script-nonce.ts";
import { THEME_SCRIPT, useIsNewsroom } from "./lib/theme.ts";
import { useLiveUpdates } from "./lib/use-live-updates.ts";
import { useServiceWorker } from "./lib/use-service-worker.ts";
import "./styles/global.css";
// The same files global.css's @font-face rules point at (Vite emits each once, under one hashed name).
import barlowCondensed700 from "@fontsource/barlow-condensed/files/barlow-condensed-latin-700-normal.woff2?url";
import inter400 from "@fontsource/inter/files/inter-latin-400-normal.woff2?url";

/**
 * The two faces every reader page shows above the fold, preloaded so the text does not wait for the stylesheet to
 * be parsed before they start: Barlow Condensed 700 (the header's name and the headings) and Inter 400 (the text).
 * The other two (Inter 600, Barlow Condensed 600) load when used; all of them with `font-display: swap`.
 */
export const links: LinksFunction = () => [
  { rel: "preload", href: barlowCondensed700, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: inter400, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
  { rel: "manifest", href: href("/manifest.webmanifest") },
  // Feed autodiscovery: browsers and feed readers find the feeds from any page.
  { rel: "alternate", type: "application/rss+xml", title: t.feeds.latestLink, href: href("/rss.xml") },
  { rel: "alternate", type: "application/rss+xml", title: t.feeds.highlightsLink, href: href("/rss/destaques.xml") },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { config, sponsors, auth, news, log } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  let sponsorList: RootData["sponsors"] = [];
  let sponsorsFailed = false;
  try {
    sponsorList = await sponsors.listSponsors();
  } catch (error) {
    // As in the original: a failed sponsor load empties the list and shows no message.
    log.error({ err: error }, "sponsor load failed");
    sponsorsFailed = true;
  }
  let sections: RootData["sections"] = [];
  let teams: RootData["teams"] = [];
  let sectionsFailed = false;
  try {
    sections = (await news.listSections()).map(({ slug, name, live }) => (live ? { slug, name, live } : { slug, name }));
    teams = (await news.listTeamsInUse()).map(({ slug, name }) => ({ slug, name }));
  } catch (error) {
    // The menu is left out; such a page is not cached (the next one asks again).
    log.error({ err: error }, "section list load failed");
    sectionsFailed = true;
  }
  const year = currentYear(config.timeZone);
  // Editors and admins see how many stories wait for them in the drawer; a failed count shows none.
  const reviewCount = canPublish(viewer?.role) ? await news.countInReview().catch(() => null) : null;
  return data<RootData>(
    {
      site: config.site,
      sponsors: sponsorList,
      year,
      isAdmin: Boolean(viewer?.role),
      role: viewer?.role ?? null,
      userId: viewer?.role ? viewer.userId : null,
      reviewCount,
      sections,
      teams,
      now: new Date().toISOString(),
    },
    // A signed-in viewer's pages are personal, and a page whose footer lost its sponsors (database unreachable) is a
    // failure: neither is cached anywhere (the page cache kept the empty footer after the database came back).
    viewer || sponsorsFailed || sectionsFailed || hasSessionCookie(request.headers.get("Cookie"))
      ? { headers: { "Cache-Control": PRIVATE_NO_STORE } }
      : undefined,
  );
}

/** "Is admin" is decided on the server on every navigation, so the root data is always reloaded. */
export function shouldRevalidate() {
  return true;
}

/**
 * Used only when no child route draws the page: the root error boundary (unknown URL, unexpected error).
 * Without it those pages had no <title>.
 */
export function meta({ error, loaderData }: Route.MetaArgs) {
  const siteName = loaderData?.site.name;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const title = notFound ? t.errors.pageNotFoundTitle : forbidden ? t.errors.forbiddenTitle : error ? t.errors.genericTitle : siteName;
  return [{ title: siteName && title !== siteName ? `${title} | ${siteName}` : title }];
}

export const headers = pageHeaders;

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useScriptNonce();
  const newsroom = useIsNewsroom();
  // The theme's script sets data-theme before React hydrates (suppressHydrationWarning: the server never has it).
  return (
    <html lang="pt-BR" data-area={newsroom ? "redacao" : undefined} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5d3b" />
        {/*
         * The reader's theme before the first paint (app/lib/theme.ts). With this response's nonce, or none in a page
         * rendered for a cache, whose policy lists the hashes of all its inline scripts, this one included. The
         * browser hides a nonce from the DOM, hence no warning when hydration finds none.
         */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, no reader's text in it */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const isAdmin = (useRouteLoaderData("root") as RootData | undefined)?.isAdmin ?? false;
  useLiveUpdates();
  useServiceWorker();
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <>
      <a className="skip-link" href="#conteudo">
        {t.layout.skipToContent}
      </a>
      <SiteHeader>{isAdmin ? <AdminMenuButton /> : null}</SiteHeader>
      <SectionNav />
      <main id="conteudo" tabIndex={-1} className="site-main">
        {children}
      </main>
      <SiteFooter />
      <ScrollToTopButton />
      <ConsentBanner />
    </>
  );
}

export default function App(_: Route.ComponentProps) {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // Without root data (the root loader itself failed) there is no header or footer to draw.
  const rootData = useRouteLoaderData("root");
  // Offline, the root's data (reloaded on every navigation) fails first: no header to draw.
  if (isConnectionError(error))
    return (
      <main className="site-main">
        <OfflineState />
      </main>
    );
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A newsroom page the member's role does not reach: the server's message says which role it is for.
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const forbiddenText = forbidden ? (error.data as { message?: unknown } | null)?.message : undefined;
  const content = (
    <ErrorState
      title={notFound ? t.errors.pageNotFoundTitle : forbidden ? t.errors.forbiddenTitle : t.errors.genericTitle}
      text={
        notFound
          ? t.errors.pageNotFoundText
          : forbidden
            ? typeof forbiddenText === "string"
              ? forbiddenText
              : t.errors.forbiddenText
            : t.errors.genericText
      }
      actionLabel={t.errors.backHome}
    />
  );
  return rootData ? <Shell>{content}</Shell> : <main className="site-main">{content}</main>;
}
