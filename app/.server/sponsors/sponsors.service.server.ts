import type { Kysely } from "kysely";
import type { SponsorView } from "../../lib/news-view.ts";
import { t } from "../../i18n/pt-BR.ts";
import type { Database } from "../db/schema.ts";
import { wrapFailure } from "../errors.ts";
import { toMediaView } from "../media/media.service.server.ts";
import { JOINED_MEDIA_COLUMNS } from "../news/news.queries.server.ts";
import type { MediaStore } from "../storage/media-store.ts";

export interface SponsorServiceDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "publicUrl">;
}

export function createSponsorService({ db, store }: SponsorServiceDeps) {
  return {
    /** Every sponsor, oldest first. */
    listSponsors(): Promise<SponsorView[]> {
      return wrapFailure("sponsors_list_failed", t.sponsors.listFailedPrefix, async () => {
        const rows = await db
          .selectFrom("sponsors")
          .leftJoin("media", "media.id", "sponsors.media_id")
          .select(["sponsors.id", "sponsors.created_at", ...JOINED_MEDIA_COLUMNS])
          .orderBy("sponsors.created_at", "asc")
          .orderBy("sponsors.id", "asc")
          .execute();
        return rows.map((row) => ({ id: row.id, createdAt: row.created_at, image: toMediaView(row, store) }));
      });
    },
  };
}

export type SponsorService = ReturnType<typeof createSponsorService>;
