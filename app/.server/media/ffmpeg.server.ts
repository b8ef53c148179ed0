import { spawn } from "node:child_process";
import { createRequire } from "node:module";

let resolved: string | null | undefined;

/**
 * The ffmpeg binary of the `@ffmpeg-installer/ffmpeg` package (its platform package ships a static build: no system
 * ffmpeg needed). The demo video, the video posters and the tests all use this one. Null when the package has no
 * binary for this platform; the package is loaded at run time, so the server bundle never inlines its file lookup.
 */
export function ffmpegPath(): string | null {
  if (resolved !== undefined) return resolved;
  try {
    const installer = createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path?: unknown };
    resolved = typeof installer.path === "string" ? installer.path : null;
  } catch {
    resolved = null;
  }
  return resolved;
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
