import type { NewsConflictCurrent } from "./news-view.ts";

/**
 * "Salvar mesmo assim" after a conflict: a three-way merge. The form keeps the version it was opened on (the base);
 * the save says which fields this editor changed from it, and the server writes only those, over the story as it is
 * now. A field both editors changed, to different values, is not written: the answer (409 `news_merge_conflict`)
 * carries both values, and the editor chooses per field. The body is compared as a whole; the media field is the
 * file and its texts.
 */
export const MERGE_FIELDS = ["title", "subtitle", "body", "category", "author", "isHighlighted", "media"] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeChoice = "mine" | "theirs";

export function isMergeField(name: string): name is MergeField {
  return (MERGE_FIELDS as readonly string[]).includes(name);
}

/**
 * A field's value as the side-by-side choice shows it: the text (the body's plain text), the highlight, and for the
 * media what happened to it (`media.kind`: a new file, removed, only its texts; the other side: changed or removed).
 */
export type MergeValue = string | boolean | { kind: "new" | "removed" | "text" | "changed"; name?: string | undefined };

/** A field both editors changed, to different values. */
export interface MergeConflictField {
  field: MergeField;
  mine: MergeValue;
  theirs: MergeValue;
}

/** The answer to a merge that needs a choice: the fields, and who saved the other version, and when. */
export interface MergeConflict {
  fields: MergeConflictField[];
  current: NewsConflictCurrent;
  /** The account's name (or e-mail) of whoever saved the version now saved; null when unknown. */
  savedBy: string | null;
  savedAt: string;
}

/** The form's encoding of the choices: "title=mine,body=theirs". */
export function encodeChoices(choices: Partial<Record<MergeField, MergeChoice>>): string {
  return Object.entries(choices)
    .map(([field, choice]) => `${field}=${choice}`)
    .join(",");
}
