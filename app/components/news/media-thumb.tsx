import { Play } from "lucide-react";
import { useEffect, useRef } from "react";
import type { MediaView } from "#app/lib/media-view.ts";
import { type ImagePriority, MediaImage } from "./media-image.tsx";
import styles from "./media-thumb.module.css";

/** A card's picture: the image, or for a video its poster (else its first frame) with a play mark. */
export function MediaThumb(props: { media: MediaView | null; alt: string; sizes: string; priority?: ImagePriority }) {
  if (props.media?.kind === "video") return <VideoThumb src={props.media.src} poster={props.media.poster ?? null} />;
  return <MediaImage media={props.media} alt={props.alt} sizes={props.sizes} priority={props.priority} />;
}

/**
 * A video card shows the poster made on upload. A video without one (stored before posters, or whose poster could
 * not be made) shows the clip's first frame: fetching it (the file's start, tens of kB) is left until the card comes
 * near the screen, once the page is interactive: like a lazy image, it never competes with the page's main picture.
 */
function VideoThumb({ src, poster }: { src: string; poster: string | null }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || poster) return;
    const start = () => {
      video.preload = "metadata";
      video.load();
    };
    if (typeof IntersectionObserver === "undefined") {
      start();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        start();
      },
      { rootMargin: "300px" },
    );
    observer.observe(video);
    return () => observer.disconnect();
  }, [poster]);
  return (
    <span className={styles.video}>
      <video
        ref={ref}
        src={poster ? src : `${src}#t=0.1`}
        poster={poster ?? undefined}
        preload="none"
        muted
        playsInline
        aria-hidden="true"
        tabIndex={-1}
      />
      <span className={styles.play} aria-hidden="true">
        <Play size={22} fill="currentColor" />
      </span>
    </span>
  );
}
