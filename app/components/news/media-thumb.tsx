import { Play } from "lucide-react";
import type { MediaView } from "../../lib/media-view.ts";
import { MediaImage } from "./media-image.tsx";
import styles from "./media-thumb.module.css";

/** A card's picture: the image, or for a video its first frame with a play mark. */
export function MediaThumb(props: { media: MediaView | null; alt: string; sizes: string; priority?: boolean }) {
  if (props.media?.kind === "video") {
    return (
      <span className={styles.video}>
        <video src={`${props.media.src}#t=0.1`} preload="metadata" muted playsInline aria-hidden="true" tabIndex={-1} />
        <span className={styles.play} aria-hidden="true">
          <Play size={22} fill="currentColor" />
        </span>
      </span>
    );
  }
  return <MediaImage media={props.media} alt={props.alt} sizes={props.sizes} priority={props.priority} />;
}
