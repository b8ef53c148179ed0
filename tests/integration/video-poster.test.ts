import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledFfmpegPath, ffmpegPath } from "#app/.server/media/ffmpeg.server.ts";
import { createMediaService } from "#app/.server/media/media.service.server.ts";
import type { StoredVariant } from "#app/.server/media/media-keys.ts";
import { toMediaView } from "#app/.server/media/media-view.server.ts";
import { makeVideoPoster, parseDurationMs, parseFrameSize } from "#app/.server/media/video-poster.server.ts";
import { previewImage } from "#app/lib/seo.ts";
import { useScratchDirs, useTestServices } from "#tests/factories/use-services.ts";

const FFMPEG = ffmpegPath();
const open = useTestServices("eef-poster-");
const scratchDir = useScratchDirs("eef-poster-files-");

/** A real clip from the app's ffmpeg: `seconds` long, `size` (WxH), H.264 in MP4. */
function makeClip(size: string, seconds: number, extra: string[] = []): { file: string; bytes: Buffer } {
  const dir = scratchDir();
  const file = path.join(dir, "clip.mp4");
  execFileSync(FFMPEG!, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=s=${size}:d=${seconds}`,
    "-pix_fmt",
    "yuv420p",
    ...extra,
    "-c:v",
    "libx264",
    file,
  ]);
  return { file, bytes: fs.readFileSync(file) };
}

const site = { url: "https://esporte.example" };

/** Debian's maintained build, which an operator names with FFMPEG_PATH (`.ci/run` installs it). */
const SYSTEM_FFMPEG = "/usr/bin/ffmpeg";
const hasSystemFfmpeg = fs.existsSync(SYSTEM_FFMPEG);

describe("the app's ffmpeg", () => {
  it("comes from @ffmpeg-installer/ffmpeg and runs here (no system ffmpeg needed)", () => {
    expect(FFMPEG).toMatch(/node_modules\/@ffmpeg-installer\/[a-z0-9-]+\/ffmpeg$/);
    expect(execFileSync(FFMPEG!, ["-version"]).toString()).toMatch(/^ffmpeg version/);
  });

  it("is FFMPEG_PATH when set", () => {
    const before = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = "/opt/ffmpeg/bin/ffmpeg";
    try {
      expect(ffmpegPath()).toBe("/opt/ffmpeg/bin/ffmpeg");
      expect(bundledFfmpegPath()).toBe(FFMPEG);
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = before;
    }
  });
});

// The same checks with each binary: the bundled one, and Debian's when this machine has it.
const binaries: Array<[string, string | undefined]> = [["the bundled ffmpeg", undefined]];
if (hasSystemFfmpeg) binaries.push([`FFMPEG_PATH=${SYSTEM_FFMPEG}`, SYSTEM_FFMPEG]);

describe.each(binaries)("makeVideoPoster with %s", (_name, configured) => {
  const before = process.env.FFMPEG_PATH;
  beforeAll(() => {
    if (configured) process.env.FFMPEG_PATH = configured;
  });
  afterAll(() => {
    if (before === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = before;
  });

  it("runs the binary asked for", () => {
    expect(ffmpegPath()).toBe(configured ?? FFMPEG);
  });

  it("reads the duration and a frame the size of the video, as JPEG and WebP variants", async () => {
    const { file } = makeClip("960x540", 2);
    const poster = await makeVideoPoster(file, "video/mp4");
    expect(poster.durationMs).toBe(2000);
    expect(poster.image).toMatchObject({ width: 960, height: 540, format: "jpeg" });
    expect(poster.image.variants.map((variant) => `${variant.format} ${variant.width}x${variant.height}`).sort()).toEqual([
      "jpeg 400x225",
      "jpeg 800x450",
      "jpeg 960x540",
      "webp 400x225",
      "webp 800x450",
      "webp 960x540",
    ]);
  });

  it("refuses what is not a decodable video of the declared type", async () => {
    const dir = scratchDir();
    const junk = path.join(dir, "junk.mp4");
    fs.writeFileSync(junk, Buffer.concat([Buffer.from("000000186674797069736f6d", "hex"), Buffer.alloc(4000, 7)]));
    await expect(makeVideoPoster(junk, "video/mp4")).rejects.toThrow();
    // A playlist pointing at a local file, uploaded as "MP4": read as MP4 only, so the other file is never opened.
    const playlist = path.join(dir, "playlist.mp4");
    fs.writeFileSync(playlist, `#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:1.0,\n${makeClip("320x240", 1).file}\n#EXT-X-ENDLIST\n`);
    await expect(makeVideoPoster(playlist, "video/mp4")).rejects.toThrow();
  });

  it("parses ffmpeg's description of its input", () => {
    const text =
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'a.mp4':\n  Duration: 00:01:02.50, start: 0.000000, bitrate: 98 kb/s\n" +
      "    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080 [SAR 1:1 DAR 16:9], 95 kb/s, 25 fps\n";
    expect(parseDurationMs(text)).toBe(62_500);
    expect(parseFrameSize(text)).toEqual({ width: 1920, height: 1080 });
    expect(parseDurationMs("  Duration: N/A, bitrate: N/A")).toBeNull();
    expect(parseFrameSize("    Stream #0:0: Audio: aac, 44100 Hz, stereo")).toBeNull();
  });
});

