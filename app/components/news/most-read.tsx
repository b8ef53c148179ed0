import { Link } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { articlePath } from "#app/lib/slug.ts";
import styles from "./most-read.module.css";
import { NewsBlock } from "./news-block.tsx";

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
  return (
    <NewsBlock
      titleId="mais-lidas-titulo"
      title={t.mostRead.title}
      testId="most-read"
      items={items}
      ordered
      classes={styles}
      renderItem={(item) => (
        <Link to={articlePath(item)} className={styles.link}>
          {item.title}
        </Link>
      )}
    />
  );
}
