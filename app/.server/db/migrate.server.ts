import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { migrations } from "#migrations/index.ts";

/** Brings the schema up to date. Throws with the failing migration's name when one fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === "Error");
  if (error || failed) {
    const name = failed?.migrationName ?? "?";
    throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return results.filter((result) => result.status === "Success").map((result) => result.migrationName);
}
