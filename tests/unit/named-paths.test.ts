import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A file named in the docs or in a comment is a file that exists: "see server/event-streams.ts" must not send the next
 * person to a file that was renamed or removed.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const CODE_DIRS = ["app", "server", "tests", "bench", "scripts"];
/** A path of this repository as prose names it: a top folder, then a file with an extension of ours. */
const NAMED =
  /(?<![\w./-])((?:app|server|tests|bench|scripts|deploy|docs|public|\.ci)\/[\w./+-]*?\.(?:tsx|ts|js|css|md|vcl|conf|json|lua|service))(?!\.?\w)/g;

function filesUnder(dir: string, extensions: RegExp): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true }).flatMap((entry) => {
    if (!entry.isFile() || !extensions.test(entry.name)) return [];
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
    return file.includes("node_modules") ? [] : [file];
  });
}

describe("files named in the docs and comments exist", () => {
  it("README, docs/ and every source file name only files that are there", () => {
    const sources = ["README.md", ...filesUnder("docs", /\.md$/), ...CODE_DIRS.flatMap((dir) => filesUnder(dir, /\.(ts|tsx)$/))];
    const missing = sources.flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(NAMED)]
        .map((match) => match[1]!)
        .filter((named) => !fs.existsSync(path.join(ROOT, named)))
        .map((named) => `${file}: ${named}`),
    );
    expect(missing).toEqual([]);
  });
});
