import { Link } from "react-router";
import { t } from "../../i18n/pt-BR.ts";
import { articlePath } from "../../lib/slug.ts";
import styles from "./most-read.module.css";

/** One line of the block (what the loaders send: no counts, nothing else). */
export interface MostReadLink {
  id: string;
  title: string;
}

/**
 * "Mais lidas": the most-read news of the last 24 hours, most read first, as a numbered list of links. Nothing at
 * all when there is none (a new site, a quiet day).
 */
export function MostRead({ items }: { items: readonly MostReadLink[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="mais-lidas-titulo" className={styles.block} data-testid="most-read">
      <h2 id="mais-lidas-titulo" className={styles.title}>
        {t.mostRead.title}
      </h2>
      <ol className={styles.list}>
        {items.map((item) => (
          <li key={item.id} className={styles.item}>
            <Link to={articlePath(item)} className={styles.link}>
              {item.title}
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
