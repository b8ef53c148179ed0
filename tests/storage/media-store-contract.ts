import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediaStore, StoredEntry, StoreOrigins } from "#app/.server/storage/media-store.ts";

export interface StoreUnderTest {
  store: MediaStore;
  /** Removes whatever the store left behind (folders, buckets, clients). */
  cleanup(): Promise<void>;
  /** What the store must say about itself to its callers (the server, the CSP, /readyz). */
  expected: {
    needsConnection: boolean;
    origins: StoreOrigins;
    /** Whether it hands the server a static handler for its files (local disk). */
    staticFiles: boolean;
  };
}

/** Size of the large streamed object: above two 8 MiB parts, and not a multiple of any power of two. */
export const LARGE_OBJECT_SIZE = 20 * 1024 * 1024 + 12_345;

/** Invalid keys every store must refuse before touching anything. */
const INVALID_KEYS = ["../x", "/abs", "A.JPG", "a//b", "a\\b"];

/**
 * The behaviour every `MediaStore` must have (local disk, S3, Google Drive…). `makeStore` is called once for the
 * suite; the store may already hold other objects, so every key used here lives under a folder of its own.
 */
export function describeMediaStoreContract(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`MediaStore contract: ${name}`, () => {
    let subject: StoreUnderTest | undefined;
    const run = randomBytes(6).toString("hex");
    const key = (suffix: string) => `contract-${run}/${suffix}`;
    const store = (): MediaStore => {
      if (!subject) throw new Error("store not created");
      return subject.store;
    };

    beforeAll(async () => {
      subject = await makeStore();
    }, 60_000);
    afterAll(async () => {
      await subject?.cleanup();
    }, 60_000);

    it("is connected", async () => {
      expect(await store().isConnected()).toBe(true);
    });

    it("says whether an admin must connect it", () => {
      expect(store().needsConnection).toBe(subject!.expected.needsConnection);
    });

    it("names the origins the Content-Security-Policy must allow, and every public URL is on the site or one of them", async () => {
      const origins = store().publicOrigins();
      expect(origins).toEqual(subject!.expected.origins);
      for (const origin of [...origins.media, ...origins.forms]) expect(new URL(origin).origin).toBe(origin);
      const url = store().publicUrl(key("origins/800.webp"));
      if (url.startsWith("/")) expect(url.startsWith("//")).toBe(false);
      else expect(origins.media).toContain(new URL(url).origin);
    });

    it("serves its own files to the server when it says it can, and nothing but media files", async () => {
      const files = store().staticFiles?.();
      expect(Boolean(files)).toBe(subject!.expected.staticFiles);
      if (!files) return;
      const bytes = randomBytes(777);
      await store().put(key("static/400.webp"), bytes, "image/webp");
      const app = express();
      app.use(files.path, files.handler);
      app.use((_req, res) => void res.status(404).send("rota"));
      const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
        const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
      });
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const url = store().publicUrl(key("static/400.webp"));
        expect(url.startsWith(`${files.path}/`)).toBe(true);
        const served = await fetch(base + url);
        expect(served.status).toBe(200);
        expect(served.headers.get("content-type")).toBe("image/webp");
        expect(served.headers.get("cache-control")).toContain("immutable");
        expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
        const ranged = await fetch(base + url, { headers: { Range: "bytes=0-9" } });
        expect(ranged.status).toBe(206);
        expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(0, 10))).toBe(true);
        // Not a media type, a dot-folder, a missing file: left to the routes.
        for (const other of [`${files.path}/${key("static/notas.txt")}`, `${files.path}/.tmp/x.part`, `${files.path}/${key("static/nada.webp")}`]) {
          const response = await fetch(base + other);
          expect(response.status, other).toBe(404);
          expect(await response.text(), other).toBe("rota");
        }
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it("stores a Buffer and gives back the same bytes", async () => {
      const bytes = randomBytes(4_321);
      await store().put(key("buffer/400.webp"), bytes, "image/webp");
      const object = await store().get(key("buffer/400.webp"));
      expect(object).not.toBeNull();
      expect(object!.size).toBe(bytes.length);
      expect((await buffer(object!.body)).equals(bytes)).toBe(true);
      expect(await store().stat(key("buffer/400.webp"))).toEqual({ size: bytes.length });
    });

    it("streams a large body in and out without holding it in memory", async () => {
      const source = generatedStream(LARGE_OBJECT_SIZE);
      await store().put(key("large/video.mp4"), source.stream, "video/mp4");
      expect(source.sent()).toBe(LARGE_OBJECT_SIZE);
      expect(await store().stat(key("large/video.mp4"))).toEqual({ size: LARGE_OBJECT_SIZE });

      const object = await store().get(key("large/video.mp4"));
      expect(object?.size).toBe(LARGE_OBJECT_SIZE);
      const back = createHash("sha256");
      let received = 0;
      for await (const chunk of object!.body as AsyncIterable<Buffer>) {
        back.update(chunk);
        received += chunk.length;
      }
      expect(received).toBe(LARGE_OBJECT_SIZE);
      expect(back.digest("hex")).toBe(source.sha256());
    }, 120_000);

    it("serves byte ranges with the size of the whole object", async () => {
      const bytes = randomBytes(1_000);
      await store().put(key("ranges/800.jpg"), bytes, "image/jpeg");
      for (const range of [
        { start: 0, end: 9 },
        { start: 100, end: 199 },
        { start: 999, end: 999 },
      ]) {
        const object = await store().get(key("ranges/800.jpg"), range);
        expect(object, JSON.stringify(range)).not.toBeNull();
        expect(object!.size).toBe(bytes.length);
        const part = await buffer(object!.body);
        expect(part.equals(bytes.subarray(range.start, range.end + 1)), JSON.stringify(range)).toBe(true);
      }
    });

    it("answers null for a key that does not exist", async () => {
      expect(await store().get(key("missing/400.webp"))).toBeNull();
      expect(await store().get(key("missing/400.webp"), { start: 0, end: 9 })).toBeNull();
      expect(await store().stat(key("missing/400.webp"))).toBeNull();
    });

    it("deletes objects, and deleting a missing key is not an error", async () => {
      await store().put(key("delete/400.webp"), Buffer.from("apagar"), "image/webp");
      expect(await store().stat(key("delete/400.webp"))).toEqual({ size: 6 });
      await store().delete(key("delete/400.webp"));
      expect(await store().get(key("delete/400.webp"))).toBeNull();
      expect(await store().stat(key("delete/400.webp"))).toBeNull();
      await expect(store().delete(key("delete/400.webp"))).resolves.toBeUndefined();
      await expect(store().delete(key("never/existed.mp4"))).resolves.toBeUndefined();
    });

    it("lists every key put, with its size, and nothing deleted", async () => {
      const put = { "list/a/400.webp": 3, "list/a/800.jpg": 10, "list/b.mp4": 1 };
      for (const [suffix, size] of Object.entries(put)) await store().put(key(suffix), randomBytes(size), "image/webp");
      await store().put(key("list/gone.webp"), Buffer.from("x"), "image/webp");
      await store().delete(key("list/gone.webp"));

      const listed: StoredEntry[] = [];
      for await (const entry of store().list()) {
        if (entry.key.startsWith(key("list/"))) listed.push(entry);
      }
      listed.sort((a, b) => a.key.localeCompare(b.key));
      expect(listed.map((entry) => [entry.key, entry.size])).toEqual(
        Object.entries(put)
          .map(([suffix, size]) => [key(suffix), size])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      for (const entry of listed) {
        expect(entry.modifiedAt).toBeInstanceOf(Date);
        expect(Math.abs(entry.modifiedAt.getTime() - Date.now())).toBeLessThan(5 * 60_000);
      }
    });

    it("refuses keys it could never have generated", async () => {
      for (const bad of INVALID_KEYS) {
        await expect(store().put(bad, Buffer.from("x"), "image/jpeg"), bad).rejects.toThrow();
        await expect(store().get(bad), bad).rejects.toThrow();
        await expect(store().get(bad, { start: 0, end: 0 }), bad).rejects.toThrow();
        await expect(store().stat(bad), bad).rejects.toThrow();
        await expect(store().delete(bad), bad).rejects.toThrow();
      }
    });

    it("replaces the content when a key is written again", async () => {
      await store().put(key("overwrite/400.webp"), Buffer.from("primeira versão"), "image/webp");
      const second = Buffer.from("segunda");
      await store().put(key("overwrite/400.webp"), second, "image/webp");
      const object = await store().get(key("overwrite/400.webp"));
      expect(object?.size).toBe(second.length);
      expect((await buffer(object!.body)).equals(second)).toBe(true);
      expect(await store().stat(key("overwrite/400.webp"))).toEqual({ size: second.length });
    });

    it("gives a public URL that names the key", () => {
      const url = store().publicUrl(key("url/800.jpg"));
      expect(typeof url).toBe("string");
      expect(url).toContain(key("url/800.jpg"));
    });
  });
}

/**
 * A byte stream of `size` random bytes made chunk by chunk as it is read (never held whole), with the SHA-256 of
 * what was sent.
 */
export function generatedStream(size: number, chunkSize = 64 * 1024) {
  const hash = createHash("sha256");
  let sent = 0;
  let digest: string | undefined;
  const stream = new Readable({
    read() {
      if (sent >= size) {
        this.push(null);
        return;
      }
      const chunk = randomBytes(Math.min(chunkSize, size - sent));
      hash.update(chunk);
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return {
    stream,
    sent: () => sent,
    sha256: () => (digest ??= hash.digest("hex")),
  };
}
