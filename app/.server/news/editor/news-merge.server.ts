import type { Updateable } from "kysely";
import type { MergeChoice, MergeConflictField, MergeField, MergeValue } from "#app/lib/news-merge.ts";
import type { NewsTable } from "#app/.server/db/schema.ts";
import { type NewsContentColumns, newsContentOf } from "#app/.server/news/news-rows.server.ts";

/** A version's content and media, as the merge compares them. */
export interface MergeSide {
  content: NewsContentColumns;
  mediaId: string | null;
}

/** What this editor did to the media: a new file (its name), removed it, changed only its texts, or nothing. */
export type MineMedia = { kind: "new"; name: string } | { kind: "removed" } | { kind: "text" } | null;

export interface MergePlan {
  /** The fields to write from this editor's save (the others stay as saved now). */
  write: Set<MergeField>;
  /** Fields both changed to different values with no choice made against the version saved now: nothing is written. */
  conflicts: MergeConflictField[];
}

type TextField = "title" | "subtitle" | "category" | "author";
const TEXT_FIELDS: TextField[] = ["title", "subtitle", "category", "author"];

/** A field's value for comparing: texts as they are, the body as its JSON (compared as a whole), the highlight. */
function compared(side: NewsContentColumns, field: Exclude<MergeField, "media">): string | boolean {
  const content = newsContentOf(side);
  if (field === "body") return JSON.stringify(content.body);
  if (field === "isHighlighted") return content.isHighlighted;
  return content[field];
}

/** What the side-by-side choice shows of a field (the body as its plain text). */
function shown(side: NewsContentColumns, field: Exclude<MergeField, "media">): MergeValue {
  if (field === "body") return side.full_content;
  return compared(side, field);
}

/**
 * The three-way merge of one save (app/lib/news-merge.ts). `base` is the version the editor opened, `current` the one
 * saved now, `mine` what the editor sends; `declared` the fields the editor says it changed (a field is only mine
 * when it was declared and really differs from the base: the server compares, never the client's view of what is
 * saved now). `choices` count only when made against the version saved now (`choicesCurrent`).
 */
export function planMerge({
  base,
  current,
  mine,
  mineMedia,
  declared,
  choices,
  choicesCurrent,
}: {
  base: MergeSide;
  current: MergeSide;
  mine: NewsContentColumns;
  mineMedia: MineMedia;
  declared: ReadonlySet<MergeField>;
  choices: Partial<Record<MergeField, MergeChoice>>;
  choicesCurrent: boolean;
}): MergePlan {
  const write = new Set<MergeField>();
  const conflicts: MergeConflictField[] = [];
  const decide = (field: MergeField, theirsChanged: boolean, same: boolean, values: () => Pick<MergeConflictField, "mine" | "theirs">) => {
    if (!theirsChanged || same) {
      write.add(field);
      return;
    }
    const choice = choicesCurrent ? choices[field] : undefined;
    if (choice === "mine") write.add(field);
    else if (choice !== "theirs") conflicts.push({ field, ...values() });
  };
  for (const field of [...TEXT_FIELDS, "body", "isHighlighted"] as const) {
    if (!declared.has(field)) continue;
    const mineValue = compared(mine, field);
    if (mineValue === compared(base.content, field)) continue;
    decide(field, compared(current.content, field) !== compared(base.content, field), mineValue === compared(current.content, field), () => ({
      mine: shown(mine, field),
      theirs: shown(current.content, field),
    }));
  }
  if (declared.has("media") && mineMedia) {
    const theirsChanged = current.mediaId !== base.mediaId;
    // Both removed it: the same result.
    const same = mineMedia.kind === "removed" && current.mediaId === null;
    decide("media", theirsChanged, same, () => ({ mine: mineMedia, theirs: { kind: current.mediaId ? "changed" : "removed" } }));
  }
  return { write, conflicts };
}

/** The columns of the fields to write, from this editor's save. */
export function mergedColumns(mine: NewsContentColumns, write: ReadonlySet<MergeField>): Updateable<NewsTable> {
  const columns: Updateable<NewsTable> = {};
  for (const field of TEXT_FIELDS) if (write.has(field)) columns[field] = mine[field];
  if (write.has("body")) Object.assign(columns, { body: mine.body, full_content: mine.full_content });
  if (write.has("isHighlighted")) columns.is_highlighted = mine.is_highlighted;
  return columns;
}
