import type { ByteRange } from "#app/.server/storage/media-store.ts";

/**
 * Parses a single-range `Range: bytes=…` header against an object of `size` bytes.
 * Returns null when there is no usable header (serve everything) and "unsatisfiable" for a range past the end.
 * Multi-range requests are answered with the whole object, which RFC 9110 allows.
 */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return null;
  if (size === 0) return "unsatisfiable";
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
