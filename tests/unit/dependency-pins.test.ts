import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every dependency is pinned to one exact version, the lock file's (docs/decisions/001-server-and-runtime.md). */
const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

describe("dependency versions", () => {
  it("package.json names the exact version package-lock.json installs, for every dependency", () => {
    const manifest = read("package.json") as Record<string, Record<string, string> | undefined>;
    const lock = read("package-lock.json") as { packages: Record<string, { version?: string }> };
    const declared = { ...manifest.dependencies, ...manifest.devDependencies };
    expect(Object.keys(declared).length).toBeGreaterThan(50);
    const offenders = Object.entries(declared)
      .filter(([name, version]) => !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version) || lock.packages[`node_modules/${name}`]?.version !== version)
      .map(([name, version]) => `${name}@${version} (lock: ${lock.packages[`node_modules/${name}`]?.version})`);
    expect(offenders).toEqual([]);
  });
});
