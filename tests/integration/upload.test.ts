import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ffmpegPath } from "#app/.server/media/ffmpeg.server.ts";
import type { StoredVariant } from "#app/.server/media/media-keys.ts";
import { UPLOAD_MESSAGES } from "#app/.server/media/upload-messages.ts";
import {
  DEFAULT_MAX_FIELD_BYTES,
  DEFAULT_MAX_FIELDS,
  maxRequestBytes,
  NEWS_MEDIA_RULES,
  parseUploadForm,
  SPONSOR_IMAGE_RULES,
  UploadError,
  type UploadRules,
} from "#app/.server/media/upload.server.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { countRows } from "#tests/factories/services.ts";
import { type TestServices, useScratchDirs, useTestServices } from "#tests/factories/use-services.ts";

// The app's own ffmpeg (@ffmpeg-installer/ffmpeg): no system package needed. Only a platform it ships no binary for
// (none of Linux/macOS on x64/arm64) would skip the video cases.
const FFMPEG = ffmpegPath() ?? "";
const hasFfmpeg = FFMPEG !== "";

const open = useTestServices("eef-upload-");
const scratchDir = useScratchDirs("eef-upload-scratch-");

/** Every regular file under `dir`, relative, with forward slashes ([] when dir is missing). */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
    .map((entry) => entry.split(path.sep).join("/"))
    .sort();
}

const tmpOf = (services: TestServices) => path.join(services.dataDir, "tmp", "uploads");
const mediaDir = (services: TestServices) => path.join(services.dataDir, "media");
const mediaCount = (services: TestServices) => countRows(services, "media");

/** Nothing of a refused upload may remain: no temporary file, no stored file, no record. */
async function expectNothingStored(services: TestServices) {
  expect(listFiles(tmpOf(services))).toEqual([]);
  expect(listFiles(mediaDir(services))).toEqual([]);
  expect(await mediaCount(services)).toBe(0);
}

/** A POST of `form`, encoded by the platform exactly as `fetch` would send it. */
function formRequest(form: FormData): Request {
  return new Request("http://localhost/api/news", { method: "POST", body: form });
}

function formWith(file: Blob | null, name = "arquivo", fields: Record<string, string> = {}, fieldName = "media"): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append(fieldName, file, name);
  return form;
}

async function parse(services: TestServices, request: Request, rules: UploadRules = NEWS_MEDIA_RULES, fileField = "media") {
  return parseUploadForm(request, { fileField, rules, tmpDir: tmpOf(services) });
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<UploadError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome, "expected the upload to be refused").toBeInstanceOf(UploadError);
  return outcome as UploadError;
}

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

