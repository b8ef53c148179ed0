import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import { type SponsorFields, sponsorFieldsSchema } from "#app/lib/sponsor-schema.ts";
import { fieldErrorsOf } from "#app/lib/zod.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, FieldsError, NotFoundError, wrapFailure } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { MediaService } from "#app/.server/media/media.service.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { requireStoreFor, storedOrRefused } from "#app/.server/storage/store-unavailable.server.ts";
import {
  deleteSponsorRow,
  findSponsorMedia,
  insertSponsor,
  nextSponsorPosition,
  orderedSponsorIds,
  renumberSponsors,
  updateSponsor,
} from "./sponsors.queries.server.ts";

export interface SponsorEditorDeps {
  db: Kysely<Database>;
  media: Pick<MediaService, "saveUpload" | "deleteMedia">;
  store: Pick<MediaStore, "isConnected" | "name">;
  events: Pick<EventBus, "publish">;
  log: Logger;
  clock?: () => Date;
}

/** A sponsor's fields checked by the shared schema, or a 400 naming each field's problem (pt-BR). */
export function parseSponsorFields(fields: Record<string, string | undefined>): SponsorFields {
  const result = sponsorFieldsSchema.safeParse(fields);
  if (!result.success) throw new FieldsError("validation_failed", fieldErrorsOf(result.error) as Record<string, string[]>);
  return result.data;
}

/** Adding, editing, reordering and removing sponsors. Every change fires `sponsorsUpdated`. */
export function createSponsorEditor({ db, media, store, events, log, clock = () => new Date() }: SponsorEditorDeps) {
  return {
    /** A new sponsor at the end of the list, from its logo and its fields (checked before the file is stored). */
    async addSponsor(file: UploadedFile | null, fields: Record<string, string | undefined>): Promise<{ id: string }> {
      return wrapFailure("sponsor_add_failed", t.sponsors.addFailedPrefix, async () => {
        let input: SponsorFields;
        try {
          // A logo that cannot be stored now is refused first, with the store's message (the fields can wait).
          if (file) await requireStoreFor(store, "sponsor");
          input = parseSponsorFields(fields);
          if (!file) throw new AppError("sponsor_image_required", t.sponsors.imageRequired, 400);
          if (file.kind !== "image") throw new AppError("upload_invalid_type", t.sponsors.imageOnly, 415);
        } catch (error) {
          await file?.cleanup();
          throw error;
        }
        const saved = await storedOrRefused(store, "sponsor", () => media.saveUpload(file));
        const id = randomUUID();
        try {
          await db.transaction().execute(async (trx) => {
            await insertSponsor(trx, {
              id,
              media_id: saved.id,
              created_at: clock().toISOString(),
              name: input.name,
              link: input.link,
              position: await nextSponsorPosition(trx),
              active_from: input.activeFrom,
              active_until: input.activeUntil,
            });
          });
        } catch (error) {
          await media.deleteMedia(saved.id).catch(() => undefined);
          throw error;
        }
        await events.publish("sponsorsUpdated");
        return { id };
      });
    },

    /** Changes a sponsor's name, link and window (the logo stays). */
    async updateSponsor(id: string, fields: Record<string, string | undefined>): Promise<void> {
      return wrapFailure("sponsor_update_failed", t.sponsors.updateFailedPrefix, async () => {
        const input = parseSponsorFields(fields);
        const found = await updateSponsor(db, id, {
          name: input.name,
          link: input.link,
          active_from: input.activeFrom,
          active_until: input.activeUntil,
        });
        if (!found) throw new NotFoundError("sponsor_not_found", t.sponsors.notFound);
        await events.publish("sponsorsUpdated");
      });
    },

    /** Moves a sponsor to `position` (1 = first; beyond the ends means the end); returns where it landed. */
    async moveSponsor(id: string, position: number): Promise<{ position: number }> {
      return wrapFailure("sponsor_update_failed", t.sponsors.updateFailedPrefix, async () => {
        if (!Number.isSafeInteger(position)) throw new FieldsError("validation_failed", { position: [t.sponsors.positionInvalid] });
        const landed = await db.transaction().execute(async (trx) => {
          const ids = await orderedSponsorIds(trx);
          const from = ids.indexOf(id);
          if (from < 0) throw new NotFoundError("sponsor_not_found", t.sponsors.notFound);
          const to = Math.min(Math.max(position, 1), ids.length) - 1;
          ids.splice(from, 1);
          ids.splice(to, 0, id);
          await renumberSponsors(trx, ids);
          return to + 1;
        });
        await events.publish("sponsorsUpdated");
        return { position: landed };
      });
    },

    async deleteSponsor(id: string): Promise<void> {
      return wrapFailure("sponsor_delete_failed", t.sponsors.deleteFailedPrefix, async () => {
        const mediaId = await db.transaction().execute(async (trx) => {
          const existing = await findSponsorMedia(trx, id);
          if (!existing) throw new NotFoundError("sponsor_not_found", t.sponsors.notFound);
          if (!(await deleteSponsorRow(trx, id))) throw new NotFoundError("sponsor_not_found", t.sponsors.notFound);
          await renumberSponsors(trx, await orderedSponsorIds(trx));
          return existing.media_id;
        });
        try {
          await media.deleteMedia(mediaId);
        } catch (error) {
          log.warn({ err: error }, "sponsor media removal failed; the orphan sweeper will retry");
        }
        await events.publish("sponsorsUpdated");
      });
    },
  };
}

export type SponsorEditor = ReturnType<typeof createSponsorEditor>;
