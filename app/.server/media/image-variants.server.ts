import { createHash } from "node:crypto";
import type { Sharp } from "sharp";
import { loadSharp } from "./sharp.server.ts";

/**
 * Widths generated for every image (never enlarged: a smaller original also yields its own width). 1200 is also the
 * picture of link previews (WhatsApp, X, Facebook draw cards about that wide).
 */
export const IMAGE_VARIANT_WIDTHS = [400, 800, 1200, 1600] as const;

/** The variant widths for an original `width` px wide: 1000 → [400, 800, 1000]; 300 → [300]. */
export function variantWidths(width: number): number[] {
  const largest = Math.min(width, IMAGE_VARIANT_WIDTHS[IMAGE_VARIANT_WIDTHS.length - 1]!);
  return [...IMAGE_VARIANT_WIDTHS.filter((candidate) => candidate < largest), largest];
}

export interface ImageVariant {
  width: number;
  height: number;
  format: "webp" | "jpeg" | "png" | "gif" | "avif";
  mimeType: string;
  data: Buffer;
}

export interface ProcessedImage {
  hash: string;
  width: number;
  height: number;
  /** The format the original was in; variants are produced in it and in WebP. */
  format: ImageVariant["format"];
  variants: ImageVariant[];
}

const MIME: Record<ImageVariant["format"], string> = {
  webp: "image/webp",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  avif: "image/avif",
};

/** How hard the encoders work. */
export interface EncodeOptions {
  /**
   * libwebp's effort, 0 (fastest) to 6: 4 by default. The demo content uses 2: about half the encoding time for files
   * 1–4 % larger at the same quality setting.
   */
  webpEffort?: number;
  /**
   * Only for files of the project itself (the demo pictures), never for uploads, whose bytes are always re-encoded:
   * a WebP original with no metadata (EXIF, XMP, colour profile) and one frame is stored as is as the WebP variant of
   * its own width, instead of being decoded and encoded again (the heaviest variant, and a generation of loss).
   */
  keepWebpOriginal?: boolean;
}

/** Largest number of pixels we agree to decode (a 20000×20000 bomb is 400 M). */
export const MAX_INPUT_PIXELS = 40_000_000;

/** Largest picture decoded once for all its variants: 4 MP, at most 16 MB of pixels held while encoding. */
const DECODE_ONCE_MAX_PIXELS = 4_000_000;

/**
 * Re-encodes an image into resized variants. Orientation from EXIF is applied and all metadata (EXIF, GPS,
 * comments) is dropped, because sharp writes none unless asked. Animated GIFs stay animated.
 */
export async function processImage(input: Buffer, options: EncodeOptions = {}): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  const probe = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: true });
  const meta = await probe.metadata();
  const format = normaliseFormat(meta.format);
  const animated = (meta.pages ?? 1) > 1;
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = rotated ? (meta.height ?? 0) : (meta.width ?? 0);
  const pageHeight = meta.pageHeight ?? meta.height ?? 0;
  const height = rotated ? (meta.width ?? 0) : pageHeight;
  if (!width || !height) throw new Error("Imagem sem dimensões legíveis");

  const hash = createHash("sha256").update(input).digest("hex").slice(0, 32);
  // A small, plain picture (one frame, 8-bit sRGB, no colour profile) is decoded once and every variant is made from
  // its pixels: the decoding was up to half of each variant's time. Others are decoded once per variant, as libvips
  // streams them (a 40 MP picture never sits whole in memory).
  let source = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated }).rotate();
  if (!animated && meta.space === "srgb" && meta.depth === "uchar" && !meta.icc && width * height <= DECODE_ONCE_MAX_PIXELS) {
    const { data, info } = await source().raw().toBuffer({ resolveWithObject: true });
    source = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  }
  const keepOriginal =
    options.keepWebpOriginal === true && format === "webp" && !animated && (meta.orientation ?? 1) === 1 && !meta.exif && !meta.xmp && !meta.icc;
  const variants: ImageVariant[] = [];
  for (const target of variantWidths(width)) {
    for (const outFormat of unique(["webp", format] as const)) {
      if (keepOriginal && target === width) {
        variants.push({ width, height, format: "webp", mimeType: MIME.webp, data: input });
        continue;
      }
      const pipeline = source().resize({ width: target, withoutEnlargement: true });
      const { data, info } = await encode(pipeline, outFormat, options).toBuffer({ resolveWithObject: true });
      variants.push({
        width: info.width,
        height: info.pageHeight ?? info.height,
        format: outFormat,
        mimeType: MIME[outFormat],
        data,
      });
    }
  }
  return { hash, width, height, format, variants };
}

function encode(pipeline: Sharp, format: ImageVariant["format"], options: EncodeOptions): Sharp {
  switch (format) {
    case "webp":
      return pipeline.webp({ quality: 78, effort: options.webpEffort ?? 4 });
    case "jpeg":
      return pipeline.jpeg({ quality: 80, mozjpeg: true });
    case "png":
      return pipeline.png({ compressionLevel: 9, palette: false });
    case "gif":
      return pipeline.gif();
    case "avif":
      return pipeline.avif({ quality: 55 });
  }
}

function normaliseFormat(format: string | undefined): ImageVariant["format"] {
  switch (format) {
    case "jpeg":
    case "jpg":
      return "jpeg";
    case "png":
    case "gif":
    case "webp":
      return format;
    case "heif":
    case "avif":
      return "avif";
    default:
      throw new Error(`Formato de imagem não suportado: ${format ?? "desconhecido"}`);
  }
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

export function extensionFor(format: ImageVariant["format"]): string {
  return format === "jpeg" ? "jpg" : format;
}
