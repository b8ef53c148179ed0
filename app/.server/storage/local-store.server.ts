import { constants as fsConstants, createReadStream, type Dir } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomUUID } from "node:crypto";
import express from "express";
import { contentTypeOfKey } from "#app/.server/media/media-types.ts";
import { assertValidKey, type ByteRange, isValidKey, type MediaStore, type StoredEntry, type StoredObject } from "./media-store.ts";
import type { RoutePath } from "#app/lib/route-paths.ts";

/** The folder, under the store's root, where objects are written before being renamed into place. */
export const LOCAL_TEMP_DIR = ".tmp";

/**
 * Media on the local disk under `root`. Writes go to a temporary file first and are renamed into place, so a
 * crash never leaves a half-written object under a real key.
 */
export function createLocalStore(options: { root: string; publicPath?: string }): MediaStore {
  const root = path.resolve(options.root);
  // By default the `media/*` route's path, without its splat.
  const publicPath = (options.publicPath ?? ("/media/*" satisfies RoutePath).slice(0, -"/*".length)).replace(/\/+$/, "");

  function resolveKey(key: string): string {
    assertValidKey(key);
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error(`key outside the store: ${key}`);
    return file;
  }

  return {
    name: "local",
    needsConnection: false,
    // Served by the site itself, under publicPath.
    publicOrigins: () => ({ media: [], forms: [] }),
    staticFiles: () => ({ path: publicPath, handler: staticMediaFiles(root) }),
    /** Local disk needs no sign-in: it is "connected" whenever its folder can be written. */
    async isConnected() {
      try {
        await fs.mkdir(root, { recursive: true });
        await fs.access(root, fsConstants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
    async put(key, body, _contentType) {
      const file = resolveKey(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temp = path.join(root, LOCAL_TEMP_DIR, `${randomUUID()}.part`);
      await fs.mkdir(path.dirname(temp), { recursive: true });
      try {
        const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
        await pipeline(source, (await fs.open(temp, "w")).createWriteStream());
        await fs.rename(temp, file);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    async get(key, range?: ByteRange): Promise<StoredObject | null> {
      const file = resolveKey(key);
      const stats = await statFile(file);
      if (!stats) return null;
      const body = range ? createReadStream(file, { start: range.start, end: range.end }) : createReadStream(file);
      return { body, size: stats.size };
    },
    async stat(key) {
      const stats = await statFile(resolveKey(key));
      return stats ? { size: stats.size } : null;
    },
    async delete(key) {
      await fs.rm(resolveKey(key), { force: true });
    },
    publicUrl(key) {
      assertValidKey(key);
      return `${publicPath}/${key}`;
    },
    async *list(prefix = "") {
      // Walk only the folder the prefix names (keys are paths), then filter on the full prefix.
      const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      if (folder && !isValidKey(folder)) return;
      for await (const entry of walk(folder ? path.join(root, folder) : root, folder)) {
        if (entry.key.startsWith(prefix)) yield entry;
      }
    },
    removeStaleTemp(olderThan, options) {
      return removeStalePartFiles(path.join(root, LOCAL_TEMP_DIR), olderThan, options);
    },
  };
}

/**
 * The media folder as static files, before the routes: a burst of readers loading the same pictures costs no
 * rendering and no stream copies (sendfile, Range, 304). Only the allowed media types (anything else falls through
 * to the route, which answers 404), never dot-files (the `.tmp` folder), cached for a year (keys are content-hashed),
 * `nosniff`.
 */
function staticMediaFiles(root: string): express.RequestHandler {
  const files = express.static(root, {
    dotfiles: "deny",
    index: false,
    redirect: false,
    fallthrough: true,
    immutable: true,
    maxAge: "1y",
    setHeaders(res, file) {
      res.setHeader("Content-Type", contentTypeOfKey(file) ?? "application/octet-stream");
      res.setHeader("X-Content-Type-Options", "nosniff");
    },
  });
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !contentTypeOfKey(req.path)) return next();
    files(req, res, next);
  };
}

/** Walks the store folder, skipping the temporary folder and anything that is not an addressable key. */
async function* walk(dir: string, prefix: string): AsyncGenerator<StoredEntry> {
  let handle: Dir;
  try {
    handle = await fs.opendir(dir);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for await (const entry of handle) {
    if (!prefix && entry.name === LOCAL_TEMP_DIR) continue;
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* walk(file, key);
    } else if (entry.isFile() && isValidKey(key)) {
      const stats = await statFile(file);
      if (stats) yield { key, size: stats.size, modifiedAt: stats.mtime };
    }
  }
}

/**
 * Removes the `*.part` files directly in `dir` last modified before `olderThan` (temporary files of uploads or
 * writes that never finished). Younger ones may still be in use and are left alone: a file being written is
 * modified with every chunk. Returns the paths removed (with `dryRun`, the paths that would go; nothing is removed).
 */
export async function removeStalePartFiles(dir: string, olderThan: Date, options: { dryRun?: boolean } = {}): Promise<string[]> {
  let handle: Dir;
  try {
    handle = await fs.opendir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const removed: string[] = [];
  for await (const entry of handle) {
    if (!entry.isFile() || !entry.name.endsWith(".part")) continue;
    const file = path.join(dir, entry.name);
    const stats = await statFile(file);
    if (!stats || stats.mtime >= olderThan) continue;
    if (options.dryRun) {
      removed.push(file);
      continue;
    }
    try {
      await fs.unlink(file);
      removed.push(file);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  return removed;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

async function statFile(file: string) {
  try {
    const stats = await fs.stat(file);
    return stats.isFile() ? stats : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
