import type { Kysely, Updateable } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import type { Database, NewsTable } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError, wrapFailure } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { checkBodyMedia } from "#app/.server/media/body-media.server.ts";
import { setMediaText } from "#app/.server/media/media.queries.server.ts";
import type { MediaService } from "#app/.server/media/media.service.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { requireStoreFor, storedOrRefused } from "#app/.server/storage/store-unavailable.server.ts";
import { withAuthorLink } from "./author-link.server.ts";
import { deleteNewsAutosave } from "./news-autosave.server.ts";
import {
  type Actor,
  actorIdOf,
  type ReporterRights,
  reporterColumns,
  reporterRights,
  requireReporterMayChange,
  requireReporterMayPublish,
} from "#app/.server/auth/permissions.server.ts";
import { type Publication, type PublishingInput, publicationAfter } from "#app/.server/news/publishing/news-publication.server.ts";
import { insertReviewEvent, type ReviewEventKind, type ReviewNotifier } from "#app/.server/news/publishing/news-review.server.ts";
import { insertRevision, revisionOf } from "./news-revisions.server.ts";
import { inReview, toNewsConflictCurrent, viewStatusOf } from "#app/.server/news/news-rows.server.ts";
import { type MediaText, NewsConflictError, requireImageDescription, reviewStepOf, type SavedNews } from "./news-save.server.ts";
import { findNewsRow, updateNewsAtVersion } from "#app/.server/news/news.queries.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";
import { teamPathsOf } from "#app/.server/news/taxonomy/teams.server.ts";
import { canonicalTerm } from "#app/.server/news/taxonomy/taxonomy.server.ts";

/*
 * The save every change of an existing story goes through (news-editor.service.server.ts: the form, PATCH, a
 * restore, "Salvar mesmo assim", "Devolver ao repórter"), and what the editor's operations share.
 */

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

/** The news editor's services, with its clock (the real one unless a test gives one). */
export type NewsEditorContext = NewsEditorDeps & { clock: () => Date };

/** One save of an existing item (see saveChanges). */
export interface ChangeRequest {
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

/** The answer to a save that found the item changed or gone: 409 with what is saved now, or 404. */
export async function conflictOrNotFound(db: Kysely<Database>, id: string): Promise<never> {
  const row = await findNewsRow(db, id);
  if (row) throw new NewsConflictError(toNewsConflictCurrent(row));
  throw new NotFoundError("news_not_found", t.news.notFound);
}

/**
 * A save that carries a new file needs the media store: when it cannot take files now, the save is refused (409
 * `storage_not_connected`, naming the store) before anything is written. A save without a file never asks the store.
 */
export async function requireStoreForFile(store: NewsEditorDeps["store"], file: UploadedFile | null) {
  if (file) await requireStoreFor(store, "newsFile");
}

/** Stores a save's new file; a store that stopped answering meanwhile refuses it as requireStoreForFile does. */
export function storeNewFile({ media, store }: Pick<NewsEditorDeps, "media" | "store">, file: UploadedFile | null) {
  return file ? storedOrRefused(store, "newsFile", () => media.saveUpload(file)) : Promise.resolve(null);
}

/**
 * How long a save or a delete waits for the removal of the media it let go before answering: a media store that
 * does not answer (S3 down, hung) must not hold a takedown. The removal goes on after the answer.
 */
const REMOVAL_WAIT_MS = 2_000;

/**
 * Removes media after a commit (or a failed save); a failure is logged and left to the orphan sweeper. Waits at most
 * REMOVAL_WAIT_MS: a removal still running then finishes (or fails, logged) after the caller has answered.
 */
export async function removeMediaQuietly({ media, log }: Pick<NewsEditorDeps, "media" | "log">, mediaId: string) {
  const removal = media.deleteMedia(mediaId).then(
    () => undefined,
    (error: unknown) => log.warn({ err: error, mediaId }, "media removal failed; the orphan sweeper will retry"),
  );
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, REMOVAL_WAIT_MS);
  });
  await Promise.race([removal, waited]);
  clearTimeout(timer);
}

/** The body's images are media items of our store (else a 400 under `body`, the uploaded file removed). */
export async function bodyMediaChecked({ db, store }: Pick<NewsEditorDeps, "db" | "store">, body: RichDoc | undefined, file: UploadedFile | null) {
  try {
    await checkBodyMedia(db, store, body);
  } catch (error) {
    await file?.cleanup();
    throw error;
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
export async function saveChanges(
  context: NewsEditorContext,
  { id, file, removeMedia, publishing, actor, changes, mediaText, returnNote }: ChangeRequest,
): Promise<SavedNews> {
  const { db, store, events, clock, notify } = context;
  return wrapFailure("news_update_failed", t.news.updateFailed, async () => {
    const existing = await findNewsRow(db, id);
    let publication: Publication;
    let rights: ReporterRights | null;
    const now = clock().toISOString();
    try {
      if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
      requireReporterMayChange(actor, existing);
      if (publishing.version !== undefined && publishing.version !== existing.version) await conflictOrNotFound(db, id);
      if (returnNote !== undefined && !inReview(existing)) throw new AppError("not_in_review", t.review.notInReview, 409);
      publication = publicationAfter(existing, publishing, now, context);
      rights = await reporterRights(db, actor);
      requireReporterMayPublish(actor, existing, publication, rights?.publishes);
      await requireImageDescription(file, mediaText.description);
      await requireStoreForFile(store, file);
    } catch (error) {
      await file?.cleanup();
      throw error;
    }
    const saved = await storeNewFile(context, file);
    const mediaId = saved ? saved.id : removeMedia ? null : existing.media_id;
    const step: ReviewEventKind | null = returnNote !== undefined ? "returned" : reviewStepOf(existing, publication, rights !== null);
    try {
      await events.withCommit(db, async (trx, send) => {
        // A reporter's save never sets the highlight nor signs as someone else (reporterColumns).
        const patch = await withCanonicalTerms(trx, reporterColumns(rights, changes(existing)), now, existing);
        // What readers read changed (not only the highlight, the category, the media): "Atualizado em" on the article.
        const textChanged = (["title", "subtitle", "full_content", "body"] as const).some((key) => key in patch && patch[key] !== existing[key]);
        // The text goes with the media the item ends with (the new file, or the one it keeps).
        if (mediaId && Object.keys(mediaText).length > 0) await setMediaText(trx, mediaId, mediaText);
        const updated = await updateNewsAtVersion(trx, id, existing.version, {
          media_id: mediaId,
          ...patch,
          ...publication,
          ...(textChanged ? { text_updated_at: now } : {}),
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
        if (step) await insertReviewEvent(trx, { newsId: id, version: existing.version + 1, kind: step, actorId: saver, note: returnNote, at: now });
        // Unpublished before and after: nothing readers see changed (only the newsroom's pages hear of it).
        const paths = [...storyPaths(existing, { ...existing, ...patch }), ...(await teamPathsOf(trx, [id]))];
        await send("newsUpdated", { paths, ...audienceOf(existing, publication) });
      });
    } catch (error) {
      if (saved) await removeMediaQuietly(context, saved.id);
      if (error instanceof StaleSave) await conflictOrNotFound(db, id);
      throw error;
    }
    if (step === "submitted") notify?.submitted(id, actorIdOf(actor));
    else if (step === "corrected" || step === "published_directly") notify?.changedByReporter(id, step, actorIdOf(actor), now);
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
