import { Maximize2 } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { t } from "../../i18n/pt-BR.ts";
import { imageAlt, type MediaView } from "../../lib/media-view.ts";
import { MediaCaption } from "./media-caption.tsx";
import { MediaImage } from "./media-image.tsx";
import styles from "./article-media.module.css";

const loadLightbox = () => import("./article-lightbox.tsx");
const ArticleLightbox = lazy(() => loadLightbox().then((module) => ({ default: module.ArticleLightbox })));

/**
 * The article's main media. Clicking it opens a full-screen view (article-lightbox.tsx), downloaded when the pointer
 * or the focus first reaches the control, so the article itself ships no dialog code.
 */
export function ArticleMedia({ media, title }: { media: MediaView; title: string }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing plays out and focus goes back to the trigger.
  const [used, setUsed] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const trigger = {
    ref: triggerRef,
    type: "button" as const,
    "aria-haspopup": "dialog" as const,
    "aria-expanded": open,
    onPointerEnter: () => void loadLightbox(),
    onFocus: () => void loadLightbox(),
    onClick: () => {
      setUsed(true);
      setOpen(true);
    },
  };
  return (
    <>
      <figure className={styles.figure}>
        {media.kind === "video" ? (
          <div className={styles.videoWrap}>
            <video className={styles.video} src={media.src} poster={media.poster ?? undefined} controls preload="metadata" playsInline>
              <track kind="captions" />
            </video>
            <button {...trigger} className={styles.expand} aria-label={t.article.openVideo} title={t.article.openVideo}>
              <Maximize2 aria-hidden="true" size={20} />
            </button>
          </div>
        ) : (
          <button {...trigger} className={styles.imageButton} aria-label={t.article.openMedia}>
            <MediaImage media={media} alt={imageAlt(media, title)} sizes="(min-width: 860px) 820px, 100vw" priority className={styles.image} />
            <span className={styles.zoomHint} aria-hidden="true">
              <Maximize2 size={18} />
            </span>
          </button>
        )}
        <MediaCaption media={media} />
      </figure>
      {used ? (
        <Suspense fallback={null}>
          <ArticleLightbox media={media} title={title} open={open} onOpenChange={setOpen} triggerRef={triggerRef} />
        </Suspense>
      ) : null}
    </>
  );
}
