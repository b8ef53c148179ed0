/**
 * Files to upload: a noisy JPEG of a given size, a real MP4 made with the app's own ffmpeg, a file of N zero bytes.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { ffmpegPath } from "#app/.server/media/ffmpeg.server.ts";

/**
 * A JPEG of random noise at quality 95. Noise does not compress, so the file is about one byte per pixel
 * (1200×900 ≈ 1.1 MB): big enough for an upload whose progress can be watched.
 */
export async function makeNoisyJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

let mp4: Buffer | null = null;

/** The app's own ffmpeg (@ffmpeg-installer/ffmpeg), the one the server makes posters with. */
function ffmpeg(): string {
  const binary = ffmpegPath();
  if (!binary) throw new Error("@ffmpeg-installer/ffmpeg não tem binário para esta plataforma");
  return binary;
}

/** A real 1-second H.264 MP4 (ffmpeg's test pattern, 320×240), made once per worker. */
export function makeMp4(): Buffer {
  if (mp4) return mp4;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-mp4-"));
  try {
    const file = path.join(dir, "video.mp4");
    execFileSync(
      ffmpeg(),
      ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=1", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-y", file],
      { stdio: "pipe" },
    );
    mp4 = fs.readFileSync(file);
    return mp4;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A file of `bytes` zero bytes at `dir/name`, for setInputFiles by path: a local browser reads it from disk, so
 * even 10 MB costs nothing to hand over (a Buffer would travel through the protocol). The browser derives the
 * file's type from the extension (.jpg → image/jpeg, .png → image/png).
 */
export function sizedFile(dir: string, name: string, bytes: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const handle = fs.openSync(file, "w");
  try {
    fs.ftruncateSync(handle, bytes);
  } finally {
    fs.closeSync(handle);
  }
  return file;
}
