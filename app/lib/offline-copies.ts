/**
 * What the readers' service worker (app/service-worker/service-worker.ts) keeps on the phone, named once for the
 * worker, the "Sem conexão" page that lists it and the API that tells the worker what was taken down.
 */
import type { RoutePath } from "./route-paths.ts";
import { sharedCacheMayStore } from "./cache-headers.ts";

/** Where the worker is served (the root: it controls every page of the site). */
export const SERVICE_WORKER_PATH = "/sw.js";

/** The worker's caches (Cache Storage names; the precached shell is Workbox's own). */
export const OFFLINE_CACHES = {
  articles: "eef-artigos",
  articleData: "eef-artigos-dados",
  pages: "eef-paginas",
  images: "eef-imagens",
  /** The stories a reader marked "Ler depois" (app/lib/read-later.ts): kept until unmarked or taken down. */
  readLater: "eef-ler-depois",
} as const;

/** How much is kept: the last opened articles (their pages; their data as many), other pages, the images they showed. */
export const OFFLINE_LIMITS = {
  articles: { maxEntries: 20, maxAgeSeconds: 14 * 24 * 3600 },
  pages: { maxEntries: 20, maxAgeSeconds: 2 * 24 * 3600 },
  images: { maxEntries: 60, maxAgeSeconds: 30 * 24 * 3600 },
} as const;

/** The list of stories to read later (app/routes/site/read-later.tsx), precached with the shell like OFFLINE_PAGE. */
export const READ_LATER_PAGE = "/ler-depois" satisfies RoutePath;

/** What a page tells the worker when a story is marked or unmarked "Ler depois": `{ type, path }`. */
export const KEEP_FOR_LATER_MESSAGE = "eef:keep-for-later";
export const DROP_FROM_LATER_MESSAGE = "eef:drop-from-later";

/** The page a navigation without network and without a saved copy goes to. */
export const OFFLINE_PAGE = "/sem-conexao" satisfies RoutePath;
/** Its parameter: the address the reader wanted. */
export const OFFLINE_FROM_PARAM = "de";

/** The message a page sends the worker to check its saved articles now (see `checkSoon` in the worker). */
export const CHECK_SAVED_MESSAGE = "eef:check-saved-articles";

/** What the worker asks which of its saved articles changed or were taken down (`?ids=`). */
export const NEWS_VERSIONS_PATH = "/api/news-versions" satisfies RoutePath;
/** The most ids /api/news-versions answers for at once (the worker keeps fewer articles than that). */
export const NEWS_VERSIONS_MAX_IDS = 50;

/** An article's page or its data: /article/{id}, /article/{id}/{slug}, with `.data` for a navigation inside the site. */
export const ARTICLE_PATH = /^\/article\/[^/]+(\/[^/]+)?$/;

/** The story id of an article path (page or data), or null. */
export function articleIdOf(pathname: string): string | null {
  if (!ARTICLE_PATH.test(pathname)) return null;
  const id = pathname.split("/")[2]!.replace(/\.data$/, "");
  return id === "" ? null : decodeURIComponent(id);
}

/**
 * Where an article is kept, whatever address it was opened at: /article/{id} (with or without its slug, the same
 * page), and /article/{id}.data for its data. One copy per story.
 */
export function articleCacheKey(url: URL): string | null {
  const id = articleIdOf(url.pathname);
  if (id === null) return null;
  return `${url.origin}/article/${encodeURIComponent(id)}${isDataPath(url.pathname) ? `.data${url.search}` : ""}`;
}

/** Whether the data answer of a navigation inside the site (React Router's `.data`) is this path's. */
export function isDataPath(pathname: string): boolean {
  return pathname.endsWith(".data");
}

/** The "Sem conexão" page for a reader who wanted `path` (a path of this site). */
export function offlinePageFor(path: string): string {
  return `${OFFLINE_PAGE}?${OFFLINE_FROM_PARAM}=${encodeURIComponent(path)}`;
}

/** The header the worker adds to what it keeps: when (ms since the epoch), for "newest first" and for takedowns. */
export const SAVED_AT_HEADER = "X-Eef-Salvo-Em";

/** When a kept copy was stored (its SAVED_AT_HEADER, else its Date), or 0. */
export function savedAtOf(headers: Headers): number {
  return Number(headers.get(SAVED_AT_HEADER)) || Date.parse(headers.get("Date") ?? "") || 0;
}

/** Whether an answer may be kept on the phone: a 200 that any reader may see (neither `private` nor `no-store`). */
export function storableAnswer(status: number, cacheControl: string | null): boolean {
  return status === 200 && sharedCacheMayStore(cacheControl);
}

/** The title of a saved page, from its `<title>` without the site's name after the last " | ". */
export function savedPageTitle(html: string): string | null {
  const match = /<title>([^<]*)<\/title>/i.exec(html);
  if (!match) return null;
  const title = match[1]!
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .trim();
  const cut = title.lastIndexOf(" | ");
  return (cut > 0 ? title.slice(0, cut) : title) || null;
}