/** A short real video made by ffmpeg, in the container the extension names. */
function makeVideo(extension: "mp4" | "mov" | "avi" | "webm"): Buffer {
  const dir = scratchDir();
  const out = path.join(dir, `teste.${extension}`);
  const codec: Record<typeof extension, string[]> = {
    mp4: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
    mov: ["-c:v", "libx264", "-pix_fmt", "yuv420p"],
    avi: ["-c:v", "mpeg4"],
    webm: ["-c:v", "libvpx", "-b:v", "200k"],
  };
  execFileSync(FFMPEG, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=1", ...codec[extension], out]);
  return fs.readFileSync(out);
}

/**
 * A multipart body sent as a stream, one chunk per pull, so the test can see how much of it the parser read.
 * The file part holds `fileBytes` bytes: a real JPEG first, then filler.
 */
function streamedUpload(options: { fileBytes: number; chunkBytes: number; contentLength?: number }) {
  const boundary = `----eef-limite-${Date.now().toString(36)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nTítulo grande\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="enorme.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const stats = { pulls: 0, bytesPulled: 0, cancelled: false, total: head.length + options.fileBytes + tail.length };
  let fileSent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        stats.pulls++;
        let chunk: Buffer;
        if (stats.pulls === 1) chunk = head;
        else if (fileSent < options.fileBytes) {
          const size = Math.min(options.chunkBytes, options.fileBytes - fileSent);
          chunk = Buffer.alloc(size, 0x5a);
          if (fileSent === 0) Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(chunk);
          fileSent += size;
        } else {
          controller.enqueue(new Uint8Array(tail));
          stats.bytesPulled += tail.length;
          controller.close();
          return;
        }
        stats.bytesPulled += chunk.length;
        controller.enqueue(new Uint8Array(chunk));
      },
      cancel() {
        stats.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const headers: Record<string, string> = { "content-type": `multipart/form-data; boundary=${boundary}` };
  if (options.contentLength !== undefined) headers["content-length"] = String(options.contentLength);
  const request = new Request("http://localhost/api/news", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { request, stats };
}

describe("parseUploadForm + saveUpload: accepted files", () => {
  it("accepts a JPEG, reads the UTF-8 fields and stores it through the image pipeline", async () => {
    const services = await open();
    const jpeg = await makeTestImage(1000, 600, "jpeg");
    const form = formWith(new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "Gol do título.jpg", {
      title: "Vitória épica no Maracanã",
      category: "Futebol",
    });
    const { fields, file } = await parse(services, formRequest(form));

    expect(fields).toEqual({ title: "Vitória épica no Maracanã", category: "Futebol" });
    expect(file).not.toBeNull();
    expect(file).toMatchObject({
      size: jpeg.length,
      originalName: "Gol do título.jpg",
      declaredType: "image/jpeg",
      mimeType: "image/jpeg",
      kind: "image",
      extension: "jpg",
    });
    expect(path.dirname(file!.path)).toBe(tmpOf(services));
    expect(file!.path).toMatch(/[0-9a-f-]{36}\.part$/);
    expect(fs.readFileSync(file!.path)).toEqual(jpeg);

    const row = await services.media.saveUpload(file!);
    expect(row).toMatchObject({ kind: "image", mime_type: "image/jpeg", width: 1000, height: 600, size_bytes: jpeg.length });
    expect(row.original_name).toBe("Gol do título.jpg");
    expect(fs.existsSync(file!.path)).toBe(false); // the temporary file is gone
    expect(listFiles(tmpOf(services))).toEqual([]);
    const keys = (JSON.parse(row.variants) as StoredVariant[]).map((variant) => variant.key).sort();
    expect(keys.length).toBe(6);
    expect(listFiles(mediaDir(services))).toEqual(keys);
    expect(await mediaCount(services)).toBe(1);
  });

  it("accepts a PNG and keeps PNG next to WebP", async () => {
    const services = await open();
    const png = await makeTestImage(500, 500, "png");
    const { file } = await parse(
      services,
      formRequest(formWith(new Blob([new Uint8Array(png)], { type: "image/png" }), "logo.png")),
      SPONSOR_IMAGE_RULES,
    );
    expect(file).toMatchObject({ kind: "image", mimeType: "image/png", extension: "png", size: png.length });
    const row = await services.media.saveUpload(file!);
    expect(row.mime_type).toBe("image/png");
    expect((JSON.parse(row.variants) as StoredVariant[]).map((variant) => variant.format).sort()).toEqual(["png", "png", "webp", "webp"]);
    expect(listFiles(tmpOf(services))).toEqual([]);
  });

  it("accepts an animated GIF and it stays animated", async () => {
    const services = await open();
    const frames = await Promise.all(
      ["#c00", "#0c0", "#00c", "#cc0"].map((background) =>
        sharp({ create: { width: 480, height: 270, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [150, 150, 150, 150], loop: 0 })
      .toBuffer();
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(4);

    const { file } = await parse(services, formRequest(formWith(new Blob([new Uint8Array(gif)], { type: "image/gif" }), "lance.gif")));
    expect(file).toMatchObject({ kind: "image", mimeType: "image/gif", extension: "gif" });
    const row = await services.media.saveUpload(file!);
    expect(row.mime_type).toBe("image/gif");
    expect([row.width, row.height]).toEqual([480, 270]);
    const gifVariants = (JSON.parse(row.variants) as StoredVariant[]).filter((variant) => variant.format === "gif");
    expect(gifVariants.length).toBeGreaterThan(0);
    for (const variant of gifVariants) {
      const meta = await sharp(path.join(mediaDir(services), variant.key), { animated: true }).metadata();
      expect(meta.format).toBe("gif");
      expect(meta.pages, variant.key).toBe(4);
    }
  });

  it("accepts a file of exactly the size limit", async () => {
    const services = await open();
    const jpeg = await makeTestImage(300, 200, "jpeg");
    const rules: UploadRules = { ...NEWS_MEDIA_RULES, maxBytes: jpeg.length };
    const { file } = await parse(services, formRequest(formWith(new Blob([new Uint8Array(jpeg)]), "limite.jpg")), rules);
    expect(file?.size).toBe(jpeg.length);
    await file!.cleanup();
    await file!.cleanup(); // twice is fine
    expect(listFiles(tmpOf(services))).toEqual([]);
  });

  // Videos are made with the app's ffmpeg; the image cases need no external tool.
  it.skipIf(!hasFfmpeg)("accepts a real MP4 and streams it into the store unchanged", async () => {
    const services = await open();
    const mp4 = makeVideo("mp4");
    const { file } = await parse(services, formRequest(formWith(new Blob([new Uint8Array(mp4)], { type: "video/mp4" }), "melhores lances.mp4")));
    expect(file).toMatchObject({ kind: "video", mimeType: "video/mp4", extension: "mp4", size: mp4.length, originalName: "melhores lances.mp4" });
    const row = await services.media.saveUpload(file!);
    // With its poster frame (made by ffmpeg): the video's size and length, JPEG and WebP variants stored beside it.
    expect(row).toMatchObject({ kind: "video", mime_type: "video/mp4", size_bytes: mp4.length, width: 320, height: 240 });
    expect(row.duration_ms).toBeGreaterThanOrEqual(900);
    expect(row.duration_ms).toBeLessThanOrEqual(1100);
    const poster = JSON.parse(row.variants) as StoredVariant[];
    expect(poster.map((variant) => `${variant.format} ${variant.width}x${variant.height}`).sort()).toEqual(["jpeg 320x240", "webp 320x240"]);
    expect(row.key).toMatch(/^[a-f0-9]{12}\/vid\/[a-f0-9]{24}-[a-f0-9]{8}\.mp4$/);
    expect(fs.readFileSync(path.join(mediaDir(services), row.key))).toEqual(mp4);
    for (const variant of poster) {
      expect(variant.key).toMatch(/^[a-f0-9]{12}\/img\/[a-f0-9]{24}-[a-f0-9]{8}\/320\.(jpg|webp)$/);
      const meta = await sharp(fs.readFileSync(path.join(mediaDir(services), variant.key))).metadata();
      expect(meta).toMatchObject({ format: variant.format, width: 320, height: 240 });
    }
    expect(listFiles(tmpOf(services))).toEqual([]);
    expect(listFiles(mediaDir(services)).sort()).toEqual([row.key, ...poster.map((variant) => variant.key)].sort());
    // Deleting the media removes the poster's files too.
    await services.media.deleteMedia(row.id);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });

  it.skipIf(!hasFfmpeg).each([
    ["mov", "video/quicktime"],
    ["avi", "video/x-msvideo"],
    ["webm", "video/webm"],
  ] as const)("detects a real .%s as %s", async (extension, mimeType) => {
    const services = await open();
    const video = makeVideo(extension);
    // The browser's declared type is deliberately useless: detection uses the bytes.
    const { file } = await parse(
      services,
      formRequest(formWith(new Blob([new Uint8Array(video)], { type: "application/octet-stream" }), `clipe.${extension}`)),
    );
    expect(file).toMatchObject({ kind: "video", mimeType, extension });
    const row = await services.media.saveUpload(file!);
    expect(row.key.endsWith(`.${extension}`)).toBe(true);
    expect(listFiles(tmpOf(services))).toEqual([]);
  });

  it("an empty file input (no name, no bytes) means no file", async () => {
    const services = await open();
    const form = formWith(new Blob([], { type: "application/octet-stream" }), "", { title: "Sem mídia" });
    const { fields, file } = await parse(services, formRequest(form));
    expect(file).toBeNull();
    expect(fields.title).toBe("Sem mídia");
    // A form with no file part at all is the same.
    expect((await parse(services, formRequest(formWith(null, "", { title: "x" })))).file).toBeNull();
    expect(listFiles(tmpOf(services))).toEqual([]);
  });
});

describe("parseUploadForm: type detection from the magic bytes", () => {
  it("refuses a text file renamed .jpg", async () => {
    const services = await open();
    const text = new Blob(["isto é só um texto, não uma foto"], { type: "image/jpeg" });
    const error = await rejectionOf(parse(services, formRequest(formWith(text, "foto.jpg"))));
    expect(error.code).toBe("upload_invalid_type");
    expect(error.status).toBe(415);
    expect(error.message).toBe("Por favor, selecione um arquivo de imagem ou vídeo válido.");
    await expectNothingStored(services);

    const sponsor = await rejectionOf(parse(services, formRequest(formWith(text, "logo.jpg")), SPONSOR_IMAGE_RULES));
    expect(sponsor.message).toBe("Por favor, selecione apenas arquivos de imagem válidos (JPG, PNG, etc.).");
    await expectNothingStored(services);
  });

  it("refuses a type that is neither an accepted image nor video (a PDF, an SVG)", async () => {
    const services = await open();
    const pdf = new Blob(["%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"], { type: "image/png" });
    expect((await rejectionOf(parse(services, formRequest(formWith(pdf, "a.png"))))).code).toBe("upload_invalid_type");
    const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'], { type: "image/svg+xml" });
    expect((await rejectionOf(parse(services, formRequest(formWith(svg, "a.svg"))))).code).toBe("upload_invalid_type");
    await expectNothingStored(services);
  });

  it("a PNG sent as video/mp4 is an image: accepted with image rules, refused with video-only rules", async () => {
    const services = await open();
    const png = await makeTestImage(320, 240, "png");
    const disguised = () => formRequest(formWith(new Blob([new Uint8Array(png)], { type: "video/mp4" }), "clipe.mp4"));

    const { file } = await parse(services, disguised());
    expect(file).toMatchObject({ kind: "image", mimeType: "image/png", extension: "png", declaredType: "video/mp4" });
    const row = await services.media.saveUpload(file!);
    expect(row.kind).toBe("image");
    expect(row.mime_type).toBe("image/png");

    const videoOnly: UploadRules = { ...NEWS_MEDIA_RULES, accept: ["video"] };
    const error = await rejectionOf(parse(services, disguised(), videoOnly));
    expect(error.code).toBe("upload_invalid_type");
    expect(listFiles(tmpOf(services))).toEqual([]);
    expect(await mediaCount(services)).toBe(1); // only the first, accepted one
  });

  it.skipIf(!hasFfmpeg)("a sponsor logo must be an image: a real MP4 is refused", async () => {
    const services = await open();
    const mp4 = makeVideo("mp4");
    const error = await rejectionOf(
      parse(services, formRequest(formWith(new Blob([new Uint8Array(mp4)], { type: "image/png" }), "logo.png")), SPONSOR_IMAGE_RULES),
    );
    expect(error.code).toBe("upload_invalid_type");
    await expectNothingStored(services);
  });
});

describe("parseUploadForm: size limits", () => {
  it("stops reading a streamed body as soon as the file passes the limit, and leaves nothing behind", async () => {
    const services = await open();
    const limit = 1024 * 1024;
    const chunkBytes = 64 * 1024;
    const { request, stats } = streamedUpload({ fileBytes: 32 * 1024 * 1024, chunkBytes });
    const rules: UploadRules = { ...NEWS_MEDIA_RULES, maxBytes: limit };

    const error = await rejectionOf(parse(services, request, rules));
    expect(error.code).toBe("upload_too_large");
    expect(error.status).toBe(413);
    expect(error.message).toBe("O arquivo é muito grande. Por favor, selecione um arquivo menor que 10MB.");

    console.info(`[limite] ${stats.pulls} leituras, ${stats.bytesPulled} de ${stats.total} bytes puxados`);
    // 32 MiB were offered in 513 chunks; the parser pulled about 1 MiB (16 chunks) plus a little read-ahead.
    expect(stats.pulls).toBeLessThan(limit / chunkBytes + 8);
    expect(stats.bytesPulled).toBeLessThan(limit + 8 * chunkBytes);
    expect(stats.bytesPulled).toBeLessThan(stats.total / 10);
    expect(stats.cancelled).toBe(true);
    await expectNothingStored(services);

    // Nothing more is pulled afterwards either: a cancelled stream's source is never pulled again (the Streams
    // standard), so a turn of the event loop, for any pull already queued to show, is all there is to wait.
    const pulls = stats.pulls;
    await new Promise((resolve) => setImmediate(resolve));
    expect(stats.pulls).toBe(pulls);
  });

  it("refuses a Content-Length over the limit before reading the body", async () => {
    const services = await open();
    const declared = 20 * 1024 * 1024;
    expect(declared).toBeGreaterThan(maxRequestBytes(NEWS_MEDIA_RULES.maxBytes, DEFAULT_MAX_FIELD_BYTES, DEFAULT_MAX_FIELDS));
    const { request, stats } = streamedUpload({ fileBytes: declared - 400, chunkBytes: 64 * 1024, contentLength: declared });
    const error = await rejectionOf(parse(services, request));
    expect(error.code).toBe("upload_too_large");
    expect(error.message).toBe(NEWS_MEDIA_RULES.messages.tooLarge);
    expect(stats.pulls).toBe(0);
    expect(stats.cancelled).toBe(true);
    await expectNothingStored(services);
  });

  it("refuses a file over the limit sent as an ordinary form (sponsor: 5 MB)", async () => {
    const services = await open();
    const big = new Uint8Array(SPONSOR_IMAGE_RULES.maxBytes + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const error = await rejectionOf(parse(services, formRequest(formWith(new Blob([big], { type: "image/png" }), "logo.png")), SPONSOR_IMAGE_RULES));
    expect(error.code).toBe("upload_too_large");
    expect(error.message).toBe("O arquivo é muito grande. Por favor, selecione uma imagem menor que 5MB.");
    await expectNothingStored(services);
  });
});

describe("parseUploadForm: malformed requests", () => {
  it("refuses a request that is not multipart", async () => {
    const services = await open();
    const json = new Request("http://localhost/api/news", {
      method: "POST",
      body: JSON.stringify({ title: "x" }),
      headers: { "content-type": "application/json" },
    });
    const error = await rejectionOf(parse(services, json));
    expect(error.code).toBe("upload_malformed");
    expect(error.status).toBe(400);
    expect(error.message).toBe(UPLOAD_MESSAGES.malformed);
    const noBoundary = new Request("http://localhost/api/news", { method: "POST", body: "x", headers: { "content-type": "multipart/form-data" } });
    expect((await rejectionOf(parse(services, noBoundary))).code).toBe("upload_malformed");
  });

  it("refuses a multipart body cut off in the middle of the file, removing the partial file", async () => {
    const services = await open();
    const jpeg = await makeTestImage(800, 600, "jpeg");
    const boundary = "----eef-cortado";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      jpeg.subarray(0, jpeg.length / 2),
    ]);
    const request = new Request("http://localhost/api/news", {
      method: "POST",
      body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect((await rejectionOf(parse(services, request))).code).toBe("upload_malformed");
    await expectNothingStored(services);
  });

  it("refuses two files, or a file under another field", async () => {
    const services = await open();
    const jpeg = new Blob([new Uint8Array(await makeTestImage(200, 200, "jpeg"))], { type: "image/jpeg" });
    const two = new FormData();
    two.append("media", jpeg, "a.jpg");
    two.append("media", jpeg, "b.jpg");
    const error = await rejectionOf(parse(services, formRequest(two)));
    expect(error.code).toBe("upload_malformed");
    expect(error.message).toBe(UPLOAD_MESSAGES.tooManyFiles);

    const elsewhere = formWith(jpeg, "a.jpg", {}, "outro");
    expect((await rejectionOf(parse(services, formRequest(elsewhere)))).code).toBe("upload_malformed");
    await expectNothingStored(services);
  });

  it("refuses a field over the field limit, and too many fields", async () => {
    const services = await open();
    const long = formWith(null, "", { fullContent: "á".repeat(70_000) }); // 140 000 bytes of UTF-8
    const error = await rejectionOf(
      parseUploadForm(formRequest(long), { fileField: "media", rules: NEWS_MEDIA_RULES, tmpDir: tmpOf(services), maxFieldBytes: 100_000 }),
    );
    expect(error.code).toBe("upload_malformed");
    expect(error.message).toBe(UPLOAD_MESSAGES.fieldsTooLarge);
    // Exactly at the limit is fine.
    const exact = formWith(null, "", { fullContent: "a".repeat(100_000) });
    const parsed = await parseUploadForm(formRequest(exact), {
      fileField: "media",
      rules: NEWS_MEDIA_RULES,
      tmpDir: tmpOf(services),
      maxFieldBytes: 100_000,
    });
    expect(parsed.fields.fullContent!.length).toBe(100_000);

    const many: Record<string, string> = {};
    for (let i = 0; i < 5; i++) many[`campo${i}`] = "x";
    const tooMany = await rejectionOf(
      parseUploadForm(formRequest(formWith(null, "", many)), { fileField: "media", rules: NEWS_MEDIA_RULES, tmpDir: tmpOf(services), maxFields: 4 }),
    );
    expect(tooMany.code).toBe("upload_malformed");
  });
});

describe("saveUpload: images that cannot be processed", () => {
  it("refuses a truncated JPEG as corrupt and stores nothing", async () => {
    const services = await open();
    const jpeg = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 50 } },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    const { file } = await parse(services, formRequest(formWith(new Blob([new Uint8Array(truncated)], { type: "image/jpeg" }), "cortada.jpg")));
    expect(file).toMatchObject({ kind: "image", mimeType: "image/jpeg" }); // the magic bytes are right...

    const error = await rejectionOf(services.media.saveUpload(file!)); // ...but it cannot be decoded to the end
    expect(error.code).toBe("upload_corrupt");
    expect(error.status).toBe(422);
    expect(error.message).toBe(UPLOAD_MESSAGES.corruptImage);
    await expectNothingStored(services);
  });

  it("refuses a 20000×20000 PNG decompression bomb without decoding it (memory stays bounded)", async () => {
    const services = await open();
    const bomb = decompressionBombPng();
    expect(bomb.length).toBeLessThan(10_000);

    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 2);
    let error: UploadError;
    try {
      const { file } = await parse(services, formRequest(formWith(new Blob([new Uint8Array(bomb)], { type: "image/png" }), "bomba.png")));
      expect(file).toMatchObject({ kind: "image", mimeType: "image/png" });
      error = await rejectionOf(services.media.saveUpload(file!));
    } finally {
      clearInterval(sampler);
    }
    const after = process.memoryUsage().rss;
    peak = Math.max(peak, after);
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    console.info(`[bomba] RSS antes ${mb(before)} MB, pico ${mb(peak)} MB, depois ${mb(after)} MB (+${mb(peak - before)} MB no pico)`);

    expect(error.code).toBe("upload_too_large");
    expect(error.message).toBe("A imagem tem dimensões grandes demais para ser processada.");
    // Decoding it would need 400 MB (one byte per pixel) at the very least.
    expect(peak - before).toBeLessThan(200 * 1024 * 1024);
    expect(after - before).toBeLessThan(200 * 1024 * 1024);
    await expectNothingStored(services);
  });

  it("removes the temporary file even when storing fails", async () => {
    const services = await open();
    const jpeg = await makeTestImage(400, 300, "jpeg");
    const { file } = await parse(services, formRequest(formWith(new Blob([new Uint8Array(jpeg)]), "a.jpg")));
    const put = services.store.put;
    services.store.put = async () => {
      throw new Error("disco cheio");
    };
    try {
      await expect(services.media.saveUpload(file!)).rejects.toThrow("disco cheio");
    } finally {
      services.store.put = put;
    }
    await expectNothingStored(services);
  });
});
