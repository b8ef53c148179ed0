import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { t } from "../../i18n/pt-BR.ts";
import { missingImageDescription, type NewsInput, type NewsPatch } from "../../lib/news-schema.ts";
import type { Insertable, Selectable } from "kysely";
import type { Database, NewsRevisionsTable, NewsStatus, NewsTable } from "../db/schema.ts";
import { parsePublishAt } from "../../lib/zoned-time.ts";
import { AppError, FieldsError, NotFoundError, wrapFailure } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Logger } from "../logger.server.ts";
import type { MediaService } from "../media/media.service.server.ts";
import type { UploadedFile } from "../media/upload.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { canonicalNewsTerms, canonicalTerm } from "./taxonomy.server.ts";
import { bodyColumns, type NewsContentColumns, newsContentColumns, toNewsConflictCurrent } from "./news-rows.server.ts";
import type { RichDoc } from "../../lib/rich-text.ts";
import { isEmptyDoc, plainTextToDoc } from "../../lib/rich-text-plain.ts";
import type { NewsConflictCurrent } from "../../lib/news-view.ts";

export interface NewsEditorDeps {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  store: Pick<MediaStore, "isConnected">;
  events: Pick<EventBus, "publish">;
  log: Logger;
  defaultAuthor: string;
  /** The site's time zone: a schedule without a zone ("2026-11-25T10:00") is on its clock. */
  timeZone: string;
  clock?: () => Date;
}

/** What a save says about publishing: the status wanted, the schedule, and the version the editor started from. */
export interface PublishingInput {
  status?: NewsStatus | undefined;
  publishAt?: string | undefined;
  version?: number | undefined;
}

/**
 * A save based on an older version than the saved one (someone else saved in between): a 409 with a stable code,
 * carrying what is saved now so the editor can see what changed, reload, or overwrite on purpose.
 */
export class NewsConflictError extends AppError {
  override name = "NewsConflictError";
  readonly current: NewsConflictCurrent;
  constructor(current: NewsConflictCurrent) {
    super("news_version_conflict", t.newsForm.conflict, 409);
    this.current = current;
  }
}

/**
 * The body of checked input: the structured `body` when it has text, else the plain `fullContent` (a blank line
 * between paragraphs), else the subtitle (the original's default).
 */
export function bodyOfInput(input: { body?: RichDoc | undefined; fullContent?: string | undefined }, subtitle: string): RichDoc {
  if (input.body && !isEmptyDoc(input.body)) return input.body;
  return plainTextToDoc(input.fullContent?.trim() ? input.fullContent : subtitle);
}

/**
 * The columns of a news item from checked input, with the original's defaults: the body is the subtitle, the
 * category 'Geral' and the author the newsroom (also used by the Firestore import).
 */
export function newsColumns(input: NewsInput, defaultAuthor: string): NewsContentColumns {
  return newsContentColumns({
    title: input.title,
    subtitle: input.subtitle,
    fullContent: "",
    body: bodyOfInput(input, input.subtitle),
    category: input.category?.trim() || t.news.defaultCategory,
    author: input.author?.trim() || defaultAuthor,
    isHighlighted: Boolean(input.isHighlighted),
  });
}

/** The description, caption and credit of a news item's media: a text, null to clear, absent to leave as it is. */
export interface MediaText {
  description?: string | null;
  caption?: string | null;
  credit?: string | null;
}

/** The media text of checked input: every field (a whole item) or only those sent (a PATCH). Blank clears. */
function mediaTextOf(input: { mediaDescription?: string; mediaCaption?: string; mediaCredit?: string }, whole: boolean): MediaText {
  const value = (text: string | undefined) => (text === undefined ? (whole ? null : undefined) : text.trim() || null);
  const result: MediaText = {};
  for (const [key, text] of [
    ["description", input.mediaDescription],
    ["caption", input.mediaCaption],
    ["credit", input.mediaCredit],
  ] as const) {
    const next = value(text);
    if (next !== undefined) result[key] = next;
  }
  return result;
}

