import { useEffect, useRef, useState } from "react";
import { DEFAULT_IMAGE_URL, type MediaView } from "../../lib/media-view.ts";

interface MediaImageProps {
  media: MediaView | null;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn, so the browser picks the right variant. */
  sizes: string;
  width?: number;
  height?: number;
  className?: string;
  priority?: boolean;
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
    if (img && img.complete && img.naturalWidth === 0 && !img.src.endsWith(DEFAULT_IMAGE_URL)) setFailed(true);
  }, []);

  const image = media?.kind === "image" && !failed ? media : null;
  const common = {
    alt,
    className,
    width: width ?? image?.width ?? 1600,
    height: height ?? image?.height ?? 900,
    loading: priority ? ("eager" as const) : ("lazy" as const),
    decoding: "async" as const,
    fetchPriority: priority ? ("high" as const) : undefined,
  };
  if (!image) return <img {...common} src={DEFAULT_IMAGE_URL} data-fallback="true" />;
  return (
    <picture>
      {image.webpSrcSet ? <source type="image/webp" srcSet={image.webpSrcSet} sizes={sizes} /> : null}
      <img
        {...common}
        ref={ref}
        src={image.src}
        srcSet={image.srcSet ?? undefined}
        sizes={sizes}
        onError={() => setFailed(true)}
      />
    </picture>
  );
}
