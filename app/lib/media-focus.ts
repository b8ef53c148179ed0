/**
 * Where the subject of a photo is (the editor's choice in the news form): cards crop the photo to their box around
 * that point (CSS `object-position`) instead of its centre. Stored on the media item as the keyword; none is the centre.
 */
export const MEDIA_FOCUS_POSITIONS = {
  centro: "50% 50%",
  topo: "50% 15%",
  base: "50% 85%",
  esquerda: "20% 50%",
  direita: "80% 50%",
  "topo-esquerda": "20% 15%",
  "topo-direita": "80% 15%",
  "base-esquerda": "20% 85%",
  "base-direita": "80% 85%",
} as const;

export type MediaFocus = keyof typeof MEDIA_FOCUS_POSITIONS;
export const MEDIA_FOCUS_KEYS = Object.keys(MEDIA_FOCUS_POSITIONS) as MediaFocus[];

export function isMediaFocus(value: unknown): value is MediaFocus {
  return typeof value === "string" && Object.hasOwn(MEDIA_FOCUS_POSITIONS, value);
}

/** The `object-position` of a stored focus (null, unknown or the centre: none, the CSS default). */
export function objectPositionOf(focus: string | null | undefined): string | undefined {
  return isMediaFocus(focus) && focus !== "centro" ? MEDIA_FOCUS_POSITIONS[focus] : undefined;
}
