import type { MediaRow } from "#app/.server/db/schema.ts";

/** One stored file of a media item: an image size in one format (or a video's poster frame). */
export interface StoredVariant {
  width: number;
  height: number;
  format: string;
  mimeType: string;
  key: string;
}

/** Every store key a media record points to: its main key and the keys of all its variants. */
export function mediaKeys(row: Pick<MediaRow, "key" | "variants">): string[] {
  // A damaged variants column still leaves the main key.
  return [...new Set([row.key, ...parseVariants(row.variants).map((variant) => variant.key)])];
}

/** The variants column as a list (a damaged one as none). */
export function parseVariants(json: string | null): StoredVariant[] {
  try {
    const parsed = JSON.parse(json || "[]") as unknown;
    return Array.isArray(parsed) ? (parsed as StoredVariant[]).filter((variant) => variant && typeof variant.key === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Where a media item's files live: the content hash (so a URL's bytes never change) plus the record's id (so
 * two uploads of the same file never share, or delete, each other's files).
 */
export function objectFolder(hash: string, id: string): string {
  return `${hash.slice(0, 24)}-${id.slice(0, 8)}`;
}
