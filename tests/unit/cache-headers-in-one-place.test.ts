import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as cacheHeaders from "#app/lib/cache-headers.ts";

/**
 * How long an answer may be kept is decided in one module, app/lib/cache-headers.ts: this scans app/ and server/ for a
 * Cache-Control value written out anywhere else (`"Cache-Control": "no-store"`, `setHeader("Cache-Control", "…")`,
 * the S3 objects' `CacheControl: "…"`, a CDN-Cache-Control).
 */
const ROOT = join(import.meta.dirname, "..", "..");
const WRITTEN_OUT =
  /["'](?:CDN-)?Cache-Control["']\s*[:,]\s*["'`]|\bCacheControl:\s*["'`]|["'`](?:public|private)[,;]?\s*(?:max-age|s-maxage|no-store)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("Cache-Control values live in app/lib/cache-headers.ts", () => {
  it("no other source file writes one out", () => {
    const found = ["app", "server"].flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((file) => {
        const name = relative(ROOT, file);
        if (name === "app/lib/cache-headers.ts") return [];
        return readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, index) => (WRITTEN_OUT.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${name}:${index + 1}: ${line.trim()}`] : []));
      }),
    );
    expect(found).toEqual([]);
  });

  it("the module names each policy once", () => {
    const values = Object.values(cacheHeaders as Record<string, unknown>).filter((value): value is string => typeof value === "string");
    expect(values.length).toBeGreaterThan(5);
    expect(new Set(values).size).toBe(values.length);
  });
});
