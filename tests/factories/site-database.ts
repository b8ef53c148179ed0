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
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { onAdmin, POSTGRES_ADMIN_URL } from "./database-templates.ts";
import { createMigratedPostgresDatabase, migratedSqliteFile, TEST_DATABASE } from "./services.ts";

export { TEST_DATABASE };

/** Where a site's data lives: its SQLite file, or its PostgreSQL URL (then the file is unused). */
export interface SiteDatabaseRef {
  dbFile: string;
  databaseUrl: string | null;
}

export { POSTGRES_ADMIN_URL };

/** The migrated SQLite file a site's database starts as (database-templates.ts). */
export const sqliteTemplateFile = migratedSqliteFile;

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

export interface PostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new PostgreSQL database for one site, migrated (a copy of the template). */
export async function createSiteDatabase(): Promise<PostgresDatabase> {
  return createMigratedPostgresDatabase();
}

/** Drops a database made by createSiteDatabase, closing whatever is still connected to it. */
export async function dropSiteDatabase(url: string): Promise<void> {
  const name = nameOf(url);
  await onAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
}
