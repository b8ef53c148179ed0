import { Maximize2 } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { imageAlt, type MediaView } from "#app/lib/media-view.ts";
import { MediaCaption } from "./media-caption.tsx";
import { MediaImage } from "./media-image.tsx";
import styles from "./article-media.module.css";

const loadLightbox = () => import("./article-lightbox.tsx");
const ArticleLightbox = lazy(() => loadLightbox().then((module) => ({ default: module.ArticleLightbox })));

/** The history entry an open full-screen view adds (`#midia`): the phone's back button closes the view. */
const OPEN_HASH = "#midia";

/**
 * The article's main media. Clicking it opens a full-screen view (article-lightbox.tsx), downloaded when the pointer
 * or the focus first reaches the control, so the article itself ships no dialog code. Opening it adds a history entry
 * (`#midia`, a hash change: nothing reloads, the scroll stays): Android's back button, or the browser's, closes the
 * view instead of leaving the article; closing it otherwise (its button, Escape) takes that entry back off.
 */
export function ArticleMedia({ media, title }: { media: MediaView; title: string }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const { hash, search } = useLocation();
  const previousHash = useRef(hash);
  useEffect(() => {
    // Back from the entry the view added: the view closes.
    if (previousHash.current === OPEN_HASH && hash !== OPEN_HASH) setOpen(false);
    previousHash.current = hash;
  }, [hash]);
  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next && previousHash.current === OPEN_HASH) void navigate(-1);
  };
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
      if (previousHash.current !== OPEN_HASH) void navigate({ search, hash: OPEN_HASH }, { preventScrollReset: true });
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
          <ArticleLightbox media={media} title={title} open={open} onOpenChange={changeOpen} triggerRef={triggerRef} />
        </Suspense>
      ) : null}
    </>
  );
}
