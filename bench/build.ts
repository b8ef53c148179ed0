/** The production build the measurements run against: made first when missing or older than the sources. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Newest modification time of a file under `dir` (0 when it does not exist). */
function newestMtime(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds the app when there is no build or a source changed after it. */
export function buildIfNeeded(): void {
  const entry = path.join(ROOT, "build/server/index.js");
  const built = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
  const sources = Math.max(...["app", "server", "public"].map((dir) => newestMtime(path.join(ROOT, dir))));
  if (built > sources) return;
  console.log(built ? "Código mudou desde o último build: executando `react-router build`…" : "Sem build: executando `react-router build`…");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/bin.cjs"), "build"], { cwd: ROOT, stdio: "inherit" });
}
