import type sharpModule from "sharp";

let loading: Promise<typeof sharpModule> | undefined;

/**
 * sharp (libvips), loaded on the first image to process rather than at start: readers never need it.
 *
 * Bounded memory: libvips keeps up to 50 MB of decoded images and operations cached and runs one thread per core
 * for each image by default. Uploads are rare and one at a time: no cache, one thread (each libvips thread also
 * grows its own malloc arena).
 */
export function loadSharp(): Promise<typeof sharpModule> {
  loading ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}
