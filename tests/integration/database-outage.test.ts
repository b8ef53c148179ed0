/**
 * PostgreSQL going away under a running app (restart, failover, network cut), through a TCP proxy the test cuts:
 * a connection that breaks while checked out (a transaction, the sweeper's advisory-lock session) fails its
 * queries instead of crashing the process, and the pool serves again once the database is back.
 * PostgreSQL only (TEST_DATABASE=postgres).
 */
import fs from "node:fs";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createServices, migrateAll } from "../../app/.server/app.server.ts";
import { parseConfig } from "../../app/.server/config/env.server.ts";
import { createLogger } from "../../app/.server/logger.server.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "../factories/services.ts";
import { startTcpProxy } from "../factories/tcp-proxy.ts";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.skipIf(TEST_DATABASE !== "postgres")("PostgreSQL inacessível com a aplicação no ar", () => {
  it("uma conexão em uso que cai não derruba o processo; o pool volta quando o banco volta", async () => {
    const database = await createPostgresDatabase();
    cleanup.push(() => database.drop());
    const url = new URL(database.url);
    const proxy = await startTcpProxy(Number(url.port || 5432));
    cleanup.push(() => proxy.close());
    url.port = String(proxy.port);
    const lost: Error[] = [];
    const dataDir = makeDataDir("eef-outage-");
    cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const services = createServices(
      parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url.href, SEED_DEMO: "0", LOG_LEVEL: "silent" }),
      createLogger({ logLevel: "silent" }),
      { onPoolError: (error) => lost.push(error) },
    );
    cleanup.push(() => services.database.close());
    await migrateAll(services);
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
});
