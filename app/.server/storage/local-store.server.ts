import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomUUID } from "node:crypto";
import { assertValidKey, type ByteRange, type MediaStore, type StoredObject } from "./media-store.ts";

/**
 * Media on the local disk under `root`. Writes go to a temporary file first and are renamed into place, so a
 * crash never leaves a half-written object under a real key.
 */
export function createLocalStore(options: { root: string; publicPath?: string }): MediaStore {
  const root = path.resolve(options.root);
  const publicPath = (options.publicPath ?? "/media").replace(/\/+$/, "");

  function resolveKey(key: string): string {
    assertValidKey(key);
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error(`Chave fora do armazenamento: ${key}`);
    return file;
  }

  return {
    name: "local",
    async isConnected() {
      return true;
    },
    async put(key, body, _contentType) {
      const file = resolveKey(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temp = path.join(root, ".tmp", `${randomUUID()}.part`);
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
  };
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
