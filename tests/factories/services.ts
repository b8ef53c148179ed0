import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { type AppServices, createServices, migrateAll } from "#app/.server/app.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { createLogger, type Logger } from "#app/.server/logger.server.ts";
import { type MigrateFresh, POSTGRES_ADMIN_URL, postgresTemplateName, sqliteTemplateFile } from "./database-templates.ts";

/**
 * Which database the tests run on: `sqlite` (default) or `postgres` (TEST_DATABASE=postgres; the server at
 * TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres). On PostgreSQL every test services
 * instance gets a database of its own, created here and dropped on close.
 */
export const TEST_DATABASE = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
const ADMIN_URL = POSTGRES_ADMIN_URL;

/** A fresh data directory (SQLite file + media) under the system temp folder. */
export function makeDataDir(prefix = "eef-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Creates a PostgreSQL database (empty, or a copy of `template`, a database nobody is connected to); returns its URL
 * and a function that drops it.
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `eef_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The SQLite file of a data directory (the default of env.server.ts). */
const SQLITE_FILE = "esporte-em-foco.sqlite";

/**
 * Real services on a real, freshly migrated database (SQLite file, or PostgreSQL). Call `close()` when done.
 * The database is a copy of the migration set's template (database-templates.ts), unless `env.DATABASE_URL` names
 * one, the data directory already has its SQLite file, or `options.fromEmpty` asks for the migrations to run from an
 * empty database (the tests of the migrations themselves). `options.log` replaces the silent logger (to read what
 * the services log); the rest goes to the database.
 */
export async function createTestServices(
  dataDir: string = makeDataDir(),
  env: Record<string, string> = {},
  { log, fromEmpty = false, ...options }: Parameters<typeof createServices>[2] & { log?: Logger; fromEmpty?: boolean } = {},
): Promise<AppServices & { dataDir: string; close(): Promise<void> }> {
  const postgres =
    TEST_DATABASE === "postgres" && !env.DATABASE_URL
      ? await createPostgresDatabase(fromEmpty ? undefined : await postgresTemplateName(migrateFresh))
      : null;
  const sqliteFile = path.join(dataDir, SQLITE_FILE);
  if (!postgres && !env.DATABASE_URL && !fromEmpty && !fs.existsSync(sqliteFile)) {
    fs.copyFileSync(await sqliteTemplateFile(migrateFresh), sqliteFile);
    // As the server keeps its database file: readable by its user only.
    fs.chmodSync(sqliteFile, 0o600);
  }
  const config = parseConfig({
    DATA_DIR: dataDir,
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...env,
  });
  const services = createServices(config, log ?? createLogger({ logLevel: "silent" }), options);
  await migrateAll(services);
  return {
    ...services,
    dataDir,
    async close() {
      await services.reads.close();
      await services.events.close();
      await services.rateLimiter.close?.();
      await services.database.close();
      await postgres?.drop();
    },
  };
}

/** Migrates a new database from empty, as the server's first start would (the templates' maker). */
const migrateFresh: MigrateFresh = async (to) => {
  const dataDir = makeDataDir("eef-template-");
  try {
    const services = await createTestServices(dataDir, "databaseUrl" in to ? { DATABASE_URL: to.databaseUrl } : {}, { fromEmpty: true });
    await services.close();
    if ("sqliteFile" in to) fs.renameSync(path.join(dataDir, SQLITE_FILE), to.sqliteFile);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

/** A new PostgreSQL database, migrated (a copy of the template). */
export async function createMigratedPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return createPostgresDatabase(await postgresTemplateName(migrateFresh));
}

/** The migrated SQLite file to copy (the template). */
export function migratedSqliteFile(): Promise<string> {
  return sqliteTemplateFile(migrateFresh);
}

/** How many rows a table holds now. */
export async function countRows(services: Pick<AppServices, "database">, table: keyof Database): Promise<number> {
  const row = await services.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
