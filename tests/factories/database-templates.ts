/**
 * Migrated databases to start from: every test database (tests/factories/services.ts) and every site of the browser
 * suite (site.ts) is a copy of one migrated database, a SQLite file or a PostgreSQL template. From empty, a database
 * ran every migration and Better Auth's schema check first: ~0.45 s of a PostgreSQL site's ~1.3 s start, ~0.2 s of a
 * SQLite site's ~0.85 s, and 1.5–4 s of an integration test's PostgreSQL database on the loaded 2-core machine, for
 * each of the hundreds a run makes. The migrations still run from empty once per migration set (here, for the
 * template) and in the tests of the migrations themselves (`createTestServices(…, { fromEmpty: true })`). A template
 * older than the code is still right: the start applies what it lacks, as on any upgrade.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** The PostgreSQL server the tests create their databases on. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs `fn` on a connection to the PostgreSQL server's admin database, closed afterwards. */
export async function onAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Migrates a new database from empty, as a first start would: the one at `databaseUrl`, or a SQLite file at `sqliteFile`. */
export type MigrateFresh = (to: { databaseUrl: string } | { sqliteFile: string }) => Promise<void>;

/** Names the migration set: the migrations' files and Better Auth's version (its schema check adds its tables). */
function migrationSetId(): string {
  const hash = createHash("sha256");
  const dir = path.join(ROOT, "migrations");
  for (const name of fs.readdirSync(dir).sort()) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  hash.update(fs.readFileSync(path.join(ROOT, "node_modules/better-auth/package.json")));
  return hash.digest("hex").slice(0, 12);
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * The migrated SQLite file of this migration set (made once per machine, under the temp folder; built elsewhere and
 * renamed into place whole, so another process making it at the same time only replaces it).
 */
export function sqliteTemplateFile(migrateFresh: MigrateFresh): Promise<string> {
  sqliteTemplate ??= (async () => {
    const file = path.join(os.tmpdir(), `eef-template-${migrationSetId()}.sqlite`);
    if (!fs.existsSync(file)) {
      const building = `${file}.${randomBytes(3).toString("hex")}`;
      await migrateFresh({ sqliteFile: building });
      fs.renameSync(building, file);
    }
    return file;
  })();
  sqliteTemplate.catch(() => {
    sqliteTemplate = undefined;
  });
  return sqliteTemplate;
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated PostgreSQL template of this migration set (made once, under an advisory lock so two test processes
 * never both make it; built under another name and renamed when complete, so a failed build is never used).
 */
export function postgresTemplateName(migrateFresh: MigrateFresh): Promise<string> {
  postgresTemplate ??= onAdmin(async (client) => {
    const name = `eef_template_${migrationSetId()}`;
    await client.query("select pg_advisory_lock(hashtext('eef_test_template'))");
    try {
      const found = await client.query("select 1 from pg_database where datname = $1", [name]);
      if (found.rowCount) return name;
      const building = `${name}_${randomBytes(3).toString("hex")}`;
      await client.query(`create database ${building}`);
      try {
        const url = new URL(POSTGRES_ADMIN_URL);
        url.pathname = `/${building}`;
        await migrateFresh({ databaseUrl: url.href });
        await client.query(`alter database ${building} rename to ${name}`);
      } catch (error) {
        await client.query(`drop database if exists ${building} with (force)`);
        throw error;
      }
      // Templates of other migration sets are left alone: another checkout on this machine (a branch with one more
      // migration) may be copying from its own right now, and dropping it failed that run's site starts.
      return name;
    } finally {
      await client.query("select pg_advisory_unlock(hashtext('eef_test_template'))");
    }
  });
  postgresTemplate.catch(() => {
    postgresTemplate = undefined;
  });
  return postgresTemplate;
}
