import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrations } from "#migrations/index.ts";

const DIR = join(import.meta.dirname, "..", "..", "migrations");
/**
 * Prefixes that two migrations share, from before this test. Kept: installations that already ran them know them
 * by name (kysely_migration), and a renamed migration they ran would stop every start ("previously executed migration
 * … is missing"). See migrations/index.ts.
 */
const SHARED_BEFORE_THIS_TEST = new Set(["2026-11-25-020"]);

const prefixOf = (name: string) => name.slice(0, "yyyy-mm-dd-nnn".length);

describe("migration names", () => {
  const names = Object.keys(migrations);

  it("every file in migrations/ is registered, under its file name", () => {
    const files = readdirSync(DIR)
      .filter((file) => file !== "index.ts" && file.endsWith(".ts"))
      .map((file) => file.replace(/\.ts$/, ""));
    expect([...names].sort()).toEqual(files.sort());
  });

  it("are <date>-<nnn>-<name>, listed in the order they run", () => {
    for (const name of names) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-\d{3}-[a-z0-9]+(-[a-z0-9]+)*$/);
    // Kysely's Migrator runs them in this order, whatever the order of the object.
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("no two share a date and number, bar the pair from before this rule", () => {
    const seen = new Map<string, string[]>();
    for (const name of names) seen.set(prefixOf(name), [...(seen.get(prefixOf(name)) ?? []), name]);
    const shared = [...seen].filter(([, group]) => group.length > 1).map(([prefix]) => prefix);
    expect(shared).toEqual([...SHARED_BEFORE_THIS_TEST]);
  });
});
