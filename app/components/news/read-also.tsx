import { t } from "#app/i18n/pt-BR.ts";
import type { NewsSummary } from "#app/lib/news-view.ts";
import { NewsBlock } from "./news-block.tsx";
import { NewsCard } from "./news-card.tsx";
import styles from "./read-also.module.css";

/** The cards' `sizes`: half of the 820 px article from 600 px on, the whole width below. */
const SIZES = "(min-width: 860px) 400px, (min-width: 600px) 50vw, 100vw";

/**
 * "Leia também": related stories at the end of an article (app/.server/news/related.server.ts chooses them), as
 * the list's cards. Nothing at all when there is none.
 */
export function ReadAlso({ items }: { items: readonly NewsSummary[] }) {
  return (
    <NewsBlock
      titleId="leia-tambem-titulo"
      title={t.article.readAlso}
      testId="read-also"
      items={items}
      classes={{ title: styles.title, list: styles.list }}
      renderItem={(item) => <NewsCard news={item} variant="grid" sizes={SIZES} />}
    />
  );
}
