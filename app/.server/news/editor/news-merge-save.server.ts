import { t } from "#app/i18n/newsroom.ts";
import type { NewsInput } from "#app/lib/news-schema.ts";
import { NotFoundError } from "#app/.server/errors.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { conflictOrNotFound, type NewsEditorContext, saveChanges } from "./news-change.server.ts";
import { type MergeSide, type MineMedia, mergedColumns, planMerge } from "./news-merge.server.ts";
import type { Actor } from "#app/.server/auth/permissions.server.ts";
import { findRevisionAtVersion } from "./news-revisions.server.ts";
import { toNewsConflictCurrent, viewStatusOf } from "#app/.server/news/news-rows.server.ts";
import { mediaTextOf, NewsMergeConflictError, newsColumns, type SavedNews } from "./news-save.server.ts";
import { findNewsRow, saverName } from "#app/.server/news/news.queries.server.ts";

/**
 * "Salvar mesmo assim": a three-way merge against the story as saved now (app/lib/news-merge.ts, planned in
 * news-merge.server.ts). The base is the version the editor opened (a revision once someone saved over it); without
 * it (a version never saved) this is a plain conflict, as before. Fields both changed to different values are a 409
 * with both, unless the editor chose, against the version saved now. Status: the editor's button counts only when it
 * changes the base's status (or unpublishes); otherwise the status saved now stays. The write is checked against the
 * version read here.
 */
export async function mergeSave(
  context: NewsEditorContext,
  id: string,
  input: NewsInput,
  file: UploadedFile | null,
  actor: Actor,
): Promise<SavedNews> {
  const { db } = context;
  let existing: Awaited<ReturnType<typeof findNewsRow>>;
  let base: Awaited<ReturnType<typeof findRevisionAtVersion>>;
  try {
    existing = await findNewsRow(db, id);
    if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
    base = existing.version === input.version ? undefined : await findRevisionAtVersion(db, id, input.version!);
    if (existing.version !== input.version && !base) await conflictOrNotFound(db, id);
  } catch (error) {
    await file?.cleanup();
    throw error;
  }
  const columns = () => newsColumns(input, context.defaultAuthor);
  const whole = { id, file, removeMedia: Boolean(input.removeMedia), actor, mediaText: mediaTextOf(input, true) };
  // Nobody saved in between: an ordinary save.
  if (!base) return saveChanges(context, { ...whole, publishing: input, changes: columns });

  const mine = columns();
  const mineMedia: MineMedia = file ? { kind: "new", name: file.originalName } : input.removeMedia ? { kind: "removed" } : { kind: "text" };
  const baseSide: MergeSide = { content: base, mediaId: base.media_id };
  const plan = planMerge({
    base: baseSide,
    current: { content: existing, mediaId: existing.media_id },
    mine,
    mineMedia,
    declared: new Set(input.mergeChanged ?? []),
    choices: input.mergeChoices ?? {},
    choicesCurrent: input.mergeSeen === existing.version,
  });
  if (plan.conflicts.length > 0) {
    await file?.cleanup();
    const savedBy = existing.updated_by ? await saverName(db, existing.updated_by) : undefined;
    throw new NewsMergeConflictError({
      fields: plan.conflicts,
      current: toNewsConflictCurrent(existing),
      savedBy: savedBy ?? null,
      savedAt: existing.updated_at,
    });
  }
  const media = plan.write.has("media");
  if (!media) await file?.cleanup();
  const statusChanged = input.unpublish || (input.status !== undefined && input.status !== (base.status ?? viewStatusOf(existing)));
  return saveChanges(context, {
    id,
    file: media ? file : null,
    removeMedia: media && Boolean(input.removeMedia),
    // The version read here: anyone saving between this read and the write makes it a plain conflict.
    publishing: statusChanged ? { ...input, version: existing.version } : { status: viewStatusOf(existing), version: existing.version },
    actor,
    changes: () => mergedColumns(mine, plan.write),
    mediaText: media ? mediaTextOf(input, true) : {},
  });
}
