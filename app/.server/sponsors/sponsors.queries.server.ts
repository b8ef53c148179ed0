import type { Insertable, Kysely, Updateable } from "kysely";
import type { Database, SponsorsTable } from "#app/.server/db/schema.ts";
import { JOINED_MEDIA_COLUMNS } from "#app/.server/news/news.queries.server.ts";

/** The next position at the end of the list. */
export async function nextSponsorPosition(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("sponsors")
    .select((eb) => eb.fn.max("position").as("last"))
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export function insertSponsor(db: Kysely<Database>, row: Insertable<SponsorsTable>) {
  return db.insertInto("sponsors").values(row).execute();
}

/** Sets a sponsor's columns; returns whether there was such a sponsor. */
export async function updateSponsor(db: Kysely<Database>, id: string, changes: Updateable<SponsorsTable>): Promise<boolean> {
  const updated = await db.updateTable("sponsors").set(changes).where("id", "=", id).executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

export function findSponsorMedia(db: Kysely<Database>, id: string) {
  return db.selectFrom("sponsors").select(["id", "media_id"]).where("id", "=", id).executeTakeFirst();
}

/** Removes a sponsor's row; returns whether there was one. */
export async function deleteSponsorRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom("sponsors").where("id", "=", id).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Ids in display order (position, then creation, then id). */
export async function orderedSponsorIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("sponsors").select("id").orderBy("position").orderBy("created_at").orderBy("id").execute();
  return rows.map((row) => row.id);
}

/** Writes positions 1..n in `ids` order, touching only rows whose position changes. */
export async function renumberSponsors(db: Kysely<Database>, ids: string[]): Promise<void> {
  const current = new Map((await db.selectFrom("sponsors").select(["id", "position"]).execute()).map((row) => [row.id, Number(row.position)]));
  for (const [index, id] of ids.entries()) {
    if (current.get(id) !== index + 1) await updateSponsor(db, id, { position: index + 1 });
  }
}

/**
 * Sponsors with their logo's media columns, in display order; with `activeOn` (a calendar date, YYYY-MM-DD) only
 * those whose window holds that day.
 */
export function findSponsorsWithMedia(db: Kysely<Database>, activeOn: string | null) {
  let query = db
    .selectFrom("sponsors")
    .leftJoin("media", "media.id", "sponsors.media_id")
    .select([
      "sponsors.id",
      "sponsors.name",
      "sponsors.link",
      "sponsors.position",
      "sponsors.active_from",
      "sponsors.active_until",
      "sponsors.created_at",
      ...JOINED_MEDIA_COLUMNS,
    ]);
  if (activeOn !== null) {
    query = query
      .where((eb) => eb.or([eb("sponsors.active_from", "is", null), eb("sponsors.active_from", "<=", activeOn)]))
      .where((eb) => eb.or([eb("sponsors.active_until", "is", null), eb("sponsors.active_until", ">=", activeOn)]));
  }
  return query.orderBy("sponsors.position", "asc").orderBy("sponsors.created_at", "asc").orderBy("sponsors.id", "asc").execute();
}
