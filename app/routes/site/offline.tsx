import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/offline";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/pt-BR.ts";
import { pageHeaders } from "#app/lib/cache-headers.ts";
import {
  CHECK_SAVED_MESSAGE,
  isDataPath,
  OFFLINE_CACHES,
  OFFLINE_FROM_PARAM,
  READ_LATER_PAGE,
  savedAtOf,
  savedPageTitle,
} from "#app/lib/offline-copies.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";
import { noindexMeta, siteOf, titleWithSite } from "#app/lib/seo.ts";
import styles from "./offline.module.css";

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return noindexMeta(titleWithSite(t.offline.title, siteOf(matches)));
}

interface SavedArticle {
  path: string;
  title: string;
}

/** The articles the service worker keeps on this phone (its Cache Storage), newest first. */
async function savedArticles(): Promise<SavedArticle[]> {
  if (typeof caches === "undefined") return [];
  const cache = await caches.open(OFFLINE_CACHES.articles);
  const found: Array<SavedArticle & { at: number }> = [];
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (isDataPath(url.pathname)) continue;
    const copy = await cache.match(request);
    const title = copy ? savedPageTitle(await copy.text()) : null;
    if (title) found.push({ path: `${url.pathname}${url.search}`, title, at: copy ? savedAtOf(copy.headers) : 0 });
  }
  return found.sort((a, b) => b.at - a.at).map(({ path, title }) => ({ path, title }));
}

/**
 * GET /sem-conexao: the page a reader gets when a page is neither reachable nor saved on the phone (the service worker
 * sends them here, `?de=` the address they wanted): "Sem conexão", "Tentar de novo" to that address, and the articles
 * saved on this phone, which open without network. Precached by the worker with the reader shell.
 */
export default function Offline() {
  const [params] = useSearchParams();
  // The page is the same for every address (the worker precaches it once): the address to retry is set once hydrated.
  const [retry, setRetry] = useState("/");
  useEffect(() => setRetry(safeRedirectPath(params.get(OFFLINE_FROM_PARAM), "/")), [params]);
  const [saved, setSaved] = useState<SavedArticle[] | null>(null);
  useEffect(() => {
    let active = true;
    const load = () =>
      savedArticles()
        .catch(() => [])
        .then((list) => {
          if (active) setSaved(list);
        });
    // Back online, the worker first drops what was taken down meanwhile; then the list is read again.
    const online = () => {
      navigator.serviceWorker?.controller?.postMessage({ type: CHECK_SAVED_MESSAGE });
      setTimeout(load, 1500);
    };
    void load();
    window.addEventListener("online", online);
    return () => {
      active = false;
      window.removeEventListener("online", online);
    };
  }, []);
  return (
    <div className={`page-narrow ${styles.page}`}>
      <section role="alert" className={styles.notice}>
        <h1 className="page-title">{t.offline.title}</h1>
        <p>{t.offline.text}</p>
        <a href={retry} className={buttons.primary}>
          {t.errors.retry}
        </a>
      </section>
      <section aria-labelledby="salvas" className={styles.saved}>
        <h2 id="salvas">{t.offline.savedTitle}</h2>
        <p>
          <Link to={READ_LATER_PAGE} reloadDocument>
            {t.readLater.pageTitle}
          </Link>
        </p>
        {saved === null ? null : saved.length === 0 ? (
          <p>{t.offline.savedEmpty}</p>
        ) : (
          <>
            <p>{t.offline.savedHint}</p>
            <ul>
              {saved.map((article) => (
                <li key={article.path}>
                  <Link to={article.path} reloadDocument>
                    {article.title}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", uploads: false });
