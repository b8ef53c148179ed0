/**
 * PostgreSQL going away under a running app (restart, failover, network cut), through a TCP proxy the test cuts:
 * a connection that breaks while checked out (a transaction, the sweeper's advisory-lock session) fails its
 * queries instead of crashing the process, and the pool serves again once the database is back.
 * PostgreSQL only (TEST_DATABASE=postgres).
 */
import fs from "node:fs";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createServices, migrateAll } from "#app/.server/app.server.ts";
import { DatabaseUnavailableError, DatabaseUnconfirmedError, databaseUnavailableOr } from "#app/.server/errors.ts";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { startTcpProxy } from "#tests/factories/tcp-proxy.ts";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * The app's services on a new PostgreSQL database reached through a TCP proxy the test cuts or holds, migrated;
 * everything goes at the test's end (released before the pool closes, when the test held the link).
 */
async function servicesThroughProxy(onPoolError: (error: Error) => void) {
  const database = await createPostgresDatabase();
  cleanup.push(() => database.drop());
  const url = new URL(database.url);
  const proxy = await startTcpProxy(Number(url.port || 5432));
  cleanup.push(() => proxy.close());
  url.port = String(proxy.port);
  const dataDir = makeDataDir("eef-outage-");
  cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const services = createServices(
    parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url.href, SEED_DEMO: "0", LOG_LEVEL: "silent" }),
    createLogger({ logLevel: "silent" }),
    { onPoolError },
  );
  cleanup.push(() => services.database.close());
  await migrateAll(services);
  return { proxy, services };
}

describe.skipIf(TEST_DATABASE !== "postgres")("PostgreSQL inacessível com a aplicação no ar", () => {
  it("uma conexão em uso que cai não derruba o processo; o pool volta quando o banco volta", async () => {
    const lost: Error[] = [];
    const { proxy, services } = await servicesThroughProxy((error) => lost.push(error));
    const { db } = services.database;

    // Checked out (as the sweeper's lock session is) when the database goes away.
    await db.connection().execute(async (connection) => {
      await sql`select 1`.execute(connection);
      await proxy.cut();
      await expect.poll(() => lost.length).toBeGreaterThan(0);
      await expect(sql`select 1`.execute(connection)).rejects.toThrow();
    });
    await expect(sql`select 1`.execute(db)).rejects.toThrow();

    await proxy.restore();
    const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(db);
    expect(rows).toEqual([{ ok: 1 }]);
  });

  it("pacotes retidos: uma leitura é 503 'nada foi feito', um COMMIT sem resposta é 503 'confira antes'; depois o pool serve de novo", async () => {
    const { proxy, services } = await servicesThroughProxy(() => {});
    cleanup.push(async () => proxy.release());
    // As bootApp does once the installation is prepared (DATABASE_QUERY_TIMEOUT_SECONDS), shorter for the test.
    services.database.setQueryDeadline!(1000);
    const { db } = services.database;
    await sql`create table held_probe (id int primary key)`.execute(db);

    // A read on a silent link gives up: nothing was done, the client may simply try again.
    proxy.hold();
    const readError = databaseUnavailableOr(await services.news.listNewsPage({ limit: 5 }).catch((error: unknown) => error));
    expect(readError).toBeInstanceOf(DatabaseUnavailableError);
    expect((readError as DatabaseUnavailableError).status).toBe(503);
    proxy.release();

    // The link goes silent after the change was sent, before its COMMIT is answered: it may have been made.
    const write = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into held_probe (id) values (1)`.execute(trx);
        proxy.hold();
      })
      .catch((error: unknown) => error);
    const writeError = databaseUnavailableOr(write);
    expect(writeError).toBeInstanceOf(DatabaseUnconfirmedError);
    expect((writeError as DatabaseUnconfirmedError).message).toContain("Recarregue a página para conferir");

    // Back: the stuck connection was dropped, a fresh one answers, and the held COMMIT did reach the database.
    proxy.release();
    await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from held_probe`.execute(db)).rows[0]?.n).toBe(1);
  }, 30_000);
});