describe("saving videos", () => {
  it("an uploaded video gets its poster beside it; pages use it as poster and link-preview picture", async () => {
    const services = await open();
    const { bytes } = makeClip("1280x720", 1);
    const row = await services.media.saveVideo(bytes, "video/mp4", "lances.mp4");
    expect(row).toMatchObject({ kind: "video", width: 1280, height: 720, duration_ms: 1000 });
    const stored = await services.database.db.selectFrom("media").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ width: 1280, height: 720, duration_ms: 1000 });
    const variants = JSON.parse(stored.variants) as StoredVariant[];
    // 400, 800, 1200 and 1280 px wide, each in JPEG and WebP.
    expect(variants).toHaveLength(8);
    for (const variant of variants) {
      const meta = await sharp(path.join(services.dataDir, "media", variant.key)).metadata();
      expect(meta).toMatchObject({ format: variant.format, width: variant.width });
    }

    const view = toMediaView(
      {
        media_store: stored.store,
        media_kind: stored.kind,
        media_key: stored.key,
        media_mime_type: stored.mime_type,
        media_width: stored.width,
        media_height: stored.height,
        media_variants: stored.variants,
      },
      services.store,
    );
    const webp800 = variants.find((variant) => variant.format === "webp" && variant.width === 800)!;
    const jpeg1200 = variants.find((variant) => variant.format === "jpeg" && variant.width === 1200)!;
    expect(view).toMatchObject({
      kind: "video",
      src: services.store.publicUrl(stored.key),
      poster: services.store.publicUrl(webp800.key),
      width: 1280,
    });
    expect(previewImage(site, view)).toEqual({
      url: `https://esporte.example${services.store.publicUrl(jpeg1200.key)}`,
      width: 1200,
      height: 675,
      type: "image/jpeg",
    });

    // Deleting the media removes the video and every poster file.
    await services.media.deleteMedia(row.id);
    const left = fs
      .readdirSync(path.join(services.dataDir, "media"), { recursive: true })
      .filter((entry) => fs.statSync(path.join(services.dataDir, "media", String(entry))).isFile());
    expect(left).toEqual([]);
  });

  it("a video whose poster cannot be made is still stored, without a poster, and the failure is logged", async () => {
    const services = await open();
    const warnings: Array<{ context: unknown; message: string }> = [];
    const media = createMediaService({
      db: services.database.db,
      store: services.store,
      log: { warn: ((context: unknown, message: string) => warnings.push({ context, message })) as never },
    });
    const bytes = Buffer.concat([Buffer.from("000000186674797069736f6d", "hex"), Buffer.alloc(4000, 7)]);
    const row = await media.saveVideo(bytes, "video/mp4", "quebrado.mp4");
    expect(row).toMatchObject({ kind: "video", width: null, height: null, duration_ms: null, variants: "[]" });
    expect(fs.readFileSync(path.join(services.dataDir, "media", row.key))).toEqual(bytes);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/poster could not be made/);
    expect(warnings[0]?.context).toMatchObject({ mediaId: row.id, mimeType: "video/mp4" });
  });

  it("a video stored before posters (no variants, no size) keeps working: no poster, the branded preview card", async () => {
    const services = await open();
    const view = toMediaView(
      {
        media_store: "local",
        media_kind: "video",
        media_key: "abc/vid/old.mp4",
        media_mime_type: "video/mp4",
        media_width: null,
        media_height: null,
        media_variants: "[]",
      },
      services.store,
    );
    expect(view).toMatchObject({ kind: "video", src: services.store.publicUrl("abc/vid/old.mp4"), poster: null, srcSet: null, width: null });
    expect(previewImage(site, view).url).toBe("https://esporte.example/images/og-padrao.png");
  });
});
