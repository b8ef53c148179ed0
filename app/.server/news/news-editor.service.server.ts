import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { t } from "../../i18n/pt-BR.ts";
import { missingImageDescription, type NewsInput, type NewsPatch } from "../../lib/news-schema.ts";
import type { Database } from "../db/schema.ts";
import { AppError, FieldsError, NotFoundError, wrapFailure } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Logger } from "../logger.server.ts";
import type { MediaService } from "../media/media.service.server.ts";
import type { UploadedFile } from "../media/upload.server.ts";
import type { MediaStore } from "../storage/media-store.ts";
import { canonicalNewsTerms, canonicalTerm } from "./taxonomy.server.ts";

export interface NewsEditorDeps {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  store: Pick<MediaStore, "isConnected">;
  events: Pick<EventBus, "publish">;
  log: Logger;
  defaultAuthor: string;
  clock?: () => Date;
}

/**
 * The columns of a news item from checked input, with the original's defaults: fullContent is the subtitle, the
 * category 'Geral' and the author the newsroom (also used by the Firestore import).
 */
export function newsColumns(input: NewsInput, defaultAuthor: string) {
  return {
    title: input.title,
    subtitle: input.subtitle,
    full_content: input.fullContent?.trim() ? input.fullContent : input.subtitle,
    category: input.category?.trim() || t.news.defaultCategory,
    author: input.author?.trim() || defaultAuthor,
    is_highlighted: input.isHighlighted ? 1 : 0,
  };
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
export function createNewsEditor({ db, media, store, events, log, defaultAuthor, clock = () => new Date() }: NewsEditorDeps) {
  const columns = (input: NewsInput) => newsColumns(input, defaultAuthor);

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
   * the item still exists: an item deleted meanwhile is a 404, and the media just stored for it is removed at once
   * (not left to the sweeper). The media it replaced goes after the row is saved.
   */
  async function saveChanges(
    id: string,
    file: UploadedFile | null,
    removeMedia: boolean,
    changes: (existing: { subtitle: string }) => Partial<ReturnType<typeof columns>>,
    mediaText: MediaText,
  ): Promise<{ id: string; media: MediaOutcome }> {
    return wrapFailure("news_update_failed", "Falha ao atualizar notícia", async () => {
      const existing = await db.selectFrom("news").select(["id", "media_id", "subtitle"]).where("id", "=", id).executeTakeFirst();
      if (!existing) {
        await file?.cleanup();
        throw new NotFoundError("news_not_found", t.news.notFound);
      }
      await requireImageDescription(file, mediaText.description);
      try {
        await requireConnectedStore();
      } catch (error) {
        await file?.cleanup();
        throw error;
      }
      const now = clock().toISOString();
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
        const result = await db
          .updateTable("news")
          .set({ ...patch, media_id: mediaId, updated_at: now })
          .where("id", "=", id)
          .executeTakeFirst();
        updated = result.numUpdatedRows;
      } catch (error) {
        if (saved) await removeMediaQuietly(saved.id);
        throw error;
      }
      if (updated === 0n) {
        if (saved) await removeMediaQuietly(saved.id);
        throw new NotFoundError("news_not_found", t.news.notFound);
      }
      if (existing.media_id && existing.media_id !== mediaId) await removeMediaQuietly(existing.media_id);
      await events.publish("newsUpdated");
      return { id, media: saved ? "new" : mediaId ? "existing" : "none" };
    });
  }

  return {
    async createNews(input: NewsInput, file: UploadedFile | null): Promise<{ id: string; media: MediaOutcome }> {
      return wrapFailure("news_create_failed", "Falha ao adicionar notícia", async () => {
        const text = mediaTextOf(input, true);
        await requireImageDescription(file, text.description);
        await requireConnectedStore();
        const now = clock().toISOString();
        const fields = columns(input);
        const terms = await canonicalNewsTerms(db, fields, now);
        const saved = file ? await media.saveUpload(file) : null;
        const id = randomUUID();
        try {
          if (saved) await db.updateTable("media").set(text).where("id", "=", saved.id).execute();
          await db
            .insertInto("news")
            .values({ id, ...fields, ...terms, media_id: saved?.id ?? null, created_at: now, updated_at: now })
            .execute();
        } catch (error) {
          if (saved) await removeMediaQuietly(saved.id);
          throw error;
        }
        await events.publish("newsUpdated");
        return { id, media: saved ? "saved" : "none" };
      });
    },

    /** Replaces the whole item (the form, PUT): absent optional fields take the spec's defaults. */
    async updateNews(id: string, input: NewsInput, file: UploadedFile | null): Promise<{ id: string; media: MediaOutcome }> {
      return saveChanges(id, file, Boolean(input.removeMedia), () => columns(input), mediaTextOf(input, true));
    },

    /** Changes only the fields sent (PATCH); an empty fullContent, category or author takes its default. */
    async patchNews(id: string, patch: NewsPatch, file: UploadedFile | null): Promise<{ id: string; media: MediaOutcome }> {
      return saveChanges(id, file, patch.removeMedia === true, (existing) => {
        const changes: Partial<ReturnType<typeof columns>> = {};
        if (patch.title !== undefined) changes.title = patch.title;
        if (patch.subtitle !== undefined) changes.subtitle = patch.subtitle;
        if (patch.fullContent !== undefined) changes.full_content = patch.fullContent.trim() ? patch.fullContent : (patch.subtitle ?? existing.subtitle);
        if (patch.category !== undefined) changes.category = patch.category.trim() || t.news.defaultCategory;
        if (patch.author !== undefined) changes.author = patch.author.trim() || defaultAuthor;
        if (patch.isHighlighted !== undefined) changes.is_highlighted = patch.isHighlighted ? 1 : 0;
        return changes;
      }, mediaTextOf(patch, false));
    },

    async setHighlight(id: string, highlighted: boolean): Promise<void> {
      return wrapFailure("news_update_failed", "Falha ao atualizar notícia", async () => {
        const result = await db
          .updateTable("news")
          .set({ is_highlighted: highlighted ? 1 : 0, updated_at: clock().toISOString() })
          .where("id", "=", id)
          .executeTakeFirst();
        if (!Number(result.numUpdatedRows)) throw new NotFoundError("news_not_found", t.news.notFound);
        await events.publish("newsUpdated");
      });
    },

    async deleteNews(id: string): Promise<void> {
      return wrapFailure("news_delete_failed", "Falha ao deletar notícia", async () => {
        const existing = await db.selectFrom("news").select(["id", "media_id"]).where("id", "=", id).executeTakeFirst();
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        const deleted = await db.deleteFrom("news").where("id", "=", id).executeTakeFirst();
        // Deleted by someone else in between: nothing of ours to clean up, and the caller is told.
        if (deleted.numDeletedRows === 0n) throw new NotFoundError("news_not_found", t.news.notFound);
        if (existing.media_id) await removeMediaQuietly(existing.media_id);
        await events.publish("newsUpdated");
      });
    },
  };
}

export type NewsEditor = ReturnType<typeof createNewsEditor>;
