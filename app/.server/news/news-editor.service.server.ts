import { randomUUID } from "node:crypto";
import type { Kysely, Updateable } from "kysely";
import { t } from "../../i18n/newsroom.ts";
import type { NewsInput, NewsPatch } from "../../lib/news-schema.ts";
import type { Database, NewsStatus, NewsTable } from "../db/schema.ts";
import type { NewsStatus as WantedStatus } from "../../lib/news-view.ts";
import { canPublish } from "../../lib/roles.ts";
import { parsePublishAt } from "../../lib/zoned-time.ts";
import { AppError, FieldsError, NotFoundError, wrapFailure } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Logger } from "../logger.server.ts";
import { checkBodyMedia } from "../media/body-media.server.ts";
import { mediaExists, setMediaText } from "../media/media.queries.server.ts";
import type { MediaService } from "../media/media.service.server.ts";
import type { UploadedFile } from "../media/upload.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { canonicalNewsTerms, canonicalTerm } from "./taxonomy.server.ts";
import { withAuthorLink } from "./author-link.server.ts";
import { bodyColumns, inReview, toNewsConflictCurrent, viewStatusOf } from "./news-rows.server.ts";
import { type BulkResult, runBulkAction } from "./news-bulk.server.ts";
import { type Actor, actorIdOf, RoleForbiddenError, requireReporterMayChange, requireReporterMayPublish } from "./news-permissions.server.ts";
import { deleteRevisionsOf, findRevision, insertRevision, revisionOf } from "./news-revisions.server.ts";
import { deleteNewsRow, findNewsRow, insertNews, setNewsHighlight, updateNewsAtVersion } from "./news.queries.server.ts";
import type { RichDoc } from "../../lib/rich-text.ts";
import type { NewsConflictCurrent } from "../../lib/news-view.ts";
import { type MergeSide, type MineMedia, mergedColumns, planMerge } from "./news-merge.server.ts";
import { storyPaths } from "./story-paths.server.ts";
import type { BulkAction } from "../../lib/newsroom-query.ts";
import { deleteNewsAutosave } from "./news-autosave.server.ts";
import { deleteReviewEventsOf, insertReviewEvent, type ReviewEventKind, type ReviewNotifier } from "./news-review.server.ts";
import {
  bodyOfInput,
  type MediaText,
  mediaTextOf,
  NewsConflictError,
  NewsMergeConflictError,
  newsColumns,
  requireImageDescription,
  reviewStepOf,
  type SavedNews,
} from "./news-save.server.ts";
import { REVIEW_NOTE_MAX } from "../../lib/limits.ts";

export interface NewsEditorDeps {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  /** The media store: whether it is connected, and its name (a body's images must be media items of it). */
  store: Pick<MediaStore, "isConnected" | "name">;
  events: Pick<EventBus, "withCommit">;
  log: Logger;
  defaultAuthor: string;
  /** The site's time zone: a schedule without a zone ("2026-11-25T10:00") is on its clock. */
  timeZone: string;
  clock?: () => Date;
  /** The review queue's e-mails (sent after the commit); none when absent (scripts, some tests). */
  notify?: ReviewNotifier | undefined;
}

/** What a save says about publishing: the status wanted, the schedule, and the version the editor started from. */
export interface PublishingInput {
  /** `review`: a draft sent for review (stored as a draft, see viewStatusOf). */
  status?: WantedStatus | undefined;
  publishAt?: string | undefined;
  version?: number | undefined;
  /**
   * Whether the save may take a published item offline. A published item only leaves "published" (to a draft, or to
   * a new schedule) when this is true: a stale form's "Salvar rascunho" or a PUT with `status: "draft"` saves the
   * changes and the item stays live. True with no status (or "published") means: back to a draft.
   */
  unpublish?: boolean | undefined;
}

/** One save of an existing item (see saveChanges). */
interface ChangeRequest {
  id: string;
  /** A new media file, stored before the row is written. */
  file: UploadedFile | null;
  /** Whether the item ends without media (when no new file is given). */
  removeMedia: boolean;
  publishing: PublishingInput;
  /** Who saves (see Actor). */
  actor: Actor;
  /** The columns that change, from the row as it is. */
  changes: (existing: { subtitle: string }) => Updateable<NewsTable>;
  /** The text of the media the item ends with. */
  mediaText: MediaText;
  /** "Devolver ao repórter": the editor's note; the story must be in review (else 409 `not_in_review`). */
  returnNote?: string | undefined;
}

