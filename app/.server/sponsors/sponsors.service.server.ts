import type { Kysely } from "kysely";
import type { SponsorView } from "#app/lib/news-view.ts";
import { calendarDateIn, isSponsorActive } from "#app/lib/sponsor-schema.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { wrapFailure } from "#app/.server/errors.ts";
import { memoUntilChanged } from "#app/.server/events/memo.server.ts";
import { toMediaView } from "#app/.server/media/media-view.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { findSponsorsWithMedia } from "./sponsors.queries.server.ts";

export interface SponsorServiceDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "publicUrl">;
  /** The site's time zone: a sponsor's window is in its calendar days. */
  timeZone: string;
  clock?: () => Date;
}

export function createSponsorService({ db, store, timeZone, clock = () => new Date() }: SponsorServiceDeps) {
  const load = async (today: string, includeInactive: boolean): Promise<SponsorView[]> => {
    const rows = await findSponsorsWithMedia(db, includeInactive ? null : today);
    return rows.map((row) => {
      const window = { activeFrom: row.active_from, activeUntil: row.active_until };
      return {
        id: row.id,
        name: row.name,
        link: row.link,
        position: Number(row.position),
        ...window,
        active: isSponsorActive(window, today),
        createdAt: row.created_at,
        image: toMediaView(row, store),
      };
    });
  };
  // Readers' list is in every page's footer: kept in memory for the day until a sponsor changes (`invalidate`).
  const readers = memoUntilChanged((today) => load(today, false));
  return {
    /**
     * Sponsors in display order (position, then creation). Readers' list (the default) has only those inside their
     * window today; the newsroom's (`includeInactive`) has all, each marked `active` or not.
     */
    listSponsors(options: { includeInactive?: boolean } = {}): Promise<SponsorView[]> {
      return wrapFailure("sponsors_list_failed", t.sponsors.listFailedPrefix, () => {
        const today = calendarDateIn(timeZone, clock());
        return options.includeInactive ? load(today, true) : readers.get(today);
      });
    },

    /** A sponsor changed (added, edited, reordered, removed): readers' next list is read again. */
    invalidate(): void {
      readers.invalidate();
    },
  };
}

export type SponsorService = ReturnType<typeof createSponsorService>;
