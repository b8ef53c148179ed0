import { t } from "../../i18n/pt-BR.ts";
import type { NewsSummary } from "../../lib/news-view.ts";
import { NewsCard } from "./news-card.tsx";
import styles from "./read-also.module.css";

/** The cards' `sizes`: half of the 820 px article from 600 px on, the whole width below. */
const SIZES = "(min-width: 860px) 400px, (min-width: 600px) 50vw, 100vw";

/**
 * "Leia também": related stories at the end of an article (app/.server/news/related.server.ts chooses them), as
 * the list's cards. Nothing at all when there is none.
 */
export function ReadAlso({ items }: { items: readonly NewsSummary[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="leia-tambem-titulo" className={styles.block} data-testid="read-also">
      <h2 id="leia-tambem-titulo" className={styles.title}>
        {t.article.readAlso}
      </h2>
      <ul className={styles.list}>
        {items.map((item) => (
          <li key={item.id}>
            <NewsCard news={item} variant="grid" sizes={SIZES} />
          </li>
        ))}
      </ul>
    </section>
  );
}
