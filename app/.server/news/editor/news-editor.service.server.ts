import type { Updateable } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { BulkAction } from "#app/lib/newsroom-query.ts";
import type { NewsInput, NewsPatch } from "#app/lib/news-schema.ts";
import type { NewsTable } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError, wrapFailure } from "#app/.server/errors.ts";
import { mediaExists } from "#app/.server/media/media.queries.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { type BulkResult, runBulkAction } from "#app/.server/news/desk/news-bulk.server.ts";
import { bodyMediaChecked, type NewsEditorContext, type NewsEditorDeps, removeMediaQuietly, saveChanges } from "./news-change.server.ts";
import { createNews } from "./news-create.server.ts";
import { mergeSave } from "./news-merge-save.server.ts";
import { type Actor, actorIdOf, requireMayRestore, requireReporterMayChange, systemActor } from "#app/.server/auth/permissions.server.ts";
import { returnToReporter } from "#app/.server/news/publishing/news-return.server.ts";
import { findRevision } from "./news-revisions.server.ts";
import { bodyColumns } from "#app/.server/news/news-rows.server.ts";
import { bodyOfInput, mediaTextOf, newsColumns, type SavedNews } from "./news-save.server.ts";
import { findNewsRow, setNewsHighlight } from "#app/.server/news/news.queries.server.ts";
import { expiredTrash, moveToTrash } from "#app/.server/news/desk/news-trash.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";
import { teamPathsOf } from "#app/.server/news/taxonomy/teams.server.ts";

export type { BulkResult, NewsEditorDeps };

/**
 * Writing news: create, update (with media replacement), delete. Media files are stored first; then the media's
 * texts, the row and the revision it replaces are written in one transaction, which also sends `newsUpdated` (with
 * the commit: a save that rolls back sends nothing). If the transaction fails, the new media is removed again.
 * Replaced or deleted media is removed after the record is saved (a failure there is logged and left to the orphan
 * sweeper).
 *
 * The operations: a new story (news-create.server.ts); every change of an existing one through saveChanges
 * (news-change.server.ts), "Salvar mesmo assim" (news-merge-save.server.ts) and "Devolver ao repórter"
 * (news-return.server.ts) included; the newsroom list's bulk actions (news-bulk.server.ts).
 */
