import { DatabaseSync } from "node:sqlite";
import { NodeSqliteDialect } from "@better-auth/kysely-adapter/node-sqlite-dialect";
import { Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { withRollbackAfterAbort } from "#app/.server/db/database.server.ts";

/**
 * SQLite ends a transaction by itself on some errors (a full disk, an I/O error); a trigger's RAISE(ROLLBACK) does
 * the same on demand. The caller must get that error, not Kysely's failed "rollback" after it.
 */
describe("a transaction SQLite ended by itself (SQLite)", () => {
  function open(wrapped: boolean) {
    const sqlite = new DatabaseSync(":memory:");
    sqlite.exec("create table t (n integer)");
    sqlite.exec("create trigger refuse before insert on t when new.n < 0 begin select raise(rollback, 'negative refused'); end");
    const dialect = new NodeSqliteDialect({ database: sqlite });
    return { sqlite, db: new Kysely<{ t: { n: number } }>({ dialect: wrapped ? withRollbackAfterAbort(dialect, sqlite) : dialect }) };
  }

  const insertThenRefuse = (db: Kysely<{ t: { n: number } }>) =>
    db.transaction().execute(async (trx) => {
      await trx.insertInto("t").values({ n: 1 }).execute();
      await trx.insertInto("t").values({ n: -1 }).execute();
    });

  it("throws the error that ended it, and nothing of the transaction is kept", async () => {
    const { sqlite, db } = open(true);
    await expect(insertThenRefuse(db)).rejects.toThrow("negative refused");
    expect(sqlite.isTransaction).toBe(false);
    const { rows } = await sql<{ c: number }>`select count(*) as c from t`.execute(db);
    expect(rows[0]?.c).toBe(0);
    // An ordinary failure still rolls back.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ n: 2 }).execute();
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await sql<{ c: number }>`select count(*) as c from t`.execute(db)).rows[0]?.c).toBe(0);
    await db.destroy();
  });

  it("without the wrapper the cause is hidden behind the failed rollback (what a full disk answered: 500, not 507)", async () => {
    const { db } = open(false);
    await expect(insertThenRefuse(db)).rejects.toThrow(/no transaction is active/);
    await db.destroy();
  });
});
