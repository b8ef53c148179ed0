import { useEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import { DEFAULT_IMAGE_URL, focusPosition, type MediaView } from "#app/lib/media-view.ts";

/**
 * How urgent a picture is. `true`: the page's largest picture (its LCP): loaded eagerly with high priority and
 * preloaded from the document's <head>, with the same `srcset`/`sizes` the <picture> picks from. `{ media }`: the
 * same preload, but only on screens matching the media query (a card that is in the first row only on wide
 * screens); the image itself stays lazy, so a phone does not fetch it before it scrolls there. `false`: lazy.
 */
export type ImagePriority = boolean | { media: string };

interface MediaImageProps {
  media: MediaView | null;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn, so the browser picks the right variant. */
  sizes: string;
  width?: number;
  height?: number;
  className?: string;
  priority?: ImagePriority;
}

/**
 * A stored image with WebP and original-format variants. When it is missing or fails to load, the default
 * ball picture is shown instead. A failure before hydration is caught too (the image is checked on mount).
 */
export function MediaImage({ media, alt, sizes, width, height, className, priority = false }: MediaImageProps) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);

  useEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0 && !img.src.endsWith(DEFAULT_IMAGE_URL)) setFailed(true);
  }, []);

  const image = media?.kind === "image" && !failed ? media : null;
  if (priority !== false && image) {
    // Rendered on the server, this puts <link rel="preload" as="image" imagesrcset imagesizes fetchpriority="high">
    // in the <head>, ahead of the scripts and styles: the browser starts the picture before it has parsed the body.
    // The WebP set is what the <picture> chooses in every browser that honours imagesrcset.
    preload(image.src, {
      as: "image",
      imageSrcSet: image.webpSrcSet ?? image.srcSet ?? undefined,
      imageSizes: sizes,
      type: image.webpSrcSet ? "image/webp" : image.mimeType,
      fetchPriority: "high",
      media: priority === true ? undefined : priority.media,
    });
  }
  const common = {
    className,
    width: width ?? image?.width ?? 1600,
    height: height ?? image?.height ?? 900,
    loading: priority === true ? ("eager" as const) : ("lazy" as const),
    decoding: "async" as const,
    fetchPriority: priority === true ? ("high" as const) : undefined,
  };
  if (!image) return <img {...common} alt={alt} src={DEFAULT_IMAGE_URL} data-fallback="true" />;
  return (
    <picture>
      {image.webpSrcSet ? <source type="image/webp" srcSet={image.webpSrcSet} sizes={sizes} /> : null}
      <img
        {...common}
        alt={alt}
        ref={ref}
        src={image.src}
        srcSet={image.srcSet ?? undefined}
        sizes={sizes}
        // A box of another shape than the image keeps the newsroom's focus point (the centre when none is set).
        style={image.focus ? { objectPosition: focusPosition(image) } : undefined}
        onError={() => setFailed(true)}
      />
    </picture>
  );
}
