import type { AppServices } from "#app/.server/app.server.ts";
import { type SectionSetting, replaceSectionSettings } from "./section-settings.queries.server.ts";
import type { SectionRow } from "./taxonomy.server.ts";

/** A category in use as the admin's page shows it: its volume, its place and whether readers see it. */
export interface ArrangedSection extends SectionRow {
  position: number | null;
  hidden: boolean;
}

/**
 * The section menu's order: the categories the admin placed (position 1, 2, …), then the others by volume (the
 * order `byVolume` comes in); hidden ones last, or left out unless `includeHidden` (the admin's page lists them).
 */
export function arrangeSections(byVolume: readonly SectionRow[], settings: readonly SectionSetting[], includeHidden = false): ArrangedSection[] {
  const bySlug = new Map(settings.map((setting) => [setting.slug, setting]));
  const arranged = byVolume.map((row, volumeRank) => {
    const setting = bySlug.get(row.slug);
    return { row: { ...row, position: setting?.position ?? null, hidden: setting?.hidden ?? false }, volumeRank };
  });
  const rank = (entry: (typeof arranged)[number]) => [entry.row.hidden ? 1 : 0, entry.row.position ?? Number.MAX_SAFE_INTEGER, entry.volumeRank];
  arranged.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  });
  return arranged.map((entry) => entry.row).filter((row) => includeHidden || !row.hidden);
}

/**
 * Saves the admin's arrangement and tells every instance (the section menu and the pages are re-read, as after a
 * story's change: `newsUpdated`, in the save's transaction). Logged with who did it.
 */
export async function saveSectionArrangement(
  { database, events, log }: Pick<AppServices, "database" | "events" | "log">,
  adminId: string,
  settings: readonly SectionSetting[],
): Promise<void> {
  await events.withCommit(database.db, async (trx, send) => {
    await replaceSectionSettings(trx, settings, adminId, new Date().toISOString());
    await send("newsUpdated");
  });
  log.info({ adminId, sections: settings.filter((s) => s.position !== null || s.hidden) }, "section menu arranged");
}
