import * as Dialog from "@radix-ui/react-dialog";
import { Maximize2, X } from "lucide-react";
import { t } from "../../i18n/pt-BR.ts";
import type { MediaView } from "../../lib/media-view.ts";
import { MediaImage } from "./media-image.tsx";
import styles from "./article-media.module.css";

/**
 * The article's main media. Clicking it opens a full-screen view; the dialog traps focus, closes on Escape or
 * the close button, and gives focus back to the control that opened it.
 */
export function ArticleMedia({ media, title }: { media: MediaView; title: string }) {
  return (
    <Dialog.Root>
      <figure className={styles.figure}>
        {media.kind === "video" ? (
          <div className={styles.videoWrap}>
            <video className={styles.video} src={media.src} controls preload="metadata" playsInline>
              <track kind="captions" />
            </video>
            <Dialog.Trigger className={styles.expand} aria-label={t.article.openVideo} title={t.article.openVideo}>
              <Maximize2 aria-hidden="true" size={20} />
            </Dialog.Trigger>
          </div>
        ) : (
          <Dialog.Trigger className={styles.imageButton} aria-label={t.article.openMedia}>
            <MediaImage media={media} alt={title} sizes="(min-width: 860px) 820px, 100vw" priority className={styles.image} />
            <span className={styles.zoomHint} aria-hidden="true">
              <Maximize2 size={18} />
            </span>
          </Dialog.Trigger>
        )}
      </figure>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.lightbox} aria-describedby={undefined} data-testid="lightbox">
          <Dialog.Title className="visually-hidden">{t.article.lightboxTitle(title)}</Dialog.Title>
          {media.kind === "video" ? (
            <video className={styles.lightboxMedia} src={media.src} controls autoPlay playsInline>
              <track kind="captions" />
            </video>
          ) : (
            <img className={styles.lightboxMedia} src={media.largeSrc} alt={title} />
          )}
          <Dialog.Close className={styles.close} aria-label={t.article.closeMedia} title={t.article.closeMedia}>
            <X aria-hidden="true" size={26} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
