/**
 * The readers' service worker (/sw.js, built by vite.config.ts's `serviceWorker` plugin): the site on a phone whose
 * connection comes and goes. Workbox does the caching; this file says what is kept and for how long.
 *
 * - The reader shell (the scripts, styles and fonts of the public pages, and the "Sem conexão" page) is precached at
 *   install, one build at a time: the list is the build's own (`__OFFLINE_SHELL__`).
 * - The last 20 articles a reader opened (the page, the data of a navigation to it, and the images it showed, at the
 *   size the phone chose) are kept, newest first; the last 20 other reader pages too. Network first: a reader online
 *   always gets the current page, and the copy is only read when the network fails or takes more than 4 s.
 * - Nothing personal is kept: an answer marked `private` or `no-store` (every page of a signed-in member, the
 *   newsroom, the API) is never stored, nor anything under /admin, /api or /events.
 * - Takedowns win: on a visit online (at most every 5 minutes) the worker asks /api/news-versions which of its saved
 *   articles are still published and when each last changed; an article gone is dropped, a changed one fetched again.
 * - The stories a reader marks "Ler depois" (app/lib/read-later.ts tells the worker) are kept apart, with no limit but
 *   the list's own (50), until unmarked or taken down.
 * - A navigation that fails with nothing saved goes to /sem-conexao, which lists what is saved.
 * - Alerts (Web Push): a message from the desk is shown as a notification; tapping it opens the story.
 */
/// <reference lib="webworker" />
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim, type WorkboxPlugin } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute } from "workbox-precaching";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import {
  ARTICLE_PATH,
  articleCacheKey,
  articleIdOf,
  CHECK_SAVED_MESSAGE,
  DROP_FROM_LATER_MESSAGE,
  isDataPath,
  KEEP_FOR_LATER_MESSAGE,
  NEWS_VERSIONS_MAX_IDS,
  NEWS_VERSIONS_PATH,
  OFFLINE_CACHES,
  OFFLINE_LIMITS,
  OFFLINE_PAGE,
  offlinePageFor,
  SAVED_AT_HEADER,
  savedAtOf,
  storableAnswer,
} from "#app/lib/offline-copies.ts";
import { parsePushPayload } from "#app/lib/push-topics.ts";

declare const self: ServiceWorkerGlobalScope;
/** What is precached at install: this build's reader shell (written in by vite.config.ts's `serviceWorker`). */
declare const __OFFLINE_SHELL__: Array<{ url: string; revision: string | null }>;

self.skipWaiting();
clientsClaim();
// The shell is the same for everyone: fetched without the reader's cookies (a signed-in member would otherwise
// precache pages drawn for them).
addPlugins([{ requestWillFetch: async ({ request }) => new Request(request, { credentials: "omit" }) }]);
// The shell's files are hashed or revisioned: a query string (the "Sem conexão" page's `?de=`) names the same file.
precacheAndRoute(__OFFLINE_SHELL__, { ignoreURLParametersMatching: [/.*/] });
cleanupOutdatedCaches();

/** A copy to keep, stamped with when it was kept. */
function stamped(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT_HEADER, String(Date.now()));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Stores only what every reader may see (a 200 that is neither `private` nor `no-store`), stamped. */
const publicAnswersOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (storableAnswer(response.status, response.headers.get("Cache-Control")) ? stamped(response) : null),
};

const expiration = (limits: { maxEntries: number; maxAgeSeconds: number }) => new ExpirationPlugin({ ...limits, purgeOnQuotaError: true });

const readerPath = (url: URL) => url.origin === self.location.origin && !/^\/(admin|api|events|media|assets)(\/|$)/.test(url.pathname);

/** One copy per story, whichever of its addresses was opened (see `articleCacheKey`). */
const oneCopyPerStory: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => articleCacheKey(new URL(request.url)) ?? request,
};

/** Network first (the copy only when the network fails or takes over 4 s), keeping only public answers, stamped. */
const networkFirst = (cacheName: string, ...plugins: WorkboxPlugin[]) =>
  new NetworkFirst({ cacheName, networkTimeoutSeconds: 4, plugins: [...plugins, publicAnswersOnly] });

