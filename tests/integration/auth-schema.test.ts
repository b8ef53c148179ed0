import fs from "node:fs";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createServices, migrateAll } from "#app/.server/app.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

async function userColumns(services: Pick<Services, "database">): Promise<string[]> {
  const tables = await services.database.db.introspection.getTables();
  return tables.find((table) => table.name === "user")?.columns.map((column) => column.name) ?? [];
}

describe(`Better Auth's schema check at start (${TEST_DATABASE})`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("on a new installation creates Better Auth's tables before ours, at once", async () => {
    const dataDir = makeDataDir("eef-auth-schema-");
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const first = await createTestServices(dataDir);
    cleanups.push(() => first.close());
    expect(first.betterAuth.loaded).toBe(true);
    expect(await userColumns(first)).toContain("twoFactorEnabled");
  });

  it("on an existing installation runs on Better Auth's first use, before anything uses it", async () => {
    const dataDir = makeDataDir("eef-auth-schema-");
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const first = await createTestServices(dataDir);
    cleanups.push(() => first.close());
    // As after an upgrade whose Better Auth wants a column the database does not have yet.
    await sql`alter table "user" drop column "twoFactorEnabled"`.execute(first.database.db);
    expect(await userColumns(first)).not.toContain("twoFactorEnabled");

    const second = createServices(first.config, createLogger({ logLevel: "silent" }));
    cleanups.push(async () => {
      await second.events.close();
      await second.database.close();
    });
    expect(await migrateAll(second, { deferAuthSchema: true })).toEqual([]);
    // Start done: Better Auth not loaded, its schema not checked yet.
    expect(second.betterAuth.loaded).toBe(false);
    expect(await userColumns(second)).not.toContain("twoFactorEnabled");

    // The first use (an admin signing in) brings the schema up to date before Better Auth touches the database.
    const [auth] = await Promise.all([second.betterAuth.get(), second.betterAuth.get()]);
    expect(second.betterAuth.loaded).toBe(true);
    expect(await userColumns(second)).toContain("twoFactorEnabled");
    const context = await auth.$context;
    const user = await context.internalAdapter.createUser(
      { email: "primeiro-uso@example.com", name: "Primeiro uso", emailVerified: true },
      { method: "email-password" },
    );
    expect(user.twoFactorEnabled ?? false).toBe(false);
  });

  it("a start on a database without Better Auth's tables creates them at once even when asked to defer", async () => {
    const dataDir = makeDataDir("eef-auth-schema-");
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const first = await createTestServices(dataDir);
    cleanups.push(() => first.close());
    await sql`drop table "twoFactor"`.execute(first.database.db);
    const second = createServices(first.config, createLogger({ logLevel: "silent" }));
    cleanups.push(async () => {
      await second.events.close();
      await second.database.close();
    });
    await migrateAll(second, { deferAuthSchema: true });
    expect(second.betterAuth.loaded).toBe(true);
    const tables = (await second.database.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toContain("twoFactor");
  });
});
