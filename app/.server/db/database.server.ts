import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { NodeSqliteDialect } from "@better-auth/kysely-adapter/node-sqlite-dialect";
import { Kysely, type LogEvent } from "kysely";
import type { AppConfig } from "../config/env.server.ts";
import type { Database } from "./schema.ts";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: "sqlite";
  close(): Promise<void>;
}

/**
 * Opens the configured database. SQLite runs in WAL mode with foreign keys on, so readers never block the
 * writer and a crash mid-write leaves the last committed state.
 */
export function openDatabase(
  config: Pick<AppConfig, "database">,
  options: { onQuery?: (event: LogEvent) => void } = {},
): DatabaseHandle {
  const { file } = config.database;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new DatabaseSync(file, { timeout: 5000 });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const db = new Kysely<Database>({
    dialect: new NodeSqliteDialect({ database: sqlite }),
    ...(options.onQuery ? { log: options.onQuery } : {}),
  });
  return {
    db,
    dialect: "sqlite",
    async close() {
      await db.destroy();
      if (sqlite.isOpen) sqlite.close();
    },
  };
}
