/**
 * The `app_settings` table: one value per key for the whole installation (its id, the demo's "seeded" mark, the
 * Google Drive connection's encrypted credentials and failure mark). Every module that keeps a setting reads and
 * writes it through these.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

/** The value under `key`, or null. */
export async function readSetting(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom("app_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

/** Sets `key` to `value`, replacing what was there. */
export async function writeSetting(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto("app_settings")
    .values({ key, value })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value }))
    .execute();
}

/** Sets `key` to `value` unless it has a value already (the first writer wins, also between instances). */
export async function writeSettingOnce(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto("app_settings")
    .values({ key, value })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
}

/** Removes `key`; with `onlyIf`, only while its value is still that one (another writer's newer value stays). */
export async function deleteSetting(db: Kysely<Database>, key: string, onlyIf?: string): Promise<void> {
  let query = db.deleteFrom("app_settings").where("key", "=", key);
  if (onlyIf !== undefined) query = query.where("value", "=", onlyIf);
  await query.execute();
}
