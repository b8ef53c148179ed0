/**
 * The browser suite's databases, on either engine: a SQLite file under the site's DATA_DIR (default) or, with
 * TEST_DATABASE=postgres, a PostgreSQL database of its own per site (created before the server starts, dropped when
 * it stops). Helpers that look at a running site's data behind the server's back go through `siteQuery`, never
 * through the SQLite file directly, so they work on both.
 *
 * Write the SQL once, portable: `?` placeholders (numbered for PostgreSQL here), `"user"` quoted (a reserved word in
 * PostgreSQL), `INSERT … ON CONFLICT DO NOTHING` instead of `INSERT OR IGNORE`, and Number() around COUNT(*)
 * (PostgreSQL returns it as a string).
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { createPostgresDatabase, createTestServices, makeDataDir, TEST_DATABASE } from "./services.ts";

export { TEST_DATABASE };

/** Where a site's data lives: its SQLite file, or its PostgreSQL URL (then the file is unused). */
export interface SiteDatabaseRef {
  dbFile: string;
  databaseUrl: string | null;
}

/** The PostgreSQL server the tests create their databases on (same default as tests/factories/services.ts). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

type Param = string | number | null;

/** Runs one statement on a site's database and returns its rows. */
export async function siteQuery<T = Record<string, unknown>>(site: SiteDatabaseRef, statement: string, ...params: Param[]): Promise<T[]> {
  if (site.databaseUrl) {
    const client = new pg.Client({ connectionString: site.databaseUrl });
    await client.connect();
    try {
      let index = 0;
      const text = statement.replace(/\?/g, () => `$${++index}`);
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new DatabaseSync(site.dbFile, { timeout: 5000 });
  try {
    const prepared = db.prepare(statement);
    if (/^\s*(select|with|pragma)\b/i.test(statement)) return prepared.all(...params) as T[];
    prepared.run(...params);
    return [];
  } finally {
    db.close();
  }
}

function nameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Nome de banco inesperado: ${name}`);
  return name;
}

async function onAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface PostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

// ------------------------------------------------------------------------------- migrated templates
//
// Every site of the browser suite starts on a copy of one migrated database: on an empty one, the server's start
// ran every migration and Better Auth's schema check first (~0.45 s of a PostgreSQL site's ~1.3 s start, ~0.2 s of
// a SQLite site's ~0.85 s, for every site a pass starts). The migrations still run from empty: once per
// migration set for the template, and for every integration test's database (tests/factories/services.ts). A
// template older than the code is still right: the server's start applies what it lacks, as on any upgrade.

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Names the migration set: the migrations' files and Better Auth's version (its schema check adds its tables). */
function migrationSetId(): string {
  const hash = createHash("sha256");
  const dir = path.join(ROOT, "migrations");
  for (const name of fs.readdirSync(dir).sort()) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  hash.update(fs.readFileSync(path.join(ROOT, "node_modules/better-auth/package.json")));
  return hash.digest("hex").slice(0, 12);
}

/**
 * Migrates a new database as the server's first start would: the one at `to.databaseUrl`, or a SQLite file that ends
 * up at `to.sqliteFile` (renamed into place whole: another process making the same file at the same time only
 * replaces it). The data directory it works in is removed either way.
 */
async function migrateFresh(to: { databaseUrl: string } | { sqliteFile: string }): Promise<void> {
  const dataDir = makeDataDir("eef-template-");
  try {
    const services = await createTestServices(dataDir, "databaseUrl" in to ? { DATABASE_URL: to.databaseUrl } : {});
    await services.close();
    if ("sqliteFile" in to) fs.renameSync(path.join(dataDir, "esporte-em-foco.sqlite"), to.sqliteFile);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let sqliteTemplate: Promise<string> | undefined;

/** The migrated SQLite file of this migration set (made once per machine, under the temp folder). */
export function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const file = path.join(os.tmpdir(), `eef-template-${migrationSetId()}.sqlite`);
    if (!fs.existsSync(file)) await migrateFresh({ sqliteFile: file });
    return file;
  })();
  return sqliteTemplate;
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated PostgreSQL template of this migration set (made once, under an advisory lock so two test processes
 * never both make it; built under another name and renamed when complete, so a failed build is never used).
 */
function postgresTemplateName(): Promise<string> {
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
  return postgresTemplate;
}

/** A new PostgreSQL database for one site, migrated (a copy of the template). */
export async function createSiteDatabase(): Promise<PostgresDatabase> {
  return createPostgresDatabase(await postgresTemplateName());
}

/** Drops a database made by createSiteDatabase, closing whatever is still connected to it. */
export async function dropSiteDatabase(url: string): Promise<void> {
  const name = nameOf(url);
  await onAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
}
