import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import type { ChunkingContext } from "rolldown";
import { defineConfig, type Plugin } from "vite";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The browser's files (scripts, styles, SVG) written a second and third time, compressed once and for all at the
 * highest levels: `.br` (brotli 11) and `.gz` (gzip 9) beside each, which the server sends as they are (server/main.ts)
 * instead of compressing each request on the fly at gzip 6 (the framework's script: 108 → 94 kB in brotli).
 */
function precompressAssets(): Plugin {
  return {
    name: "eef:precompress-assets",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? "build/client";
      const files = Object.keys(bundle).filter((file) => /\.(js|css|svg|json)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(dir, file);
          const content = await fs.readFile(full);
          if (content.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
            gzip(content, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}

/** What every page loads: React, React DOM and React Router. */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@react-router[\\/][^\\/]+|turbo-stream|cookie|set-cookie-parser)[\\/]/;
/** Code the reader pages share: texts, helpers, the news and layout components, icons. */
const READER = /[\\/]app[\\/](i18n|lib|components[\\/](news|ui|layout))[\\/]|[\\/]node_modules[\\/]lucide-react[\\/]|vite[\\/]preload-helper/;
/**
 * …but not the admin menu's drawer (its button's styles, on every page anyway, are the readers'), nor the form schemas (they bring zod along), nor the newsroom's texts (its own file and the
 * texts of the body's blocks). Nor the embed parser: the newsroom's editor and schema share it with the article, which
 * made it "shared" and put it on every reader page; on its own it is a 1 kB file only the article loads (preloaded
 * with the route). Likewise the body's renderer (rich-text, content-embed): the newsroom form's "Ver como leitor" shares
 * it with the article, and only the article among reader pages draws a body.
 */
const NOT_READER =
  /admin-drawer\.tsx|[\\/]app[\\/]lib[\\/](auth-schemas|news-schema|rich-text-schema|rich-text-plain|password-policy|embeds)\.|[\\/]app[\\/]i18n[\\/](newsroom|pt-BR-blocks)\.|[\\/]components[\\/]news[\\/](rich-text|content-embed)\./;
/** The modules a reader page starts from: the root layout and the public routes. */
const READER_PAGE = /[\\/]app[\\/](root\.tsx|routes[\\/]site[\\/])/;

/**
 * Whether a reader page imports `id` (directly or through other modules, statically). A helper in app/lib that only
 * newsroom routes import would otherwise join the readers' shared chunk just because two admin routes share it (and
 * bring zod along). Lazily loaded code (dynamic imports, e.g. the delete dialog) does not count.
 */
function readerImports(id: string, ctx: ChunkingContext, seen = new Set<string>()): boolean {
  if (READER_PAGE.test(id)) return true;
  seen.add(id);
  for (const importer of ctx.getModuleInfo(id)?.importers ?? []) {
    if (!seen.has(importer) && readerImports(importer, ctx, seen)) return true;
  }
  return false;
}

export default defineConfig(({ command }) => ({
  plugins: [reactRouter(), precompressAssets()],
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Fewer, larger files for the reader pages: on a phone each extra request costs a round trip, and the
            // default split left 17 files (many of them a few hundred bytes) on the home. The framework is one file;
            // modules shared by several routes are another; each route keeps its own chunk, and what only admins use
            // (loaded lazily) stays out of both.
            codeSplitting: {
              groups: [
                { name: "framework", test: FRAMEWORK, priority: 2 },
                {
                  name: (id, ctx) => (READER.test(id) && !NOT_READER.test(id) && readerImports(id, ctx) ? "reader" : null),
                  minShareCount: 2,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
    },
    ssr: {
      build: {
        rollupOptions: {
          // The server build is our Express app, which embeds the React Router handler.
          input: "./server/app.ts",
        },
      },
    },
  },
  ssr: {
    // Native and Node-only packages stay external in the server bundle.
    external: ["sharp", "better-auth", "pino", "pino-pretty", "pino-http"],
    // Bundled (and tree-shaken) into the server build: importing the whole icon package at start cost ~140 ms for
    // the two dozen icons the pages use. Under `npm run dev` only, @react-router/express goes through Vite too, so
    // that its `react-router` is the copy server/app.ts and the routes get (Vite resolves it with the "development"
    // condition, Node without): otherwise its check that getLoadContext returned a RouterContextProvider failed on
    // every request the page cache did not answer (500 "Invalid `context` value"). Not in the production build:
    // bundled there it made uncached pages slower (home p99 175 -> 206 ms in `npm run bench`).
    noExternal: command === "serve" ? ["lucide-react", "@react-router/express"] : ["lucide-react"],
  },
}));
