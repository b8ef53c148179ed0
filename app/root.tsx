import { lazy, Suspense, useEffect } from "react";
import {
  data,
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
import { getServices } from "./.server/app.server.ts";
import { ScrollToTopButton } from "./components/layout/scroll-to-top.tsx";
import { SiteFooter } from "./components/layout/site-footer.tsx";
import { SiteHeader } from "./components/layout/site-header.tsx";
import { ErrorState } from "./components/ui/error-state.tsx";
import { currentYear } from "./i18n/format.ts";
import { t } from "./i18n/pt-BR.ts";
import { PRIVATE_NO_STORE, pageHeaders } from "./lib/cache-headers.ts";
import type { RootData } from "./lib/site-context.ts";
import { hasSessionCookie } from "./lib/session-cookie.ts";
import { useLiveUpdates } from "./lib/use-live-updates.ts";
import "./styles/global.css";

/** The admin menu (and the dialog library it needs) is downloaded only by admins: readers never load it. */
const AdminDrawer = lazy(() => import("./components/layout/admin-drawer.tsx").then((module) => ({ default: module.AdminDrawer })));

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const { config, sponsors, auth, log } = getServices();
  const viewer = await auth.getViewer(request);
  let sponsorList: RootData["sponsors"] = [];
  try {
    sponsorList = await sponsors.listSponsors();
  } catch (error) {
    // As in the original: a failed sponsor load empties the list and shows no message.
    log.error({ err: error }, "sponsor load failed");
  }
  const year = currentYear(config.timeZone);
  return data<RootData>(
    { site: config.site, sponsors: sponsorList, year, isAdmin: Boolean(viewer?.isAdmin) },
    // A signed-in viewer's pages are personal: never cached anywhere.
    viewer || hasSessionCookie(request.headers.get("Cookie")) ? { headers: { "Cache-Control": PRIVATE_NO_STORE } } : undefined,
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
  const title = notFound ? t.errors.pageNotFoundTitle : error ? t.errors.genericTitle : siteName;
  return [{ title: siteName && title !== siteName ? `${title} | ${siteName}` : title }];
}

export const headers = pageHeaders;

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b5d3b" />
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
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <>
      <a className="skip-link" href="#conteudo">
        {t.layout.skipToContent}
      </a>
      <SiteHeader>
        {isAdmin ? (
          <Suspense fallback={null}>
            <AdminDrawer />
          </Suspense>
        ) : null}
      </SiteHeader>
      <main id="conteudo" tabIndex={-1} className="site-main">
        {children}
      </main>
      <SiteFooter />
      <ScrollToTopButton />
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
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const content = (
    <ErrorState
      title={notFound ? t.errors.pageNotFoundTitle : t.errors.genericTitle}
      text={notFound ? t.errors.pageNotFoundText : t.errors.genericText}
      actionLabel={t.errors.backHome}
    />
  );
  // Without root data (the root loader itself failed) there is no header or footer to draw.
  const rootData = useRouteLoaderData("root");
  return rootData ? <Shell>{content}</Shell> : <main className="site-main">{content}</main>;
}
