/**
 * The reader pages the front-end measurements (`npm run weight`, `npm run lighthouse`) load: the production build
 * (built first when missing or older than the sources), served by the production server on 127.0.0.1 with a
 * temporary data directory holding the quick-start demo content, page cache on as in production.
 */
import fs from "node:fs";
import path from "node:path";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

export { buildIfNeeded } from "./build.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

export interface ReaderPage {
  name: "home" | "artigo" | "lista";
  path: string;
}

export interface ReaderSite {
  site: RunningSite;
  pages: ReaderPage[];
}

/**
 * Starts the demo site and picks its pages: the home, the article of the home's main card (the newest news, with a
 * picture) and the list. `fromDataDir` serves a copy of a data directory that already holds content.
 */
export async function startReaderSite(options: { fromDataDir?: string } = {}): Promise<ReaderSite> {
  const site = await startSite({
    seedDemo: true,
    fromDataDir: options.fromDataDir,
    env: { PAGE_CACHE: "1", LOG_LEVEL: "warn" },
  });
  try {
    const home = await (await fetch(`${site.url}/`)).text();
    const article = /href="(\/article\/[^"?#]+)"/.exec(home)?.[1];
    if (!article) throw new Error("A home de demonstração não tem link para um artigo.");
    return {
      site,
      pages: [
        { name: "home", path: "/" },
        { name: "artigo", path: article },
        { name: "lista", path: "/news-list" },
      ],
    };
  } catch (error) {
    await site.stop();
    throw error;
  }
}

/** bench-results/<prefix>-<timestamp>.json, folder created when missing. */
export function resultFile(prefix: string): string {
  const dir = path.join(ROOT, "bench-results");
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
}
