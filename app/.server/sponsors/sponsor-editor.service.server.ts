import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { t } from "../../i18n/pt-BR.ts";
import type { Database } from "../db/schema.ts";
import { AppError, NotFoundError, wrapFailure } from "../errors.ts";
import type { EventBus } from "../events/event-bus.ts";
import type { Logger } from "../logger.server.ts";
import type { MediaService } from "../media/media.service.server.ts";
import type { UploadedFile } from "../media/upload.server.ts";
import type { MediaStore } from "../storage/media-store.ts";

export interface SponsorEditorDeps {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  store: Pick<MediaStore, "isConnected">;
  events: Pick<EventBus, "publish">;
  log: Logger;
  clock?: () => Date;
}

/** Adding and removing sponsor logos. Every change fires `sponsorsUpdated`. */
export function createSponsorEditor({ db, media, store, events, log, clock = () => new Date() }: SponsorEditorDeps) {
  return {
    async addSponsor(file: UploadedFile | null): Promise<{ id: string }> {
      return wrapFailure("sponsor_add_failed", t.sponsors.addFailedPrefix, async () => {
        if (!(await store.isConnected())) throw new AppError("storage_not_connected", t.sponsors.driveRequired, 409);
        if (!file) throw new AppError("sponsor_image_required", t.sponsors.imageRequired, 400);
        if (file.kind !== "image") {
          await file.cleanup();
          throw new AppError("upload_invalid_type", t.sponsors.imageOnly, 415);
        }
        const saved = await media.saveUpload(file);
        const id = randomUUID();
        try {
          await db.insertInto("sponsors").values({ id, media_id: saved.id, created_at: clock().toISOString() }).execute();
        } catch (error) {
          await media.deleteMedia(saved.id).catch(() => undefined);
          throw error;
        }
        await events.publish("sponsorsUpdated");
        return { id };
      });
    },

    async deleteSponsor(id: string): Promise<void> {
      return wrapFailure("sponsor_delete_failed", t.sponsors.deleteFailedPrefix, async () => {
        const existing = await db.selectFrom("sponsors").select(["id", "media_id"]).where("id", "=", id).executeTakeFirst();
        if (!existing) throw new NotFoundError("sponsor_not_found", t.sponsors.notFound);
        const deleted = await db.deleteFrom("sponsors").where("id", "=", id).executeTakeFirst();
        if (deleted.numDeletedRows === 0n) throw new NotFoundError("sponsor_not_found", t.sponsors.notFound);
        try {
          await media.deleteMedia(existing.media_id);
        } catch (error) {
          log.warn({ err: error }, "sponsor media removal failed; the orphan sweeper will retry");
        }
        await events.publish("sponsorsUpdated");
      });
    },
  };
}

export type SponsorEditor = ReturnType<typeof createSponsorEditor>;