/** Thrown inside a save's transaction when the row is no longer the version read (rolls everything back). */
class StaleSave extends Error {}

/**
 * Writing news: create, update (with media replacement), delete. Media files are stored first; then the media's
 * texts, the row and the revision it replaces are written in one transaction, which also sends `newsUpdated` (with
 * the commit: a save that rolls back sends nothing). If the transaction fails, the new media is removed again.
 * Replaced or deleted media is removed after the record is saved (a failure there is logged and left to the orphan
 * sweeper).
 */
export type { Actor, BulkResult };
export { RoleForbiddenError };

export function createNewsEditor({ db, media, store, events, log, defaultAuthor, timeZone, clock = () => new Date(), notify }: NewsEditorDeps) {
  const columns = (input: NewsInput) => newsColumns(input, defaultAuthor);

  /**
   * The instant of a schedule: refused when missing, not a date, or not in the future (400, the message under the
   * schedule field: the form shows it there and moves to it).
   */
  function scheduledTime(publishAt: string | undefined): string {
    if (!publishAt) throw new FieldsError("publish_at_required", { publishAt: [t.newsForm.publishAtRequired] });
    const when = parsePublishAt(publishAt, timeZone);
    if (!when) throw new FieldsError("invalid_publish_at", { publishAt: [t.newsForm.invalidPublishAt] });
    if (when.getTime() <= clock().getTime()) throw new FieldsError("publish_at_past", { publishAt: [t.newsForm.publishAtPast] });
    return when.toISOString();
  }

  /**
   * The status and publication date after a save. Publishing keeps the date of an item already published (an edit
   * is not a new publication) and is "now" otherwise; a schedule takes its time (a scheduled item edited without a
   * new time keeps its own); a draft's date is when it became one (its place in the admin list).
   */
  function publicationAfter(
    existing: { status: NewsStatus; published_at: string; review_requested_at: string | null } | null,
    input: PublishingInput,
    now: string,
  ): { status: NewsStatus; published_at: string; review_requested_at: string | null } {
    // "review" is a draft sent for review: stored as a draft with the time it was sent.
    const wanted: NewsStatus | undefined = input.status === "review" ? "draft" : input.status;
    const asked = input.unpublish && (!wanted || wanted === "published") ? "draft" : wanted;
    // A live item stays live unless the request says, on purpose, to take it offline.
    const status = existing?.status === "published" && !input.unpublish ? "published" : (asked ?? existing?.status ?? "published");
    if (status === "scheduled") {
      const keep = existing?.status === "scheduled" && !input.publishAt;
      return { status, published_at: keep ? existing.published_at : scheduledTime(input.publishAt), review_requested_at: null };
    }
    // Sent for review now, or still in review after a save that says no status; "draft" (or anything else) ends it.
    const inReview = status === "draft" && (input.status === "review" || (input.status === undefined && !input.unpublish));
    const review_requested_at = inReview ? (existing?.review_requested_at ?? (input.status === "review" ? now : null)) : null;
    return { status, published_at: existing?.status === status ? existing.published_at : now, review_requested_at };
  }

  /** What is saved now, for a 409; null when the item is gone. */
  async function currentOf(id: string): Promise<NewsConflictCurrent | null> {
    const row = await findNewsRow(db, id);
    return row ? toNewsConflictCurrent(row) : null;
  }

  /** The answer to a save that found the item changed or gone: 409 with what is saved now, or 404. */
  async function conflictOrNotFound(id: string): Promise<never> {
    const current = await currentOf(id);
    if (current) throw new NewsConflictError(current);
    throw new NotFoundError("news_not_found", t.news.notFound);
  }

  async function requireConnectedStore() {
    if (!(await store.isConnected())) throw new AppError("storage_not_connected", t.newsForm.driveRequired, 409);
  }

  async function removeMediaQuietly(mediaId: string) {
    try {
      await media.deleteMedia(mediaId);
    } catch (error) {
      log.warn({ err: error, mediaId }, "media removal failed; the orphan sweeper will retry");
    }
  }

  /**
   * A category or author in the spelling first used for it ("volei" becomes "Vôlei"), with its slug; recorded in the
   * save's transaction, so a refused save records no new term.
   */
  async function withCanonicalTerms(
    trx: Kysely<Database>,
    patch: Updateable<NewsTable>,
    now: string,
    before?: { author: string; author_slug: string; author_user_id: string | null },
  ): Promise<Updateable<NewsTable>> {
    const result = { ...patch };
    if (typeof patch.category === "string") {
      const term = await canonicalTerm(trx, "category", patch.category, now);
      result.category = term.name;
      result.category_slug = term.slug;
    }
    if (typeof patch.author === "string") {
      const term = await canonicalTerm(trx, "author", patch.author, now);
      Object.assign(result, await withAuthorLink(trx, { author: term.name, author_slug: term.slug }, before));
    }
    return result;
  }

  /**
   * Saves changes to an existing item: the new media file (if any) first, then one transaction with the media's
   * texts, the row (only if it is still the version the change was based on) and the revision of the version it
   * replaces, and the event. An item deleted meanwhile is a 404, one saved by someone else meanwhile a conflict
   * (409): the transaction rolls back (nothing of the save is kept, texts included) and the media just stored for
   * it is removed at once (not left to the sweeper). Every save adds one to the version.
   */
  async function saveChanges({ id, file, removeMedia, publishing, actor, changes, mediaText, returnNote }: ChangeRequest): Promise<SavedNews> {
    return wrapFailure("news_update_failed", t.news.updateFailed, async () => {
      const existing = await findNewsRow(db, id);
      let publication: ReturnType<typeof publicationAfter>;
      const now = clock().toISOString();
      try {
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        requireReporterMayChange(actor, existing);
        if (publishing.version !== undefined && publishing.version !== existing.version) await conflictOrNotFound(id);
        if (returnNote !== undefined && !inReview(existing)) throw new AppError("not_in_review", t.review.notInReview, 409);
        publication = publicationAfter(existing, publishing, now);
        requireReporterMayPublish(actor, publication.status);
        await requireImageDescription(file, mediaText.description);
        await requireConnectedStore();
      } catch (error) {
        await file?.cleanup();
        throw error;
      }
      const saved = file ? await media.saveUpload(file) : null;
      const mediaId = saved ? saved.id : removeMedia ? null : existing.media_id;
      const step: ReviewEventKind | null = returnNote !== undefined ? "returned" : reviewStepOf(existing, publication);
      try {
        await events.withCommit(db, async (trx, send) => {
          const patch = await withCanonicalTerms(trx, changes(existing), now, existing);
          // The text goes with the media the item ends with (the new file, or the one it keeps).
          if (mediaId && Object.keys(mediaText).length > 0) await setMediaText(trx, mediaId, mediaText);
          const updated = await updateNewsAtVersion(trx, id, existing.version, {
            media_id: mediaId,
            ...patch,
            ...publication,
            updated_at: now,
            updated_by: actorIdOf(actor),
            version: existing.version + 1,
          });
          // Saved by someone else between our read and our write, or deleted: nothing of this save is kept.
          if (updated === 0n) throw new StaleSave();
          // The version being replaced becomes a revision. The media it had stays: the revision refers to it.
          await insertRevision(trx, revisionOf(existing));
          // The saver's autosave of it is now either in the story or meant to be dropped: a real save ends it.
          const saver = actorIdOf(actor);
          if (saver) await deleteNewsAutosave(trx, id, saver);
          if (step)
            await insertReviewEvent(trx, { newsId: id, version: existing.version + 1, kind: step, actorId: saver, note: returnNote, at: now });
          await send("newsUpdated", { paths: storyPaths(existing, { ...existing, ...patch }) });
        });
      } catch (error) {
        if (saved) await removeMediaQuietly(saved.id);
        if (error instanceof StaleSave) await conflictOrNotFound(id);
        throw error;
      }
      if (step === "submitted") notify?.submitted(id, actorIdOf(actor));
      else if (step) notify?.decided(id, step, actorIdOf(actor), returnNote);
      return {
        id,
        media: saved ? "new" : mediaId ? "existing" : "none",
        status: viewStatusOf(publication),
        publishedAt: publication.published_at,
        version: existing.version + 1,
      };
    });
  }

  /** The body's images are media items of our store (else a 400 under `body`, the uploaded file removed). */
  async function bodyMediaChecked(body: RichDoc | undefined, file: UploadedFile | null) {
    try {
      await checkBodyMedia(db, store, body);
    } catch (error) {
      await file?.cleanup();
      throw error;
    }
  }

  /**
   * "Salvar mesmo assim": a three-way merge against the story as saved now (app/lib/news-merge.ts). The base is the
   * version the editor opened (a revision once someone saved over it); without it (a version never saved) this is a
   * plain conflict, as before. Fields both changed to different values are a 409 with both, unless the editor chose,
   * against the version saved now. Status: the editor's button counts only when it changes the base's status (or
   * unpublishes); otherwise the status saved now stays. The write is checked against the version read here.
   */
  async function mergeSave(id: string, input: NewsInput, file: UploadedFile | null, actor: Actor): Promise<SavedNews> {
    let existing: Awaited<ReturnType<typeof findNewsRow>>;
    let base: Awaited<ReturnType<typeof findBaseRevision>>;
    try {
      existing = await findNewsRow(db, id);
      if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
      base = existing.version === input.version ? undefined : await findBaseRevision(id, input.version!);
      if (existing.version !== input.version && !base) await conflictOrNotFound(id);
    } catch (error) {
      await file?.cleanup();
      throw error;
    }
    const whole = { id, file, removeMedia: Boolean(input.removeMedia), actor, mediaText: mediaTextOf(input, true) };
    // Nobody saved in between: an ordinary save.
    if (!base) return saveChanges({ ...whole, publishing: input, changes: () => columns(input) });

    const mine = columns(input);
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
      const savedBy = existing.updated_by
        ? await db.selectFrom("user").select(["name", "email"]).where("id", "=", existing.updated_by).executeTakeFirst()
        : undefined;
      throw new NewsMergeConflictError({
        fields: plan.conflicts,
        current: toNewsConflictCurrent(existing),
        savedBy: savedBy ? savedBy.name?.trim() || savedBy.email : null,
        savedAt: existing.updated_at,
      });
    }
    const media = plan.write.has("media");
    if (!media) await file?.cleanup();
    const statusChanged = input.unpublish || (input.status !== undefined && input.status !== (base.status ?? viewStatusOf(existing)));
    return saveChanges({
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

  function findBaseRevision(id: string, version: number) {
    return db.selectFrom("news_revisions").selectAll().where("news_id", "=", id).where("version", "=", version).executeTakeFirst();
  }

  return {
    /** A new item: published now unless `status` says draft or scheduled (with `publishAt`). */
    async createNews(input: NewsInput, file: UploadedFile | null, actor: Actor = null): Promise<SavedNews> {
      return wrapFailure("news_create_failed", t.news.createFailed, async () => {
        const text = mediaTextOf(input, true);
        const now = clock().toISOString();
        let publication: ReturnType<typeof publicationAfter>;
        try {
          publication = publicationAfter(null, input, now);
          requireReporterMayPublish(actor, publication.status);
          await requireImageDescription(file, text.description);
          await checkBodyMedia(db, store, input.body);
          await requireConnectedStore();
        } catch (error) {
          await file?.cleanup();
          throw error;
        }
        const fields = columns(input);
        const saved = file ? await media.saveUpload(file) : null;
        const id = randomUUID();
        try {
          await events.withCommit(db, async (trx, send) => {
            const terms = await withAuthorLink(trx, await canonicalNewsTerms(trx, fields, now));
            if (saved) await setMediaText(trx, saved.id, text);
            await insertNews(trx, {
              id,
              ...fields,
              ...terms,
              ...publication,
              version: 1,
              media_id: saved?.id ?? null,
              created_at: now,
              updated_at: now,
              updated_by: actorIdOf(actor),
              // Whoever created it owns it (a reporter may change only their own); the site's own code owns nothing.
              owner_id: actorIdOf(actor),
            });
            if (inReview(publication))
              await insertReviewEvent(trx, { newsId: id, version: 1, kind: "submitted", actorId: actorIdOf(actor), at: now });
            await send("newsUpdated", { paths: storyPaths({ id, ...fields, ...terms }) });
          });
        } catch (error) {
          if (saved) await removeMediaQuietly(saved.id);
          throw error;
        }
        if (inReview(publication)) notify?.submitted(id, actorIdOf(actor));
        return { id, media: saved ? "saved" : "none", status: viewStatusOf(publication), publishedAt: publication.published_at, version: 1 };
      });
    },

    /**
     * Replaces the whole item (the form, PUT): absent optional fields take the spec's defaults. With `merge` (the
     * editor's "Salvar mesmo assim") and a `version` older than the saved one, only the fields changed from that
     * version are written (mergeSave).
     */
    async updateNews(id: string, input: NewsInput, file: UploadedFile | null, actor: Actor = null) {
      await bodyMediaChecked(input.body, file);
      if (input.merge && input.version !== undefined) return mergeSave(id, input, file, actor);
      return saveChanges({
        id,
        file,
        removeMedia: Boolean(input.removeMedia),
        publishing: input,
        actor,
        changes: () => columns(input),
        mediaText: mediaTextOf(input, true),
      });
    },

    /** Changes only the fields sent (PATCH); an empty fullContent, category or author takes its default. */
    async patchNews(id: string, patch: NewsPatch, file: UploadedFile | null, actor: Actor = null) {
      await bodyMediaChecked(patch.body, file);
      return saveChanges({
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
      if (typeof actor === "object" && actor !== null && !canPublish(actor.role)) {
        throw new RoleForbiddenError("restore_forbidden", t.roles.restoreForbidden);
      }
      const revision = await findRevision(db, id, revisionId);
      if (!revision) throw new NotFoundError("revision_not_found", t.revisions.notFound);
      const mediaKept = revision.media_id !== null && (await mediaExists(db, revision.media_id));
      return saveChanges({
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

    /**
     * "Devolver ao repórter": a story in review goes back to a draft (no longer in review), as a new version, with the
     * editor's note recorded (its history, the reporter's form) and mailed to the reporter after the commit. Editors
     * and admins only (403 `return_forbidden`); the note is required, at most REVIEW_NOTE_MAX characters (400 under
     * `note`); a story not in review is a 409 `not_in_review`; with `version`, a stale one is a 409 conflict.
     */
    async returnToReporter(id: string, note: string, actor: Actor, version?: number): Promise<SavedNews> {
      if (typeof actor === "object" && actor !== null && !canPublish(actor.role)) {
        throw new RoleForbiddenError("return_forbidden", t.review.returnForbidden);
      }
      const text = note.trim();
      if (!text) throw new FieldsError("note_required", { note: [t.review.noteRequired] });
      if ([...text].length > REVIEW_NOTE_MAX) throw new FieldsError("note_too_long", { note: [t.review.noteTooLong(REVIEW_NOTE_MAX)] });
      return saveChanges({
        id,
        file: null,
        removeMedia: false,
        publishing: { status: "draft", version },
        actor,
        changes: () => ({}),
        mediaText: {},
        returnNote: text,
      });
    },

    async setHighlight(id: string, highlighted: boolean): Promise<void> {
      return wrapFailure("news_update_failed", t.news.updateFailed, async () => {
        await events.withCommit(db, async (trx, send) => {
          if (!(await setNewsHighlight(trx, id, highlighted, clock().toISOString()))) throw new NotFoundError("news_not_found", t.news.notFound);
          await send("newsUpdated", { paths: storyPaths({ id }) });
        });
      });
    },

    /** A bulk action of the newsroom's list (news-bulk.server.ts). */
    bulkAction(action: BulkAction, ids: readonly string[], actor: Actor): Promise<BulkResult> {
      return runBulkAction({ db, events, log, clock, notify, removeMedia: removeMediaQuietly }, action, ids, actor);
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

    async deleteNews(id: string, actor: Actor = null): Promise<void> {
      return wrapFailure("news_delete_failed", t.news.deleteFailed, async () => {
        const existing = await findNewsRow(db, id);
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        requireReporterMayChange(actor, existing, true);
        // The item and its revisions go together. Deleted by someone else in between: nothing of ours to clean up,
        // and the caller is told.
        await events.withCommit(db, async (trx, send) => {
          await deleteRevisionsOf(trx, id);
          await deleteReviewEventsOf(trx, [id]);
          // Its autosaves too (the foreign key would; said here so the rule does not rest on the database alone).
          await deleteNewsAutosave(trx, id, null);
          if (!(await deleteNewsRow(trx, id))) throw new NotFoundError("news_not_found", t.news.notFound);
          await send("newsUpdated", { paths: storyPaths(existing) });
        });
        if (existing.media_id) await removeMediaQuietly(existing.media_id);
      });
    },
  };
}

export type NewsEditor = ReturnType<typeof createNewsEditor>;
