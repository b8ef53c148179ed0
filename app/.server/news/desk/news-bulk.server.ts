import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import { NEWSROOM_BULK_MAX } from "#app/lib/limits.ts";
import type { BulkAction } from "#app/lib/newsroom-query.ts";
import type { Database, StoredNewsStatus } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError, wrapFailure } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { type Actor, actorIdOf, requireMayActInBulk } from "#app/.server/auth/permissions.server.ts";
import { republished } from "#app/.server/news/publishing/news-publication.server.ts";
import { deleteReviewEventsOf, insertReviewEvent, type ReviewNotifier } from "#app/.server/news/publishing/news-review.server.ts";
import { revisionOf } from "#app/.server/news/editor/news-revisions.server.ts";
import { inReview } from "#app/.server/news/news-rows.server.ts";
import { updateNewsAtVersion } from "#app/.server/news/news.queries.server.ts";
import { moveToTrash, restoreFromTrash } from "./news-trash.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";
import { teamPathsOf } from "#app/.server/news/taxonomy/teams.server.ts";

/** What a bulk action did: how many stories changed, and how many were already as asked (left alone). */
export interface BulkResult {
  changed: number;
  unchanged: number;
}

/** What a bulk action needs of the news editor's services. */
export interface BulkDeps {
  db: Kysely<Database>;
  events: Pick<EventBus, "withCommit">;
  log: Pick<Logger, "info">;
  clock: () => Date;
  notify?: ReviewNotifier | undefined;
  /** Removes a deleted story's media after the commit (a failure is logged and left to the orphan sweeper). */
  removeMedia(mediaId: string): Promise<void>;
}

/** Thrown inside the transaction when a row is no longer the version read (rolls everything back). */
class StaleSave extends Error {}

/**
 * A bulk action of the newsroom's list over `ids` (at most NEWSROOM_BULK_MAX), all or nothing: one transaction
 * over the selected stories, with one `newsUpdated` carrying every story's paths. If any id is not a story (deleted
 * meanwhile, made up), or one was saved by someone else between the read and the write, nothing changes and the
 * answer says so (404 / 409). Stories already in the wanted state are left alone (no new version) and counted apart.
 *
 * - `publish`: drafts and scheduled stories go live now (publication date: now, or the first one for a story that
 *   went out before: it returns to its place in lists).
 * - `unpublish`: published and scheduled stories become drafts (their date: now, as a draft's is).
 * - `delete`: the stories go to the Lixeira (moveToTrash): readers lose them at once, nothing else is lost.
 * - `restore` (the Lixeira's): they come out of it as drafts, same ids and links.
 * - `erase` (the Lixeira's, and the purge after TRASH_DAYS): the stories, their revisions and (after the commit)
 *   their media go for good.
 *
 * `restore` and `erase` take only stories in the Lixeira, the others only stories out of it (an id on the wrong side
 * is "not found", like a deleted one). Every change but `erase` is audited like a form's save: the version replaced
 * becomes a revision (with its status) and the new version names who did it, so each story's history says "Ana
 * publicou em …". Erasing takes the story's history with it: it is logged with who did it and the ids.
 */
export async function runBulkAction(deps: BulkDeps, action: BulkAction, ids: readonly string[], actor: Actor): Promise<BulkResult> {
  const { db, events, log, clock, notify } = deps;
  // Publishing, unpublishing, deleting, restoring and erasing anyone's stories: editors and admins only.
  requireMayActInBulk(actor, action);
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new AppError("bulk_empty", t.newsroom.noneSelected, 400);
  if (unique.length > NEWSROOM_BULK_MAX) throw new AppError("bulk_too_many", t.newsroom.tooMany, 400);
  const failure = action === "delete" || action === "erase" ? t.news.deleteFailed : t.news.updateFailed;
  const inTrash = action === "restore" || action === "erase";
  return wrapFailure("news_bulk_failed", failure, async () => {
    const now = clock().toISOString();
    const mediaToRemove: string[] = [];
    const approved: string[] = [];
    const result = await events
      .withCommit(db, async (trx, send) => {
        const rows = await trx
          .selectFrom("news")
          .selectAll()
          .where("id", "in", unique)
          .where("deleted_at", inTrash ? "is not" : "is", null)
          .execute();
        if (rows.length !== unique.length) throw new NotFoundError("news_not_found", t.newsroom.missing(unique.length - rows.length));
        const target: StoredNewsStatus | null = action === "publish" ? "published" : action === "unpublish" ? "draft" : null;
        const changing = target ? rows.filter((row) => row.status !== target) : rows;
        if (action === "delete") {
          if (!(await moveToTrash(trx, rows, actorIdOf(actor), now))) throw new StaleSave();
        } else if (action === "restore") {
          if (!(await restoreFromTrash(trx, rows, actorIdOf(actor), now))) throw new StaleSave();
        } else if (action === "erase") {
          await trx.deleteFrom("news_revisions").where("news_id", "in", unique).execute();
          await deleteReviewEventsOf(trx, unique);
          const deleted = await trx.deleteFrom("news").where("id", "in", unique).executeTakeFirst();
          if (Number(deleted.numDeletedRows) !== unique.length) throw new StaleSave();
          for (const row of rows) if (row.media_id) mediaToRemove.push(row.media_id);
        } else if (changing.length > 0 && target) {
          await trx.insertInto("news_revisions").values(changing.map(revisionOf)).execute();
          for (const row of changing) {
            const updated = await updateNewsAtVersion(trx, row.id, row.version, {
              status: target,
              // Published again: back at its first publication date (its place in lists), never "new" today.
              ...(target === "published" ? republished(row, now) : { published_at: now }),
              review_requested_at: null,
              updated_at: now,
              updated_by: actorIdOf(actor),
              version: row.version + 1,
            });
            if (updated === 0n) throw new StaleSave();
            // Publishing a story in review approves it (the history and the reporter's e-mail say so).
            if (target === "published" && inReview(row)) {
              await insertReviewEvent(trx, { newsId: row.id, version: row.version + 1, kind: "approved", actorId: actorIdOf(actor), at: now });
              approved.push(row.id);
            }
          }
        }
        // Publishing and unpublishing always concern readers; deleting only stories they never saw does not.
        if (changing.length > 0) {
          const paths = [
            ...storyPaths(...changing),
            ...(await teamPathsOf(
              trx,
              changing.map((row) => row.id),
            )),
          ];
          await send("newsUpdated", { paths, ...(target ? {} : audienceOf(...changing)) });
        }
        return { changed: changing.length, unchanged: rows.length - changing.length };
      })
      .catch((error: unknown) => {
        if (error instanceof StaleSave) throw new AppError("news_version_conflict", t.newsroom.conflict, 409);
        throw error;
      });
    for (const newsId of approved) notify?.decided(newsId, "approved", actorIdOf(actor));
    if (action === "delete") log.info({ actor: actorIdOf(actor), ids: unique }, "news moved to the trash");
    if (action === "restore") log.info({ actor: actorIdOf(actor), ids: unique }, "news restored from the trash");
    if (action === "erase") {
      log.info({ actor: actorIdOf(actor), ids: unique }, "news erased");
      for (const mediaId of mediaToRemove) await deps.removeMedia(mediaId);
    }
    return result;
  });
}
