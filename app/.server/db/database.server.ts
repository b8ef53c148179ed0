import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { NodeSqliteDialect } from "@better-auth/kysely-adapter/node-sqlite-dialect";
import { type Dialect, Kysely, type LogEvent, PostgresDialect } from "kysely";
import type pg from "pg";
import { clientWithDeadline, loadPg } from "./pg.server.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "#app/.server/config/data-dir.server.ts";
import type { AppConfig } from "#app/.server/config/env.server.ts";
import { searchText, vocabularyWords } from "#app/.server/search/portuguese.ts";
import type { Database } from "./schema.ts";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  /** SQLite: the database file (its side files, such as the locks of locks.server.ts, sit next to it). */
  file?: string;
  /**
   * PostgreSQL: from now on a query waits for its reply at most `ms`, and a connection from the pool at most as long
   * (0: no limit). Set once the installation is prepared; migrations and the npm commands run without one.
   */
  setQueryDeadline?(ms: number): void;
  close(): Promise<void>;
}

/**
 * Opens the configured database: SQLite (the embedded default) or PostgreSQL (a connection pool).
 * SQLite runs in WAL mode with foreign keys on, so readers never block the writer and a crash mid-write leaves the
 * last committed state.
 */
export function openDatabase(
  config: Pick<AppConfig, "database">,
  options: { onQuery?: (event: LogEvent) => void; onPoolError?: (error: Error) => void } = {},
): DatabaseHandle {
  const log = options.onQuery ? { log: options.onQuery } : {};
  if (config.database.kind === "postgres") {
    const pg = loadPg();
    let deadlineMs = 0;
    const pool = new pg.Pool({
      connectionString: config.database.url,
      max: config.database.poolSize,
      types: pgTypes,
      Client: clientWithDeadline(pg, () => deadlineMs),
    });
    // An idle connection dropped by the server (restart, failover) is replaced on next use; it must not crash us.
    pool.on("error", (error) => options.onPoolError?.(error));
    // A connection that fails while checked out (a transaction, the sweeper's advisory-lock session) emits "error" on
    // its client, which the pool only listens to while the client is idle: unheard, it would crash the process. The
    // query in flight fails by itself, and the pool drops the broken client when it comes back.
    pool.on("connect", (client) => client.on("error", (error) => options.onPoolError?.(error)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...log });
    return {
      db,
      dialect: "postgres",
      setQueryDeadline(ms) {
        deadlineMs = ms;
        // Read by the pool at each checkout: waiting for a free connection, or opening one, is bounded too.
        pool.options.connectionTimeoutMillis = ms;
      },
      close: () => db.destroy(),
    };
  }
  const { file } = config.database;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  // Created owner-only before SQLite opens it (its -wal and -shm files take the same mode): it holds password
  // hashes, live sessions and reset tokens.
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  const sqlite = new DatabaseSync(file, { timeout: 5000 });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  registerSearchFunctions(sqlite);
  const dialect = withRollbackAfterAbort(new NodeSqliteDialect({ database: withStatementCache(sqlite) }), sqlite);
  const db = new Kysely<Database>({ dialect, ...log });
  return {
    db,
    dialect: "sqlite",
    file,
    async close() {
      await db.destroy();
      if (sqlite.isOpen) sqlite.close();
    },
  };
}

/**
 * SQLite ends a transaction by itself on some errors (SQLITE_FULL: the disk is full, SQLITE_IOERR, SQLITE_NOMEM…);
 * Kysely's `rollback` after it then fails with "no transaction is active", and that error, not the cause, reached the
 * caller (a save on a full disk answered 500 instead of 507). The rollback is skipped when no transaction is open, so
 * the error that ended it is the one thrown.
 */
export function withRollbackAfterAbort(dialect: Dialect, sqlite: DatabaseSync): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver() {
      const driver = dialect.createDriver();
      const rollback = driver.rollbackTransaction.bind(driver);
      driver.rollbackTransaction = async (connection) => {
        if (sqlite.isTransaction) await rollback(connection);
      };
      return driver;
    },
  };
}

/**
 * The SQL functions the search index's triggers call (migrations/2026-11-24-001-news-search.ts): the folded, stemmed
 * words of a text. Every connection that writes news must have it; a write without it fails ("no such function")
 * rather than leaving the index behind.
 */
export function registerSearchFunctions(sqlite: DatabaseSync): void {
  sqlite.function("eef_search_text", { deterministic: true }, (text) => searchText(typeof text === "string" ? text : null));
  // The typo correction's vocabulary (migrations/2026-11-29-101-search-typos.ts): a text's words as a JSON array.
  sqlite.function("eef_search_words", { deterministic: true }, (text) => JSON.stringify(vocabularyWords(typeof text === "string" ? text : null)));
}

/** 64-bit integers (counts, file sizes) come back as JavaScript numbers, as they do from SQLite. */
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    const { types } = loadPg();
    if (oid === types.builtins.INT8) return (value: string) => Number(value);
    return types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * The database as the Kysely dialect sees it, with `prepare` answered from a cache: the dialect prepares every query
 * it runs, and a page runs the same few statements on every request (preparing was a large part of the SQL time).
 * Statements run synchronously to completion, so one cached statement is never used by two queries at once.
 * Least recently used statements beyond `max` are dropped (a statement's SQL is fixed text with `?` parameters, so
 * the number of different ones is small).
 */
export function withStatementCache(database: DatabaseSync, max = 200): DatabaseSync {
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (statement) {
      statements.delete(sql);
    } else {
      statement = database.prepare(sql);
      if (statements.size >= max) statements.delete(statements.keys().next().value!);
    }
    statements.set(sql, statement);
    return statement;
  };
  return new Proxy(database, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
