import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { readSetting, writeSettingOnce } from "#app/.server/db/app-settings.queries.server.ts";
import type { Database } from "#app/.server/db/schema.ts";

/** The `app_settings` key holding this installation's id. */
export const INSTALLATION_ID_KEY = "installation_id";

export interface Installation {
  /** This installation's id (made and recorded on first use). */
  id(): Promise<string>;
}

/**
 * Which installation this database is. Every media object it stores carries the id as the first part of its key
 * (`<id>/img/…`), so the orphan sweeper only ever touches objects this installation made: a staging copy started
 * with a fresh database against production's bucket has another id and sees none of production's objects. The id
 * lives in the database (a backup restores it with the data it belongs to). Made once, safely when several
 * instances start together (the first insert wins; everyone reads it back).
 */
export function createInstallation(db: Kysely<Database>): Installation {
  let cached: Promise<string> | null = null;
  const read = () => readSetting(db, INSTALLATION_ID_KEY);
  return {
    id() {
      cached ??= (async () => {
        const existing = await read();
        if (existing) return existing;
        await writeSettingOnce(db, INSTALLATION_ID_KEY, randomBytes(6).toString("hex"));
        const made = await read();
        if (!made) throw new Error("installation id could not be recorded");
        return made;
      })().catch((error: unknown) => {
        cached = null;
        throw error;
      });
      return cached;
    },
  };
}

/** The key prefix of this installation's objects. */
export const ownPrefix = (installationId: string) => `${installationId}/`;