/** An article's page (a document load): what a reader opens without network. */
const articles = networkFirst(OFFLINE_CACHES.articles, oneCopyPerStory, expiration(OFFLINE_LIMITS.articles));
/** An article's data (a navigation inside the site, `/article/….data`): the same story, reached from another page. */
const articleData = networkFirst(OFFLINE_CACHES.articleData, oneCopyPerStory, expiration(OFFLINE_LIMITS.articles));
const isArticle = (url: URL) => readerPath(url) && ARTICLE_PATH.test(url.pathname);
registerRoute(({ url, request }) => request.method === "GET" && isArticle(url) && !isDataPath(url.pathname), articles);

/** How recent a saved page must be for a navigation inside the site to it not to fetch it again. */
const PAGE_FRESH_MS = 10 * 60_000;

/**
 * A navigation inside the site fetches only the article's data: its page is then kept too, in the background (what a
 * reader opens later without network is the page), unless a copy of the last minutes is there.
 */
registerRoute(
  ({ url, request }) => request.method === "GET" && isArticle(url) && isDataPath(url.pathname),
  async (options) => {
    const answer = await articleData.handle(options);
    // The page of the same story, under the key its copy is kept at.
    const pageKey = articleCacheKey(new URL(options.url.pathname.replace(/\.data$/, ""), self.location.origin));
    if (pageKey !== null && answer.ok) {
      const page = new Request(pageKey);
      options.event.waitUntil(
        caches
          .open(OFFLINE_CACHES.articles)
          .then((cache) => cache.match(page))
          .then((copy) =>
            copy && Date.now() - savedAtOf(copy.headers) < PAGE_FRESH_MS ? undefined : articles.handle({ event: options.event, request: page }),
          )
          .catch(() => undefined),
      );
    }
    return answer;
  },
);

// The article a reader has open when the worker first starts (their first visit) is saved too: it was loaded before
// any worker could see it.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((windows) =>
      Promise.all(
        windows
          .map((client) => new URL(client.url))
          .filter(isArticle)
          .map((url) => articles.handle({ event, request: new Request(url.href) }).catch(() => undefined)),
      ),
    ),
  );
});

/** Other reader pages (home, sections, lists, search) and their data. */
registerRoute(
  ({ url, request }) => (request.mode === "navigate" || isDataPath(url.pathname)) && readerPath(url) && url.pathname !== OFFLINE_PAGE,
  networkFirst(OFFLINE_CACHES.pages, expiration(OFFLINE_LIMITS.pages)),
);

/** The images readers saw (the `media/*` route's; media URLs name their content: what is stored never goes stale). */
registerRoute(
  ({ url, request }) => request.destination === "image" && url.origin === self.location.origin && url.pathname.startsWith("/media/"),
  new CacheFirst({
    cacheName: OFFLINE_CACHES.images,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), expiration(OFFLINE_LIMITS.images)],
  }),
);

/** The stories marked "Ler depois": their pages, kept until unmarked or taken down (no expiry by age or count). */
const forLater = networkFirst(OFFLINE_CACHES.readLater, oneCopyPerStory);

/**
 * A navigation with no network and no copy among the last opened: a story marked "Ler depois" if it is one, else the
 * "Sem conexão" page, which says where the reader wanted to go.
 */
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== "navigate" || !url) return Response.error();
  const key = articleCacheKey(url);
  const kept = key ? await caches.open(OFFLINE_CACHES.readLater).then((cache) => cache.match(key)) : undefined;
  return kept ?? Response.redirect(offlinePageFor(`${url.pathname}${url.search}`), 303);
});

// ------------------------------------------------------------------------------------------- takedowns

const CHECK_EVERY_MS = 5 * 60_000;
let lastCheck = 0;
let checking: Promise<void> | null = null;

