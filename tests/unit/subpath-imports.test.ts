import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { specifiersOf } from "#tests/factories/module-specifiers.ts";

/**
 * An import that leaves its folder names its target from the top, through package.json's `imports` (`#app/…`,
 * `#server/…`, `#tests/…`): never `../`. One within its folder (or below it) stays relative (`./…`), `./+types/…`
 * included. Decision record 001, amendment of 2026-11-29.
 */
const ROOT = join(import.meta.dirname, "..", "..");
const FOLDERS = ["app", "server", "tests", "scripts", "bench", "migrations"];
const IMPORTS: Record<string, string> = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).imports;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || path === join(ROOT, "tests", "fixtures") ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** What is wrong with `specifier` in `file` (both relative to the root), or null. */
function misfit(file: string, specifier: string): string | null {
  const folder = dirname(file);
  if (specifier.startsWith("../")) {
    const target = relative(ROOT, resolve(ROOT, folder, specifier));
    // A file at the root (playwright.config.ts, imported by two benchmarks) has no folder to name it by.
    return target.includes("/") ? "leaves its folder with ../ (use its # path)" : null;
  }
  const mapped = /^#([^/]+)\/(.*)$/.exec(specifier);
  if (!mapped) return null;
  if (!(`#${mapped[1]}/*` in IMPORTS)) return "names a folder package.json's imports do not map";
  const target = `${mapped[1]}/${mapped[2]}`;
  return target.startsWith(`${folder}/`) ? "is in its own folder (keep it relative: ./)" : null;
}

describe("imports across folders", () => {
  it("tells a misfit apart", () => {
    expect(misfit("app/routes/site/home.tsx", "../../lib/seo.ts")).toMatch(/\.\.\//);
    expect(misfit("app/routes/site/home.tsx", "#app/routes/site/article.tsx")).toMatch(/own folder/);
    expect(misfit("app/.server/storage/create-store.server.ts", "#app/.server/storage/google-drive/store.server.ts")).toMatch(/own folder/);
    expect(misfit("app/routes/site/home.tsx", "#lib/seo.ts")).toMatch(/do not map/);
    expect(misfit("bench/weight.ts", "../playwright.config.ts")).toBeNull();
    for (const fine of ["#app/lib/seo.ts", "#app/.server/db/schema.ts", "./+types/home", "./home.module.css", "#tests/factories/site.ts", "react"]) {
      expect(misfit("app/routes/site/home.tsx", fine)).toBeNull();
    }
  });

  it("finds imports, re-exports, dynamic imports and import types", () => {
    const source = [
      'import a from "#app/root.tsx";',
      'export { b } from "../b.ts";',
      'export * from "./c.ts";',
      'const d = () => import("#app/routes.ts");',
      'type E = typeof import("../e.ts");',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, on purpose
      "const f = (name: string) => import(`#app/routes/${name}`);",
    ].join("\n");
    expect(specifiersOf(source, false)).toEqual(["#app/root.tsx", "../b.ts", "./c.ts", "#app/routes.ts", "../e.ts", "#app/routes/"]);
  });

  it("package.json maps each top folder to itself", () => {
    expect(Object.keys(IMPORTS).length).toBeGreaterThanOrEqual(3);
    for (const [key, target] of Object.entries(IMPORTS)) expect(target, key).toBe(`./${key.slice(1)}`);
  });

  it("no source file imports across folders with ../, nor its own folder with a # path", () => {
    const files = FOLDERS.flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(500);
    const offenders = files.flatMap((path) => {
      const file = relative(ROOT, path).split("\\").join("/");
      return specifiersOf(readFileSync(path, "utf8"), file.endsWith(".tsx")).flatMap((specifier) => {
        const problem = misfit(file, specifier);
        return problem ? [`${file}: ${specifier} ${problem}`] : [];
      });
    });
    expect(offenders).toEqual([]);
  });
});
