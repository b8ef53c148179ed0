import { spawn } from "node:child_process";
import { createRequire } from "node:module";

let bundled: string | null | undefined;

/**
 * The ffmpeg that reads uploaded videos: `FFMPEG_PATH` when set (a maintained system build such as Debian's
 * `/usr/bin/ffmpeg`; the configuration checks it is executable), else the static build of the
 * `@ffmpeg-installer/ffmpeg` package (no system ffmpeg needed; old, see docs/decisions/009-ffmpeg.md). The demo
 * video, the video posters and the tests all go through here. Null when neither exists; the package is loaded at run
 * time, so the server bundle never inlines its file lookup.
 */
export function ffmpegPath(): string | null {
  const configured = process.env.FFMPEG_PATH?.trim();
  if (configured) return configured;
  return bundledFfmpegPath();
}

/** The binary inside `@ffmpeg-installer/ffmpeg`'s platform package, or null when it has none for this platform. */
export function bundledFfmpegPath(): string | null {
  if (bundled !== undefined) return bundled;
  try {
    const installer = createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path?: unknown };
    bundled = typeof installer.path === "string" ? installer.path : null;
  } catch {
    bundled = null;
  }
  return bundled;
}

export interface FfmpegResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs ffmpeg with `args` (never through a shell), collecting its output; killed after `timeoutMs`. Standard output
 * is capped at `maxOutputBytes` (more kills it: a poster frame is far smaller). Rejects when ffmpeg is missing.
 */
export function runFfmpeg(args: string[], { timeoutMs = 30_000, maxOutputBytes = 16 * 1024 * 1024 } = {}): Promise<FfmpegResult> {
  const binary = ffmpegPath();
  if (!binary) return Promise.reject(new Error("ffmpeg is not available on this platform"));
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs, killSignal: "SIGKILL" });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutputBytes) child.kill("SIGKILL");
      else out.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      // Only the start matters (the input's description); keep memory bounded.
      if (err.length < 64 * 1024) err += chunk;
    });
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (signal) reject(new Error(`ffmpeg killed (${signal})`));
      else resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
  });
}