/**
 * Asks the site which saved articles are still published and when each last changed: a story taken down (deleted,
 * unpublished) leaves the phone, a changed one (corrected, or a live story with new updates) is fetched again.
 */
async function checkSavedArticles(): Promise<void> {
  const saved = new Map<string, Array<{ cache: Cache; request: Request }>>();
  for (const name of [OFFLINE_CACHES.articles, OFFLINE_CACHES.articleData, OFFLINE_CACHES.readLater]) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const id = articleIdOf(new URL(request.url).pathname);
      if (id) saved.set(id, [...(saved.get(id) ?? []), { cache, request }]);
    }
  }
  const ids = [...saved.keys()].slice(0, NEWS_VERSIONS_MAX_IDS);
  if (ids.length === 0) return;
  const answer = await fetch(`${NEWS_VERSIONS_PATH}?ids=${ids.map(encodeURIComponent).join(",")}`, { cache: "no-store" });
  if (!answer.ok) return;
  lastCheck = Date.now();
  const { versions } = (await answer.json()) as { versions: Record<string, string | null> };
  for (const id of ids) {
    const changedAt = versions[id];
    if (changedAt === undefined) continue;
    for (const { cache, request } of saved.get(id) ?? []) {
      if (changedAt === null) {
        await cache.delete(request);
        continue;
      }
      const copy = await cache.match(request);
      if (copy && savedAtOf(copy.headers) >= Date.parse(changedAt)) continue;
      const fresh = await fetch(request.url, { cache: "no-store" }).catch(() => null);
      if (fresh && storableAnswer(fresh.status, fresh.headers.get("Cache-Control"))) await cache.put(request, stamped(fresh));
      else if (fresh && fresh.status >= 400 && fresh.status < 500) await cache.delete(request);
    }
  }
}

/** One check at a time; `force` skips the 5-minute wait (a page asked). Failures wait for the next visit. */
function checkSoon(force: boolean): Promise<void> {
  if (checking || (!force && Date.now() - lastCheck < CHECK_EVERY_MS)) return checking ?? Promise.resolve();
  checking = checkSavedArticles()
    .catch(() => {})
    .finally(() => {
      checking = null;
    });
  return checking;
}

// A visit online: the check follows the page, a few seconds later, so it never competes with it.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.waitUntil(new Promise((resolve) => setTimeout(resolve, 3000)).then(() => (navigator.onLine ? checkSoon(false) : undefined)));
});

self.addEventListener("message", (event) => {
  const { type, path } = (event.data ?? {}) as { type?: unknown; path?: unknown };
  // A page back online (the "Sem conexão" page when the connection returns) asks for the check at once.
  if (type === CHECK_SAVED_MESSAGE) event.waitUntil(checkSoon(true));
  // A story marked or unmarked "Ler depois" (app/lib/read-later.ts): its page is kept, or let go.
  if ((type !== KEEP_FOR_LATER_MESSAGE && type !== DROP_FROM_LATER_MESSAGE) || typeof path !== "string") return;
  const url = new URL(path, self.location.origin);
  const key = url.origin === self.location.origin ? articleCacheKey(url) : null;
  if (key === null) return;
  event.waitUntil(
    type === KEEP_FOR_LATER_MESSAGE
      ? forLater.handle({ event, request: new Request(key) }).catch(() => undefined)
      : caches.open(OFFLINE_CACHES.readLater).then((cache) => cache.delete(key)),
  );
});

// ------------------------------------------------------------------------------------------ alerts (Web Push)

/** An alert the desk sent (POST /api/news/:id/alert): shown at once; one per story or match, the newest replacing. */
self.addEventListener("push", (event) => {
  const payload = parsePushPayload(event.data?.text());
  if (!payload) return;
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      lang: "pt-BR",
      data: { url: payload.url },
    }),
  );
});

/** Tapping an alert opens its story: in a tab of the site already open on it, else a new one. */
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data as { url?: string } | null)?.url ?? "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => client.url === url.href);
      if (open) return open.focus();
      return self.clients.openWindow(url.href);
    })(),
  );
});
