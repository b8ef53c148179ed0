import { href } from "react-router";

/**
 * Where a save lands the editor: the story's edit page, with what happened in `salva` (its status after a new
 * story's first save, or "despublicada") and the saved version in `v` (so each landing draws a new form).
 */
export function editPageAfterSave(id: string, outcome: string, version: number | undefined, media?: string): string {
  const query = new URLSearchParams({ salva: outcome });
  if (version) query.set("v", String(version));
  if (media) query.set("midia", media);
  return `${href("/edit-news/:id", { id })}?${query}`;
}

/** What happened to a new story's media (`midia`): what the success message says. */
export const MEDIA_OUTCOMES = ["saved", "new", "existing", "none"] as const;
export type MediaOutcomeName = (typeof MEDIA_OUTCOMES)[number];

export const UNPUBLISHED_OUTCOME = "despublicada";
