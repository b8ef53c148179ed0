import { Link } from "react-router";
import { formatCardTime, formatKickoff } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import type { CardScore } from "#app/lib/live-coverage.ts";
import { imageAlt } from "#app/lib/media-view.ts";
import { useRootData } from "#app/lib/site-context.ts";
import type { NewsSummary } from "#app/lib/news-view.ts";
import { articlePath } from "#app/lib/slug.ts";
import { CategoryBadge, HighlightBadge } from "./category-badge.tsx";
import { LiveBadge, MatchChip } from "./live-badge.tsx";
import type { ImagePriority } from "./media-image.tsx";
import { MediaThumb } from "./media-thumb.tsx";
import { ReadLaterButton } from "./read-later-button.tsx";
import styles from "./news-card.module.css";

/** `compact`: a grid card that is a short row on phones (the home's lower blocks), the same as `grid` from 600 px. */
export type CardVariant = "main" | "side" | "grid" | "compact";

/** How wide each card's image is drawn (the home's grid: a 1200 px column, 2/3 for the main card; see the CSS). */
const SIZES: Record<CardVariant, string> = {
  main: "(min-width: 1240px) 787px, (min-width: 900px) calc(66vw - 40px), 100vw",
  side: "(min-width: 1240px) 173px, (min-width: 900px) 14vw, (min-width: 700px) 50vw, (min-width: 600px) 100vw, 42vw",
  grid: "(min-width: 1100px) 380px, (min-width: 700px) 50vw, 100vw",
  compact: "(min-width: 1100px) 380px, (min-width: 700px) 50vw, (min-width: 600px) 100vw, 84px",
};

/** For the grid's cards 2 and 3: side by side with the first from 700 px on, so preloaded there (and only there). */
export const FIRST_ROW_WHEN_WIDE: ImagePriority = { media: "(min-width: 700px)" };

interface NewsCardProps {
  news: NewsSummary;
  variant: CardVariant;
  /** See ImagePriority: the card whose picture is the page's LCP gets `true`. */
  priority?: ImagePriority;
  showHighlight?: boolean;
  /** Extra controls drawn over the card (e.g. the admin's delete button). */
  actions?: React.ReactNode;
  headingLevel?: "h2" | "h3";
  /** The image's `sizes` when the card sits in another layout than its variant's usual one. */
  sizes?: string;
  /** What the title and subtitle show instead of the plain text (e.g. search results with matched words marked). */
  titleContent?: React.ReactNode;
  subtitleContent?: React.ReactNode;
  /** A further line under the subtitle (e.g. the passage of the full text a search matched). */
  extra?: React.ReactNode;
}

/** A news card: the whole card links to the article, its category badge to the category's page. */
export function NewsCard({
  news,
  variant,
  priority = false,
  showHighlight,
  actions,
  headingLevel = "h3",
  titleContent,
  subtitleContent,
  extra,
  sizes,
}: NewsCardProps) {
  const Heading = headingLevel;
  const { now, site } = useRootData();
  // The title's link covers the whole card (its ::after); the category badge is a link of its own above it. The
  // badges come after the title in the document (so the article link is the card's first) and are drawn first.
  return (
    <article className={`${styles.card} ${styles[variant]}`} data-testid="news-card" data-news-id={news.id}>
      <span className={styles.media}>
        <MediaThumb media={news.media} alt={imageAlt(news.media, news.title)} sizes={sizes ?? SIZES[variant]} priority={priority} />
      </span>
      <span className={styles.body}>
        <Heading className={styles.title}>
          <Link to={articlePath(news)} className={styles.link}>
            {titleContent ?? news.title}
          </Link>
        </Heading>
        <p className={styles.subtitle}>{subtitleContent ?? news.subtitle}</p>
        {extra ? <p className={styles.extra}>{extra}</p> : null}
        <span className={styles.badges}>
          <time dateTime={news.publishedAt} className={styles.time}>
            {formatCardTime(news.publishedAt, now, site.timeZone)}
          </time>
          {news.score ? (
            <CardScoreLine score={news.score} />
          ) : news.live ? (
            <LiveBadge />
          ) : news.kickoff ? (
            <span className={styles.score} data-testid="card-kickoff">
              <MatchChip kind="next" />
              <time dateTime={news.kickoff} className={styles.scoreNumbers}>
                {formatKickoff(news.kickoff, new Date(now), site.timeZone)}
              </time>
            </span>
          ) : null}
          <CategoryBadge category={news.category} slug={news.categorySlug} className={styles.badgeLink} />
          {showHighlight && news.isHighlighted ? <HighlightBadge /> : null}
        </span>
      </span>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
      {/* Over the picture's top left corner (every layout starts with the picture there), above the card's link. */}
      <ReadLaterButton story={{ id: news.id, path: articlePath(news), title: news.title }} compact />
    </article>
  );
}

/**
 * A match's score on its card: "AO VIVO 2–1, 2º tempo" while live, "Encerrado 2–1" after; a screen reader hears the
 * teams with their goals. Open pages follow it (a score change is a change of the story's lists), cached ones show
 * it on their next render.
 */
function CardScoreLine({ score }: { score: CardScore }) {
  const live = score.state === "live";
  return (
    <span className={styles.score} data-testid="card-score" data-state={score.state}>
      {live ? <LiveBadge /> : <MatchChip kind="ended" />}
      <span aria-hidden="true" className={styles.scoreNumbers}>
        {score.homeScore}–{score.awayScore}
        {live && score.period ? `, ${score.period}` : ""}
      </span>
      <span className="visually-hidden">
        {t.live.scoreSpoken(score.home, score.homeScore, score.away, score.awayScore)}
        {live && score.period ? `, ${score.period}` : ""}
      </span>
    </span>
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
