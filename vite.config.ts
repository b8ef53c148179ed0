import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import type { ChunkingContext } from "rolldown";
import { build, defineConfig, type Plugin } from "vite";
import { OFFLINE_PAGE, READ_LATER_PAGE, SERVICE_WORKER_PATH } from "./app/lib/offline-copies.ts";

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

/** The readers' service worker's source (the build writes it to the client folder as SERVICE_WORKER_PATH). */
const SERVICE_WORKER_SOURCE = "app/service-worker/service-worker.ts";

/**
 * The readers' service worker (app/service-worker/service-worker.ts), built after the client: one script of its own
 * (`sw.js`, at the root so that it controls every page), with the list of what it precaches at install written into
 * it — the reader shell, read from this build: the entry, the root and the public routes' chunks with what they
 * import and their styles, the web fonts, React Router's manifest, and the "Sem conexão" and "Ler depois" pages
 * (their revision changes with the shell). The newsroom's code stays out: a reader's phone never downloads it.
 */
function serviceWorker(): Plugin {
  let outDir = "build/client";
  const shell = new Set<string>();
  return {
    name: "eef:service-worker",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client" || environment.name === "ssr",
    writeBundle(options, bundle) {
      if (this.environment.name !== "client") return;
      outDir = options.dir ?? outDir;
      shell.clear();
      const add = (file: string) => {
        const chunk = bundle[file];
        if (shell.has(file) || !chunk) return;
        shell.add(file);
        if (chunk.type !== "chunk") return;
        for (const css of chunk.viteMetadata?.importedCss ?? []) shell.add(css);
        for (const imported of chunk.imports) add(imported);
      };
      for (const [file, chunk] of Object.entries(bundle)) {
        if (chunk.type === "chunk" && chunk.facadeModuleId && (READER_PAGE.test(chunk.facadeModuleId) || /entry\.client/.test(chunk.facadeModuleId)))
          add(file);
        if (chunk.type === "asset" && file.endsWith(".woff2")) shell.add(file);
      }
    },
    async closeBundle() {
      // After the server build: React Router writes its manifest (the routes' modules, which pages import) then.
      if (this.environment.name !== "ssr" || shell.size === 0) return;
      const assets = await fs.readdir(path.join(outDir, "assets"));
      const manifests = await Promise.all(
        assets
          .filter((file) => /^manifest-[0-9a-f]{8}\.js$/.test(file))
          .map(async (file) => ({ file, at: (await fs.stat(path.join(outDir, "assets", file))).mtimeMs })),
      );
      const newest = manifests.sort((a, b) => b.at - a.at)[0];
      const files = [...shell, ...(newest ? [`assets/${newest.file}`] : [])].sort();
      const revision = createHash("sha256").update(files.join("\n")).digest("hex").slice(0, 16);
      const pages = [OFFLINE_PAGE, READ_LATER_PAGE].map((url) => ({ url, revision }));
      const precache = [...files.map((file) => ({ url: `/${file}`, revision: null })), ...pages];
      await build({
        configFile: false,
        logLevel: "warn",
        publicDir: false,
        define: { __OFFLINE_SHELL__: JSON.stringify(precache), "process.env.NODE_ENV": JSON.stringify("production") },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          minify: true,
          lib: { entry: SERVICE_WORKER_SOURCE, formats: ["iife"], name: "eefServiceWorker", fileName: () => SERVICE_WORKER_PATH.slice(1) },
        },
      });
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [reactRouter(), precompressAssets(), serviceWorker()],
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