/** A new image without a description is refused before anything is stored (its temporary file removed). */
async function requireImageDescription(file: UploadedFile | null, description: string | null | undefined) {
  const message = missingImageDescription(file?.kind === "image", description ?? undefined);
  if (!message) return;
  await file?.cleanup();
  throw new FieldsError("media_description_required", { mediaDescription: [message] });
}

/** What happened to the media of a saved news item (drives the success message). */
export type MediaOutcome = "saved" | "new" | "existing" | "none";

/**
 * Writing news: create, update (with media replacement), delete. Media is stored first and the record written
 * after; if the record fails the new media is removed again. Replaced or deleted media is removed after the record
 * is saved (a failure there is logged and left to the orphan sweeper). Every change fires `newsUpdated`.
 */
export function createNewsEditor({ db, media, store, events, log, defaultAuthor, timeZone, clock = () => new Date() }: NewsEditorDeps) {
  const columns = (input: NewsInput) => newsColumns(input, defaultAuthor);

  /** The instant of a schedule: refused when missing, not a date, or not in the future. */
  function scheduledTime(publishAt: string | undefined): string {
    if (!publishAt) throw new AppError("publish_at_required", t.newsForm.publishAtRequired, 400);
    const when = parsePublishAt(publishAt, timeZone);
    if (!when) throw new AppError("invalid_publish_at", t.newsForm.invalidPublishAt, 400);
    if (when.getTime() <= clock().getTime()) throw new AppError("publish_at_past", t.newsForm.publishAtPast, 400);
    return when.toISOString();
  }

  /**
   * The status and publication date after a save. Publishing keeps the date of an item already published (an edit
   * is not a new publication) and is "now" otherwise; a schedule takes its time (a scheduled item edited without a
   * new time keeps its own); a draft's date is when it became one (its place in the admin list).
   */
  function publicationAfter(existing: { status: NewsStatus; published_at: string } | null, input: PublishingInput, now: string) {
    const status = input.status ?? existing?.status ?? "published";
    if (status === "scheduled") {
      const keep = existing?.status === "scheduled" && !input.publishAt;
      return { status, published_at: keep ? existing.published_at : scheduledTime(input.publishAt) };
    }
    return { status, published_at: existing?.status === status ? existing.published_at : now };
  }

  function revisionOf(row: Selectable<NewsTable>): Insertable<NewsRevisionsTable> {
    return {
      id: randomUUID(),
      news_id: row.id,
      version: row.version,
      title: row.title,
      subtitle: row.subtitle,
      full_content: row.full_content,
      body: row.body,
      category: row.category,
      author: row.author,
      is_highlighted: row.is_highlighted,
      media_id: row.media_id,
      saved_by: row.updated_by,
      saved_at: row.updated_at,
    };
  }

  async function currentOf(id: string): Promise<NewsConflictCurrent | null> {
    const row = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toNewsConflictCurrent(row) : null;
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
   * Saves changes to an existing item: the new media (if any) first, then the row. The UPDATE itself says whether
   * the item still exists and is still the version the change was based on: an item deleted meanwhile is a 404, one
   * saved by someone else meanwhile a conflict (409), and in both cases the media just stored for it is removed at
   * once (not left to the sweeper). The media it replaced goes after the row is saved. Every save adds one to the
   * version.
   */
  async function saveChanges(
    id: string,
    file: UploadedFile | null,
    removeMedia: boolean,
    publishing: PublishingInput,
    actor: string | null,
    changes: (existing: { subtitle: string }) => Partial<ReturnType<typeof columns>>,
    mediaText: MediaText,
  ): Promise<{ id: string; media: MediaOutcome; status: NewsStatus; publishedAt: string; version: number }> {
    return wrapFailure("news_update_failed", t.news.updateFailed, async () => {
      const existing = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirst();
      let publication: ReturnType<typeof publicationAfter>;
      const now = clock().toISOString();
      try {
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        if (publishing.version !== undefined && publishing.version !== existing.version) {
          const current = await currentOf(id);
          if (!current) throw new NotFoundError("news_not_found", t.news.notFound);
          throw new NewsConflictError(current);
        }
        publication = publicationAfter(existing, publishing, now);
        await requireImageDescription(file, mediaText.description);
        await requireConnectedStore();
      } catch (error) {
        await file?.cleanup();
        throw error;
      }
      const patch: Record<string, unknown> = { ...changes(existing) };
      // A category or author is shown in the spelling first used for it ("volei" becomes "Vôlei").
      for (const kind of ["category", "author"] as const) {
        const name = patch[kind];
        if (typeof name !== "string") continue;
        const term = await canonicalTerm(db, kind, name, now);
        patch[kind] = term.name;
        patch[`${kind}_slug`] = term.slug;
      }
      const saved = file ? await media.saveUpload(file) : null;
      const mediaId = saved ? saved.id : removeMedia ? null : existing.media_id;
      let updated: bigint;
      try {
        // The text goes with the media the item ends with (the new file, or the one it keeps).
        if (mediaId && Object.keys(mediaText).length > 0) await db.updateTable("media").set(mediaText).where("id", "=", mediaId).execute();
        // The version being replaced becomes a revision, in the same transaction as the save that replaces it.
        updated = await db.transaction().execute(async (trx) => {
          const result = await trx
            .updateTable("news")
            .set({ media_id: mediaId, ...patch, ...publication, updated_at: now, updated_by: actor, version: existing.version + 1 })
            .where("id", "=", id)
            .where("version", "=", existing.version)
            .executeTakeFirst();
          if (result.numUpdatedRows > 0n) await trx.insertInto("news_revisions").values(revisionOf(existing)).execute();
          return result.numUpdatedRows;
        });
      } catch (error) {
        if (saved) await removeMediaQuietly(saved.id);
        throw error;
      }
      if (updated === 0n) {
        if (saved) await removeMediaQuietly(saved.id);
        // Saved by someone else between our read and our write, or deleted.
        const current = await currentOf(id);
        if (current) throw new NewsConflictError(current);
        throw new NotFoundError("news_not_found", t.news.notFound);
      }
      // The media it replaced stays: the revision just kept refers to it (and can be restored with it).
      await events.publish("newsUpdated");
      return {
        id,
        media: saved ? "new" : mediaId ? "existing" : "none",
        status: publication.status,
        publishedAt: publication.published_at,
        version: existing.version + 1,
      };
    });
  }

  return {
    /** A new item: published now unless `status` says draft or scheduled (with `publishAt`). */
    async createNews(
      input: NewsInput,
      file: UploadedFile | null,
      actor: string | null = null,
    ): Promise<{ id: string; media: MediaOutcome; status: NewsStatus; publishedAt: string; version: number }> {
      return wrapFailure("news_create_failed", t.news.createFailed, async () => {
        const text = mediaTextOf(input, true);
        const now = clock().toISOString();
        let publication: ReturnType<typeof publicationAfter>;
        try {
          publication = publicationAfter(null, input, now);
          await requireImageDescription(file, text.description);
          await requireConnectedStore();
        } catch (error) {
          await file?.cleanup();
          throw error;
        }
        const fields = columns(input);
        const terms = await canonicalNewsTerms(db, fields, now);
        const saved = file ? await media.saveUpload(file) : null;
        const id = randomUUID();
        try {
          if (saved) await db.updateTable("media").set(text).where("id", "=", saved.id).execute();
          await db
            .insertInto("news")
            .values({
              id,
              ...fields,
              ...terms,
              ...publication,
              version: 1,
              media_id: saved?.id ?? null,
              created_at: now,
              updated_at: now,
              updated_by: actor,
            })
            .execute();
        } catch (error) {
          if (saved) await removeMediaQuietly(saved.id);
          throw error;
        }
        await events.publish("newsUpdated");
        return { id, media: saved ? "saved" : "none", status: publication.status, publishedAt: publication.published_at, version: 1 };
      });
    },

    /** Replaces the whole item (the form, PUT): absent optional fields take the spec's defaults. */
    async updateNews(id: string, input: NewsInput, file: UploadedFile | null, actor: string | null = null) {
      return saveChanges(id, file, Boolean(input.removeMedia), input, actor, () => columns(input), mediaTextOf(input, true));
    },

    /** Changes only the fields sent (PATCH); an empty fullContent, category or author takes its default. */
    async patchNews(id: string, patch: NewsPatch, file: UploadedFile | null, actor: string | null = null) {
      return saveChanges(
        id,
        file,
        patch.removeMedia === true,
        patch,
        actor,
        (existing) => {
          const changes: Partial<ReturnType<typeof columns>> = {};
          if (patch.title !== undefined) changes.title = patch.title;
          if (patch.subtitle !== undefined) changes.subtitle = patch.subtitle;
          if (patch.body !== undefined || patch.fullContent !== undefined)
            Object.assign(changes, bodyColumns(bodyOfInput(patch, patch.subtitle ?? existing.subtitle)));
          if (patch.category !== undefined) changes.category = patch.category.trim() || t.news.defaultCategory;
          if (patch.author !== undefined) changes.author = patch.author.trim() || defaultAuthor;
          if (patch.isHighlighted !== undefined) changes.is_highlighted = patch.isHighlighted ? 1 : 0;
          return changes;
        },
        mediaTextOf(patch, false),
      );
    },

    /**
     * Brings back an older version's texts, category, author, highlight and media, as a new version (the one it
     * replaces is kept as a revision too). The status and publication date stay as they are.
     */
    async restoreRevision(id: string, revisionId: string, actor: string | null, version?: number) {
      const revision = await db.selectFrom("news_revisions").selectAll().where("id", "=", revisionId).where("news_id", "=", id).executeTakeFirst();
      if (!revision) throw new NotFoundError("revision_not_found", t.revisions.notFound);
      const media = revision.media_id ? await db.selectFrom("media").select("id").where("id", "=", revision.media_id).executeTakeFirst() : undefined;
      return saveChanges(
        id,
        null,
        !media,
        { version },
        actor,
        () => ({
          title: revision.title,
          subtitle: revision.subtitle,
          full_content: revision.full_content,
          body: revision.body,
          category: revision.category,
          author: revision.author,
          is_highlighted: revision.is_highlighted,
          ...(media ? { media_id: media.id } : {}),
        }),
        {},
      );
    },

    async setHighlight(id: string, highlighted: boolean): Promise<void> {
      return wrapFailure("news_update_failed", t.news.updateFailed, async () => {
        const result = await db
          .updateTable("news")
          .set((eb) => ({ is_highlighted: highlighted ? 1 : 0, updated_at: clock().toISOString(), version: eb("version", "+", 1) }))
          .where("id", "=", id)
          .executeTakeFirst();
        if (!Number(result.numUpdatedRows)) throw new NotFoundError("news_not_found", t.news.notFound);
        await events.publish("newsUpdated");
      });
    },

    async deleteNews(id: string): Promise<void> {
      return wrapFailure("news_delete_failed", t.news.deleteFailed, async () => {
        const existing = await db.selectFrom("news").select(["id", "media_id"]).where("id", "=", id).executeTakeFirst();
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        // The item and its revisions go together.
        const deleted = await db.transaction().execute(async (trx) => {
          await trx.deleteFrom("news_revisions").where("news_id", "=", id).execute();
          return trx.deleteFrom("news").where("id", "=", id).executeTakeFirst();
        });
        // Deleted by someone else in between: nothing of ours to clean up, and the caller is told.
        if (deleted.numDeletedRows === 0n) throw new NotFoundError("news_not_found", t.news.notFound);
        if (existing.media_id) await removeMediaQuietly(existing.media_id);
        await events.publish("newsUpdated");
      });
    },
  };
}

export type NewsEditor = ReturnType<typeof createNewsEditor>;
