import type { Route } from "./+types/read-later";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { pageHeaders } from "#app/lib/cache-headers.ts";
import { useReadLater } from "#app/lib/read-later.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { noindexMeta, siteOf, titleWithSite } from "#app/lib/seo.ts";
import { useRootData } from "#app/lib/site-context.ts";
import styles from "./offline.module.css";

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return noindexMeta(titleWithSite(t.readLater.pageTitle, siteOf(matches)));
}

/**
 * GET /ler-depois: the stories this reader marked "Ler depois", newest first, kept on the device (app/lib/read-later.ts);
 * each opens without network (the service worker keeps their pages). The page is the same for everyone (the list is
 * drawn in the browser), precached by the worker with the reader shell.
 */
export default function ReadLater() {
  const { site } = useRootData();
  const { items, toggle } = useReadLater();
  return (
    <div className={`page-narrow ${styles.page}`}>
      <section aria-labelledby="ler-depois" className={styles.saved}>
        <h1 id="ler-depois" className="page-title">
          {t.readLater.pageTitle}
        </h1>
        <p>{t.readLater.pageHint}</p>
        {items === null ? null : items.length === 0 ? (
          <p>{t.readLater.empty}</p>
        ) : (
          <ul>
            {items.map((item) => (
              <li key={item.id} className={styles.row}>
                <a href={item.path}>{item.title}</a>
                <span className={styles.meta}>
                  {t.readLater.savedAt(formatDateTime(new Date(item.savedAt).toISOString(), site.timeZone))}
                  <button type="button" className={styles.remove} onClick={() => toggle(item)} aria-label={t.readLater.removeStory(item.title)}>
                    {t.readLater.remove}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", uploads: false });
