import { t } from "#app/i18n/pt-BR.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import styles from "./article-media.module.css";

/** The caption and the credit ("Foto: …") under the media, on the article and in the full-screen view. */
export function MediaCaption({ media, className }: { media: MediaView; className?: string }) {
  if (!media.caption && !media.credit) return null;
  return (
    <figcaption className={`${styles.caption} ${className ?? ""}`} data-testid="media-caption">
      {media.caption ? <span>{media.caption}</span> : null}
      {media.credit ? <span className={styles.credit}>{t.article.credit(media.kind, media.credit)}</span> : null}
    </figcaption>
  );
}