export function createNewsEditor(deps: NewsEditorDeps) {
  const context: NewsEditorContext = { ...deps, clock: deps.clock ?? (() => new Date()) };
  const { db, events, log, clock, notify, defaultAuthor } = context;

  return {
    /** A new item: published now unless `status` says draft or scheduled (with `publishAt`). */
    createNews(input: NewsInput, file: UploadedFile | null, actor: Actor): Promise<SavedNews> {
      return createNews(context, input, file, actor);
    },

    /**
     * Replaces the whole item (the form, PUT): absent optional fields take the spec's defaults. With `merge` (the
     * editor's "Salvar mesmo assim") and a `version` older than the saved one, only the fields changed from that
     * version are written (mergeSave).
     */
    async updateNews(id: string, input: NewsInput, file: UploadedFile | null, actor: Actor) {
      await bodyMediaChecked(context, input.body, file);
      if (input.merge && input.version !== undefined) return mergeSave(context, id, input, file, actor);
      return saveChanges(context, {
        id,
        file,
        removeMedia: Boolean(input.removeMedia),
        publishing: input,
        actor,
        changes: () => newsColumns(input, defaultAuthor),
        mediaText: mediaTextOf(input, true),
      });
    },

    /** Changes only the fields sent (PATCH); an empty fullContent, category or author takes its default. */
    async patchNews(id: string, patch: NewsPatch, file: UploadedFile | null, actor: Actor) {
      await bodyMediaChecked(context, patch.body, file);
      return saveChanges(context, {
        id,
        file,
        removeMedia: patch.removeMedia === true,
        // PATCH keeps its contract: a `status` sent is meant (`{"status":"draft"}` unpublishes a live item).
        publishing: { ...patch, unpublish: patch.unpublish === true || (patch.status !== undefined && patch.status !== "published") },
        actor,
        changes: (existing) => {
          const changes: Updateable<NewsTable> = {};
          if (patch.title !== undefined) changes.title = patch.title;
          if (patch.subtitle !== undefined) changes.subtitle = patch.subtitle;
          if (patch.body !== undefined || patch.fullContent !== undefined)
            Object.assign(changes, bodyColumns(bodyOfInput(patch, patch.subtitle ?? existing.subtitle)));
          if (patch.category !== undefined) changes.category = patch.category.trim() || t.news.defaultCategory;
          if (patch.author !== undefined) changes.author = patch.author.trim() || defaultAuthor;
          if (patch.isHighlighted !== undefined) changes.is_highlighted = patch.isHighlighted ? 1 : 0;
          return changes;
        },
        mediaText: mediaTextOf(patch, false),
      });
    },

    /**
     * Brings back an older version's texts, category, author, highlight and media, as a new version (the one it
     * replaces is kept as a revision too). The status and publication date stay as they are.
     */
    async restoreRevision(id: string, revisionId: string, actor: Actor, version?: number) {
      requireMayRestore(actor);
      const revision = await findRevision(db, id, revisionId);
      if (!revision) throw new NotFoundError("revision_not_found", t.revisions.notFound);
      const mediaKept = revision.media_id !== null && (await mediaExists(db, revision.media_id));
      return saveChanges(context, {
        id,
        file: null,
        removeMedia: !mediaKept,
        publishing: { version },
        actor,
        changes: () => ({
          title: revision.title,
          subtitle: revision.subtitle,
          full_content: revision.full_content,
          body: revision.body,
          category: revision.category,
          author: revision.author,
          is_highlighted: revision.is_highlighted,
          ...(mediaKept ? { media_id: revision.media_id } : {}),
        }),
        mediaText: {},
      });
    },

    /** "Devolver ao repórter" (news-return.server.ts). */
    returnToReporter(id: string, note: string, actor: Actor, version?: number): Promise<SavedNews> {
      return returnToReporter(context, id, note, actor, version);
    },

    async setHighlight(id: string, highlighted: boolean): Promise<void> {
      return wrapFailure("news_update_failed", t.news.updateFailed, async () => {
        await events.withCommit(db, async (trx, send) => {
          const existing = await trx.selectFrom("news").select("status").where("id", "=", id).executeTakeFirst();
          if (!existing || !(await setNewsHighlight(trx, id, highlighted, clock().toISOString())))
            throw new NotFoundError("news_not_found", t.news.notFound);
          await send("newsUpdated", { paths: storyPaths({ id }), ...audienceOf(existing) });
        });
      });
    },

    /** A bulk action of the newsroom's list (news-bulk.server.ts). */
    bulkAction(action: BulkAction, ids: readonly string[], actor: Actor): Promise<BulkResult> {
      return runBulkAction({ db, events, log, clock, notify, removeMedia: (mediaId) => removeMediaQuietly(context, mediaId) }, action, ids, actor);
    },

    /**
     * Whether `actor` may open this story for editing (a reporter: their own draft or story in review); throws the
     * 403 (RoleForbiddenError) or the 404 a save would get, before the form is drawn.
     */
    async requireMayEdit(id: string, actor: Actor): Promise<void> {
      const existing = await findNewsRow(db, id);
      if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
      requireReporterMayChange(actor, existing);
    },

    /**
     * Moves the story to the Lixeira (news-trash.server.ts): readers lose it at once; an editor can restore it for
     * TRASH_DAYS. Moved or saved by someone else in between: the caller is told (404 / 409).
     */
    async deleteNews(id: string, actor: Actor): Promise<void> {
      return wrapFailure("news_delete_failed", t.news.deleteFailed, async () => {
        const existing = await findNewsRow(db, id);
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        requireReporterMayChange(actor, existing, true);
        await events.withCommit(db, async (trx, send) => {
          if (!(await moveToTrash(trx, [existing], actorIdOf(actor), clock().toISOString())))
            throw new AppError("news_version_conflict", t.newsroom.conflict, 409);
          await send("newsUpdated", { paths: [...storyPaths(existing), ...(await teamPathsOf(trx, [id]))], ...audienceOf(existing) });
        });
        log.info({ actor: actorIdOf(actor), id }, "news moved to the trash");
      });
    },

    /** Erases the stories in the Lixeira for longer than TRASH_DAYS (the background timer); how many went. */
    async purgeTrash(): Promise<number> {
      let erased = 0;
      for (;;) {
        const ids = await expiredTrash(db, clock());
        if (ids.length === 0) return erased;
        erased += (await this.bulkAction("erase", ids, systemActor("trash purge"))).changed;
      }
    },
  };
}

export type NewsEditor = ReturnType<typeof createNewsEditor>;
