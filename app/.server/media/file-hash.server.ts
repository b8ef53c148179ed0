import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { MediaStore } from "#app/.server/storage/media-store.ts";

export interface FileHash {
  /** SHA-256, hex. */
  hash: string;
  size: number;
}

/** The SHA-256 and size of a file on disk, read as a stream. */
export async function hashFile(path: string): Promise<FileHash> {
  const hash = createHash("sha256");
  let size = 0;
  await pipeline(createReadStream(path), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
    }
  });
  return { hash: hash.digest("hex"), size };
}

/**
 * Streams a file on disk into the store under `key`, checking on the way that its bytes are still the ones `expected`
 * describes (its hash went into the key); when they are not, the object is removed again and this throws.
 */
export async function putFileUnchanged(store: MediaStore, key: string, filePath: string, mimeType: string, expected: FileHash): Promise<void> {
  const check = createHash("sha256");
  let streamed = 0;
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      check.update(chunk);
      streamed += chunk.length;
      callback(null, chunk);
    },
  });
  const source = createReadStream(filePath);
  source.once("error", (error) => tee.destroy(error));
  await store.put(key, source.pipe(tee), mimeType);
  if (streamed !== expected.size || check.digest("hex") !== expected.hash) {
    await store.delete(key).catch(() => undefined);
    throw new Error("the video changed while it was being stored");
  }
}
