import { Link } from "react-router";
import type { NewsSummary } from "../../lib/news-view.ts";
import { CategoryBadge, HighlightBadge } from "./category-badge.tsx";
import { MediaThumb } from "./media-thumb.tsx";
import styles from "./news-card.module.css";

export type CardVariant = "main" | "side" | "grid";

const SIZES: Record<CardVariant, string> = {
  main: "(min-width: 900px) 760px, 100vw",
  side: "(min-width: 900px) 400px, 100vw",
  grid: "(min-width: 1100px) 380px, (min-width: 700px) 50vw, 100vw",
};

interface NewsCardProps {
  news: NewsSummary;
  variant: CardVariant;
  priority?: boolean;
  showHighlight?: boolean;
  /** Extra controls drawn over the card (e.g. the admin's delete button). */
  actions?: React.ReactNode;
  headingLevel?: "h2" | "h3";
}

/** A news card: the whole card links to the article. */
export function NewsCard({ news, variant, priority, showHighlight, actions, headingLevel = "h3" }: NewsCardProps) {
  const Heading = headingLevel;
  return (
    <article className={`${styles.card} ${styles[variant]}`} data-testid="news-card" data-news-id={news.id}>
      <Link to={`/article/${news.id}`} className={styles.link}>
        <span className={styles.media}>
          <MediaThumb media={news.media} alt="" sizes={SIZES[variant]} priority={priority} />
        </span>
        <span className={styles.body}>
          <span className={styles.badges}>
            <CategoryBadge category={news.category} />
            {showHighlight && news.isHighlighted ? <HighlightBadge /> : null}
          </span>
          <Heading className={styles.title}>{news.title}</Heading>
          <p className={styles.subtitle}>{news.subtitle}</p>
        </span>
      </Link>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </article>
  );
}

/** Same shape as a card, but not clickable: shown while a block has fewer news than places. */
export function PlaceholderCard({ text, variant }: { text: string; variant: CardVariant }) {
  return (
    <div className={`${styles.card} ${styles[variant]} ${styles.placeholder}`} data-testid="placeholder-card" aria-disabled="true">
      <span className={styles.media} aria-hidden="true">
        <span className={styles.pattern} />
      </span>
      <span className={styles.body}>
        <p className={styles.placeholderText}>{text}</p>
      </span>
    </div>
  );
}
