import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { specifiersOf } from "#tests/factories/module-specifiers.ts";

/**
 * app/lib is code for the browser and the server alike: it never imports from app/.server, nor a `.server` module,
 * not even a type (docs/architecture.md, "Where things live").
 */
const LIB = join(import.meta.dirname, "..", "..", "app", "lib");

const serverOnly = (specifier: string) => /(^|\/)\.server(\/|$)|\.server(\.tsx?)?$/.test(specifier);

describe("app/lib", () => {
  it("tells a server-only import apart", () => {
    expect(
      ["#app/.server/config/env.server.ts", "#app/.server/db/schema.ts", "../.server/db/schema.ts", "./x.server.ts", "./x.server"].every(serverOnly),
    ).toBe(true);
    expect(["./limits.ts", "react-router", "./server-time.ts", "#app/lib/limits.ts", "#app/i18n/pt-BR.ts"].some(serverOnly)).toBe(false);
  });

  it("imports nothing from app/.server", () => {
    const files = readdirSync(LIB).filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((name) =>
      specifiersOf(readFileSync(join(LIB, name), "utf8"), name.endsWith(".tsx"))
        .filter(serverOnly)
        .map((specifier) => `${name}: ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });
});
