import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { RefObject } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import { imageAlt, type MediaView } from "#app/lib/media-view.ts";
import { MediaCaption } from "./media-caption.tsx";
import styles from "./article-media.module.css";

export interface ArticleLightboxProps {
  media: MediaView;
  title: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The control that opened it: focus goes back there on close. */
  triggerRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The article's media full screen. The dialog traps focus and closes on Escape or the close button. Loaded on
 * demand (see article-media.tsx), so a reader who never opens it never downloads the dialog library.
 */
export function ArticleLightbox({ media, title, open, onOpenChange, triggerRef }: ArticleLightboxProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.lightbox}
          aria-describedby={undefined}
          data-testid="lightbox"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            triggerRef.current?.focus();
          }}
        >
          <Dialog.Title className="visually-hidden">{t.article.lightboxTitle(title)}</Dialog.Title>
          <figure className={styles.lightboxFigure}>
            {media.kind === "video" ? (
              <video className={styles.lightboxMedia} src={media.src} poster={media.poster ?? undefined} controls autoPlay playsInline>
                <track kind="captions" />
              </video>
            ) : (
              <img className={styles.lightboxMedia} src={media.largeSrc} alt={imageAlt(media, title)} />
            )}
            <MediaCaption media={media} className={styles.lightboxCaption} />
          </figure>
          <Dialog.Close className={styles.close} aria-label={t.article.closeMedia} title={t.article.closeMedia}>
            <X aria-hidden="true" size={26} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
