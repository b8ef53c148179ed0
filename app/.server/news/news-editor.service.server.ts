import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { t } from "../../i18n/pt-BR.ts";
import type { NewsInput } from "../../lib/news-schema.ts";
import type { Database } from "../db/schema.ts";
import { AppError, NotFoundError, wrapFailure } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Logger } from "../logger.server.ts";
import type { MediaService } from "../media/media.service.server.ts";
import type { UploadedFile } from "../media/upload.server.ts";
import type { MediaStore } from "../storage/media-store.ts";

export interface NewsEditorDeps {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  store: Pick<MediaStore, "isConnected">;
  events: Pick<EventBus, "publish">;
  log: Logger;
  defaultAuthor: string;
  clock?: () => Date;
}

/** What happened to the media of a saved news item (drives the success message). */
export type MediaOutcome = "saved" | "new" | "existing" | "none";

/**
 * Writing news: create, update (with media replacement), delete. Media is stored first and the record written
 * after; if the record fails the new media is removed again. Replaced or deleted media is removed after the record
 * is saved (a failure there is logged and left to the orphan sweeper). Every change fires `newsUpdated`.
 */
export function createNewsEditor({ db, media, store, events, log, defaultAuthor, clock = () => new Date() }: NewsEditorDeps) {
  function columns(input: NewsInput) {
    return {
      title: input.title,
      subtitle: input.subtitle,
      full_content: input.fullContent?.trim() ? input.fullContent : input.subtitle,
      category: input.category?.trim() || t.news.defaultCategory,
      author: input.author?.trim() || defaultAuthor,
      is_highlighted: input.isHighlighted ? 1 : 0,
    };
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

  return {
    async createNews(input: NewsInput, file: UploadedFile | null): Promise<{ id: string; media: MediaOutcome }> {
      return wrapFailure("news_create_failed", "Falha ao adicionar notícia", async () => {
        await requireConnectedStore();
        const saved = file ? await media.saveUpload(file) : null;
        const id = randomUUID();
        const now = clock().toISOString();
        try {
          await db
            .insertInto("news")
            .values({ id, ...columns(input), media_id: saved?.id ?? null, created_at: now, updated_at: now })
            .execute();
        } catch (error) {
          if (saved) await removeMediaQuietly(saved.id);
          throw error;
        }
        await events.publish("newsUpdated");
        return { id, media: saved ? "saved" : "none" };
      });
    },

    async updateNews(id: string, input: NewsInput, file: UploadedFile | null): Promise<{ id: string; media: MediaOutcome }> {
      return wrapFailure("news_update_failed", "Falha ao atualizar notícia", async () => {
        await requireConnectedStore();
        const existing = await db.selectFrom("news").select(["id", "media_id"]).where("id", "=", id).executeTakeFirst();
        if (!existing) throw new NotFoundError("news_not_found", t.news.notFound);
        const saved = file ? await media.saveUpload(file) : null;
        const mediaId = saved ? saved.id : input.removeMedia ? null : existing.media_id;
        try {
          await db
            .updateTable("news")
            .set({ ...columns(input), media_id: mediaId, updated_at: clock().toISOString() })
            .where("id", "=", id)
            .execute();
        } catch (error) {
          if (saved) await removeMediaQuietly(saved.id);
          throw error;
        }
        if (existing.media_id && existing.media_id !== mediaId) await removeMediaQuietly(existing.media_id);
        await events.publish("newsUpdated");
        return { id, media: saved ? "new" : mediaId ? "existing" : "none" };
      });
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
        await db.deleteFrom("news").where("id", "=", id).execute();
        if (existing.media_id) await removeMediaQuietly(existing.media_id);
        await events.publish("newsUpdated");
      });
    },
  };
}

export type NewsEditor = ReturnType<typeof createNewsEditor>;
