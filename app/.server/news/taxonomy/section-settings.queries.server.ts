import type { Kysely } from "kysely";
import type { Database } from "#app/.server/db/schema.ts";

/** One category as an admin arranged it in the section menu. */
export interface SectionSetting {
  slug: string;
  /** 1, 2, …: before the categories without one; null: by volume. */
  position: number | null;
  hidden: boolean;
}

/** Every arranged category (the others are shown, by volume). */
export async function findSectionSettings(db: Kysely<Database>): Promise<SectionSetting[]> {
  const rows = await db.selectFrom("section_settings").select(["slug", "position", "hidden"]).execute();
  return rows.map((row) => ({ slug: row.slug, position: row.position === null ? null : Number(row.position), hidden: Number(row.hidden) === 1 }));
}

/** Replaces the whole arrangement (one save of /secoes), inside the caller's transaction. */
export async function replaceSectionSettings(db: Kysely<Database>, settings: readonly SectionSetting[], by: string, now: string): Promise<void> {
  await db.deleteFrom("section_settings").execute();
  const rows = settings
    .filter((setting) => setting.position !== null || setting.hidden)
    .map((setting) => ({ slug: setting.slug, position: setting.position, hidden: setting.hidden ? 1 : 0, updated_at: now, updated_by: by }));
  if (rows.length > 0) await db.insertInto("section_settings").values(rows).execute();
}
