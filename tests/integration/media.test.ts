import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { StoredVariant } from "#app/.server/media/media-keys.ts";
import { createLocalStore } from "#app/.server/storage/local-store.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { countRows, makeDataDir } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-media-");

/** Every regular file under `dir`, as paths relative to it with forward slashes ([] when dir is missing). */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
    .map((entry) => entry.split(path.sep).join("/"))
    .sort();
}

const mediaDir = (services: TestServices) => path.join(services.dataDir, "media");
const variantsOf = (row: { variants: string }) => JSON.parse(row.variants) as StoredVariant[];
const mediaCount = (services: TestServices) => countRows(services, "media");

/** A PNG header announcing a 20000×20000 grey image (400 M pixels) followed by a tiny data chunk. */
function decompressionBombPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(20_001 * 4))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("saveImage", () => {
  it("records the media row and stores WebP + JPEG variants under DATA_DIR/media", async () => {
    const services = await open();
    const input = await makeTestImage(1200, 675, "jpeg");
    const before = Date.now();
    const row = await services.media.saveImage(input, "foto.jpg");

    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.kind).toBe("image");
    expect(row.store).toBe("local");
    // <installation id>/img/<content hash>-<record id>/<width>.<ext>: the installation's mark comes first.
    const installation = await services.installation.id();
    expect(row.key).toMatch(new RegExp(`^${installation}/img/[a-f0-9]{24}-[a-f0-9]{8}/800\\.jpg$`));
    expect(row.mime_type).toBe("image/jpeg");
    expect(row.size_bytes).toBe(input.length);
    expect(row.width).toBe(1200);
    expect(row.height).toBe(675);
    expect(row.original_name).toBe("foto.jpg");
    expect(Date.parse(row.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(row.created_at).toISOString()).toBe(row.created_at);

    const folder = `${installation}/img/${row.key.split("/")[2]!}`;
    const variants = variantsOf(row);
    expect(variants).toEqual([
      { width: 400, height: 225, format: "webp", mimeType: "image/webp", key: `${folder}/400.webp` },
      { width: 400, height: 225, format: "jpeg", mimeType: "image/jpeg", key: `${folder}/400.jpg` },
      { width: 800, height: 450, format: "webp", mimeType: "image/webp", key: `${folder}/800.webp` },
      { width: 800, height: 450, format: "jpeg", mimeType: "image/jpeg", key: `${folder}/800.jpg` },
      { width: 1200, height: 675, format: "webp", mimeType: "image/webp", key: `${folder}/1200.webp` },
      { width: 1200, height: 675, format: "jpeg", mimeType: "image/jpeg", key: `${folder}/1200.jpg` },
    ]);

    // The row is in the database as returned.
    const stored = await services.database.db.selectFrom("media").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect({ ...stored, size_bytes: Number(stored.size_bytes) }).toEqual(row);

    // Exactly the listed keys exist on disk (no temporary leftovers), each in its format and size.
    expect(listFiles(mediaDir(services))).toEqual(variants.map((variant) => variant.key).sort());
    for (const variant of variants) {
      const meta = await sharp(path.join(mediaDir(services), variant.key)).metadata();
      expect(meta.format).toBe(variant.format);
      expect(meta.width).toBe(variant.width);
      expect(meta.height).toBe(variant.height);
    }
  });

  it("keeps PNG as the original format next to WebP", async () => {
    const services = await open();
    const row = await services.media.saveImage(await makeTestImage(900, 900, "png"), null);
    expect(row.mime_type).toBe("image/png");
    expect(row.key).toMatch(/^[a-f0-9]{12}\/img\/[a-f0-9]{24}-[a-f0-9]{8}\/800\.png$/);
    expect(row.original_name).toBeNull();
    const variants = variantsOf(row);
    expect(variants.map((variant) => `${variant.width}.${variant.format}`)).toEqual([
      "400.webp",
      "400.png",
      "800.webp",
      "800.png",
      "900.webp",
      "900.png",
    ]);
    for (const variant of variants) {
      const meta = await sharp(path.join(mediaDir(services), variant.key)).metadata();
      expect(meta.format).toBe(variant.format);
    }
  });

  it("makes 1200 px (link previews) and 1600 px variants when the original is wide enough", async () => {
    const services = await open();
    const row = await services.media.saveImage(await makeTestImage(1700, 850), "larga.jpg");
    expect([...new Set(variantsOf(row).map((variant) => variant.width))]).toEqual([400, 800, 1200, 1600]);
    expect(row.key).toMatch(/\/800\.jpg$/);
  });

  it("announces every variant with its real pixel width, even for an image smaller than 400 px", async () => {
    const services = await open();
    const row = await services.media.saveImage(await makeTestImage(300, 200, "jpeg"), "pequena.jpg");
    expect(row.width).toBe(300);
    const variants = variantsOf(row);
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      const meta = await sharp(path.join(mediaDir(services), variant.key)).metadata();
      expect(meta.width).toBe(300); // never enlarged
      expect(variant.width, `variant ${variant.key} is 300 px wide but recorded as ${variant.width}`).toBe(meta.width);
    }
  });

  it("keys carry the content hash, and every save gets its own folder", async () => {
    const input = await makeTestImage(640, 360);
    const other = await makeTestImage(640, 360);
    const a = await open();
    const b = await open();
    const first = await a.media.saveImage(input, "a.jpg");
    const again = await b.media.saveImage(Buffer.from(input), "b.jpg");
    const different = await a.media.saveImage(other, "c.jpg");
    const hashOf = (key: string) => key.split("/")[2]!.split("-")[0];
    expect(hashOf(again.key)).toBe(hashOf(first.key));
    expect(again.key).not.toBe(first.key);
    expect(hashOf(different.key)).not.toBe(hashOf(first.key));
  });

  it("saving the same bytes twice works and never deletes the files of the first save", async () => {
    const services = await open();
    const input = await makeTestImage(640, 360);
    const first = await services.media.saveImage(input, "logo.jpg");
    const firstKeys = variantsOf(first).map((variant) => variant.key);

    const second = await services.media.saveImage(Buffer.from(input), "logo-de-novo.jpg").then(
      (row) => row,
      (error: unknown) => error as Error,
    );
    // The first record's files must survive whatever happens to the second save.
    for (const key of firstKeys) {
      expect(fs.existsSync(path.join(mediaDir(services), key)), `${key} was deleted`).toBe(true);
    }
    expect(await services.database.db.selectFrom("media").select("id").where("id", "=", first.id).executeTakeFirst()).toBeDefined();
    // And uploading the same picture again (e.g. the same photo on two news items) succeeds.
    expect(second).not.toBeInstanceOf(Error);
    const secondKeys = variantsOf(second as typeof first).map((variant) => variant.key);
    expect(secondKeys.filter((key) => firstKeys.includes(key))).toEqual([]);
    for (const key of secondKeys) expect(fs.existsSync(path.join(mediaDir(services), key)), key).toBe(true);
  });

  it("drops EXIF and GPS metadata from every variant", async () => {
    const services = await open();
    const input = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#2a7" } })
      .jpeg()
      .withMetadata({
        exif: {
          IFD0: { Copyright: "Fotografo X", Artist: "Fulano" },
          IFD3: { GPSLatitudeRef: "S", GPSLatitude: "23/1 33/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "46/1 38/1 0/1" },
        },
      })
      .toBuffer();
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.exif).toBeDefined(); // the test input really carries EXIF
    expect(inputMeta.exif!.toString("latin1")).toContain("Fotografo X");
    expect(inputMeta.exif!.toString("latin1")).toContain("Fulano");

    const row = await services.media.saveImage(input, "com-exif.jpg");
    const variants = variantsOf(row);
    expect(variants.length).toBe(6); // 400, 800 and 900 (the original width), in WebP and JPEG
    for (const variant of variants) {
      const file = path.join(mediaDir(services), variant.key);
      const meta = await sharp(file).metadata();
      expect(meta.exif, variant.key).toBeUndefined();
      const bytes = fs.readFileSync(file).toString("latin1");
      expect(bytes).not.toContain("Fulano");
      expect(bytes).not.toContain("Fotografo X");
    }
  });

  it("applies the EXIF orientation (6: rotated 90°), swapping width and height", async () => {
    const services = await open();
    // Left half red, right half blue, stored sideways with orientation 6 (the stored left edge is the top).
    const input = await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#ff0000" } })
      .composite([
        {
          input: await sharp({ create: { width: 500, height: 500, channels: 3, background: "#0000ff" } })
            .png()
            .toBuffer(),
          left: 500,
          top: 0,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const inputMeta = await sharp(input).metadata();
    expect([inputMeta.width, inputMeta.height, inputMeta.orientation]).toEqual([1000, 500, 6]);

    const row = await services.media.saveImage(input, "deitada.jpg");
    expect(row.width).toBe(500);
    expect(row.height).toBe(1000);
    const variants = variantsOf(row);
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      const file = path.join(mediaDir(services), variant.key);
      const meta = await sharp(file).metadata();
      expect(meta.height!, variant.key).toBeGreaterThan(meta.width!);
      expect(meta.height).toBe(variant.height);
      expect(meta.orientation ?? 1).toBe(1);
      const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
      const [topR, , topB] = pixel(Math.floor(info.width / 2), Math.floor(info.height / 4));
      const [bottomR, , bottomB] = pixel(Math.floor(info.width / 2), Math.floor((info.height * 3) / 4));
      expect(topR!).toBeGreaterThan(200);
      expect(topB!).toBeLessThan(60);
      expect(bottomB!).toBeGreaterThan(200);
      expect(bottomR!).toBeLessThan(60);
    }
  });

  it("keeps an animated GIF animated", async () => {
    const services = await open();
    const frames = await Promise.all(
      ["#e11", "#1e1", "#11e"].map((background) =>
        sharp({ create: { width: 640, height: 480, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const input = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [200, 200, 200], loop: 0 })
      .toBuffer();
    const inputMeta = await sharp(input, { animated: true }).metadata();
    expect(inputMeta.pages).toBe(3);

    const row = await services.media.saveImage(input, "animacao.gif");
    expect(row.mime_type).toBe("image/gif");
    expect(row.width).toBe(640);
    expect(row.height).toBe(480); // one frame, not the whole strip
    const variants = variantsOf(row);
    const gif = variants.find((variant) => variant.format === "gif");
    expect(gif).toBeDefined();
    expect(gif!.key).toMatch(/\.gif$/);
    const gifMeta = await sharp(path.join(mediaDir(services), gif!.key), { animated: true }).metadata();
    expect(gifMeta.format).toBe("gif");
    expect(gifMeta.pages).toBeGreaterThan(1);
    expect(gifMeta.pages).toBe(3);
    expect(gifMeta.width).toBe(400);
    expect(gifMeta.pageHeight).toBe(300);
    const webp = variants.find((variant) => variant.format === "webp");
    const webpMeta = await sharp(path.join(mediaDir(services), webp!.key), { animated: true }).metadata();
    expect(webpMeta.pages).toBe(3);
  });

  it("rejects a decompression bomb (20000×20000) and stores nothing", async () => {
    const services = await open();
    const bomb = decompressionBombPng();
    expect(bomb.length).toBeLessThan(10_000);
    const header = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([header.width, header.height, header.format]).toEqual([20_000, 20_000, "png"]);

    await expect(services.media.saveImage(bomb, "bomba.png")).rejects.toThrow();
    expect(await mediaCount(services)).toBe(0);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });

  it("rejects bytes that are not an image and stores nothing", async () => {
    const services = await open();
    await expect(services.media.saveImage(Buffer.from("isto não é uma imagem"), "falsa.jpg")).rejects.toThrow();
    expect(await mediaCount(services)).toBe(0);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });

  it("deletes the written files again when the database insert fails", async () => {
    const services = await open();
    // PostgreSQL refuses to drop a table others refer to unless told to cascade; SQLite has no CASCADE keyword.
    await (services.database.dialect === "postgres" ? sql`drop table media cascade` : sql`drop table media`).execute(services.database.db);
    const put = vi.spyOn(services.store, "put");
    await expect(services.media.saveImage(await makeTestImage(1000, 600), "foto.jpg")).rejects.toThrow(/media/);
    expect(put).toHaveBeenCalledTimes(6); // 400/800/1000 × WebP/JPEG were written before the insert failed...
    expect(listFiles(mediaDir(services))).toEqual([]); // ...and removed again
    await expect(services.media.saveVideo(Buffer.from("video-falso"), "video/mp4", "v.mp4")).rejects.toThrow(/media/);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });
});

describe("saveVideo", () => {
  it("stores the video as it is under vid/<hash>.<ext> and records it", async () => {
    const services = await open();
    const bytes = Buffer.from("conteúdo de um mp4 de teste");
    const row = await services.media.saveVideo(bytes, "video/mp4", "lances.mp4");
    expect(row).toMatchObject({
      kind: "video",
      store: "local",
      mime_type: "video/mp4",
      size_bytes: bytes.length,
      width: null,
      height: null,
      variants: "[]",
      original_name: "lances.mp4",
    });
    expect(row.key).toMatch(/^[a-f0-9]{12}\/vid\/[a-f0-9]{24}-[a-f0-9]{8}\.mp4$/);
    expect(fs.readFileSync(path.join(mediaDir(services), row.key))).toEqual(bytes);
    const mov = await services.media.saveVideo(Buffer.from("outro"), "video/quicktime", "a.mov");
    expect(mov.key).toMatch(/\.mov$/);
    const webm = await services.media.saveVideo(Buffer.from("mais um"), "video/webm", "a.webm");
    expect(webm.key).toMatch(/\.webm$/);
    expect(await mediaCount(services)).toBe(3);
  });

  it("saving the same video bytes twice works and never deletes the first file", async () => {
    const services = await open();
    const bytes = Buffer.from("o mesmo vídeo enviado duas vezes");
    const first = await services.media.saveVideo(bytes, "video/mp4", "a.mp4");
    const second = await services.media.saveVideo(Buffer.from(bytes), "video/mp4", "b.mp4").then(
      (row) => row,
      (error: unknown) => error as Error,
    );
    expect(fs.existsSync(path.join(mediaDir(services), first.key)), `${first.key} was deleted`).toBe(true);
    expect(second).not.toBeInstanceOf(Error);
    expect((second as typeof first).key).not.toBe(first.key);
    expect(fs.existsSync(path.join(mediaDir(services), (second as typeof first).key))).toBe(true);
  });
});

describe("local store", () => {
  let base: string;
  let root: string;
  let store: MediaStore;

  beforeAll(() => {
    base = makeDataDir("eef-store-");
    root = path.join(base, "media");
    store = createLocalStore({ root });
  });
  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  const read = async (object: { body: Readable } | null) => Buffer.concat(await object!.body.toArray());

  it("is the always-connected 'local' store", async () => {
    expect(store.name).toBe("local");
    expect(await store.isConnected()).toBe(true);
  });

  it("puts, gets, stats and deletes an object", async () => {
    await store.put("img/abc123/400.webp", Buffer.from("abcdefghij"), "image/webp");
    expect(fs.readFileSync(path.join(root, "img/abc123/400.webp"), "utf8")).toBe("abcdefghij");
    const object = await store.get("img/abc123/400.webp");
    expect(object!.size).toBe(10);
    expect((await read(object)).toString()).toBe("abcdefghij");
    expect(await store.stat("img/abc123/400.webp")).toEqual({ size: 10 });

    await store.delete("img/abc123/400.webp");
    expect(await store.stat("img/abc123/400.webp")).toBeNull();
    expect(await store.get("img/abc123/400.webp")).toBeNull();
    expect(fs.existsSync(path.join(root, "img/abc123/400.webp"))).toBe(false);
  });

  it("reads a byte range (both ends inclusive) and reports the whole size", async () => {
    await store.put("vid/range.mp4", Buffer.from("0123456789"), "video/mp4");
    const object = await store.get("vid/range.mp4", { start: 2, end: 5 });
    expect(object!.size).toBe(10);
    expect((await read(object)).toString()).toBe("2345");
    expect((await read(await store.get("vid/range.mp4", { start: 9, end: 9 }))).toString()).toBe("9");
  });

  it("accepts a stream body and replaces an existing object", async () => {
    await store.put("vid/stream.mp4", Readable.from([Buffer.from("parte-1 "), Buffer.from("parte-2")]), "video/mp4");
    expect((await read(await store.get("vid/stream.mp4"))).toString()).toBe("parte-1 parte-2");
    await store.put("vid/stream.mp4", Buffer.from("novo"), "video/mp4");
    expect((await read(await store.get("vid/stream.mp4"))).toString()).toBe("novo");
    // No temporary files are left behind.
    expect(listFiles(root).filter((file) => file.endsWith(".part"))).toEqual([]);
  });

  it("returns null for a missing key and deletes a missing key without error", async () => {
    expect(await store.get("img/nada/400.webp")).toBeNull();
    expect(await store.stat("img/nada/400.webp")).toBeNull();
    await expect(store.delete("img/nada/400.webp")).resolves.toBeUndefined();
  });

  it("builds public URLs under /media (or the configured path)", () => {
    expect(store.publicUrl("img/abc/800.jpg")).toBe("/media/img/abc/800.jpg");
    expect(createLocalStore({ root, publicPath: "/arquivos/" }).publicUrl("vid/x.mp4")).toBe("/arquivos/vid/x.mp4");
  });

  it.each([
    "../fora.txt",
    "img/../../fora.txt",
    "img/..",
    "/etc/passwd",
    "/tmp/fora.txt",
    "IMG/a.jpg",
    "img/Foto.jpg",
    "img\\a.jpg",
    "..\\fora.txt",
    "./a.jpg",
    ".tmp/x.part",
    "img//a.jpg",
    "",
  ])("refuses the key %j", async (key) => {
    await expect(store.put(key, Buffer.from("x"), "text/plain")).rejects.toThrow(/invalid media key|outside the store/);
    await expect(store.get(key)).rejects.toThrow();
    await expect(store.stat(key)).rejects.toThrow();
    await expect(store.delete(key)).rejects.toThrow();
    expect(() => store.publicUrl(key)).toThrow();
    expect(fs.existsSync(path.join(base, "fora.txt"))).toBe(false);
  });

  it("the app's store keeps media under DATA_DIR/media", async () => {
    const services = await open();
    await services.store.put("vid/onde.mp4", Buffer.from("x"), "video/mp4");
    expect(fs.existsSync(path.join(services.dataDir, "media", "vid", "onde.mp4"))).toBe(true);
    expect(services.config.media).toMatchObject({ store: "local", dir: path.join(services.dataDir, "media") });
  });
});
