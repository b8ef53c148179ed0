import { type ProcessedImage, processImage, MAX_INPUT_PIXELS } from "./image-variants.server.ts";
import { runFfmpeg } from "./ffmpeg.server.ts";
import { mediaTypeByMimeType } from "./media-types.ts";

/** What ffmpeg reads from an uploaded video: a poster frame (already in variants, like an image) and its length. */
export interface VideoPoster {
  /** The frame as JPEG and WebP variants (`processImage`); its width and height are the video's, as displayed. */
  image: ProcessedImage;
  durationMs: number | null;
}

/**
 * Options before `-i` that every run on an uploaded file gets: only the file itself may be read, with the demuxer of
 * its type (the type comes from the file's magic bytes, see upload.server.ts), never one ffmpeg guesses.
 */
function inputArgs(mimeType: string): string[] {
  const demuxer = mediaTypeByMimeType(mimeType)?.demuxer;
  if (!demuxer) throw new Error(`no known demuxer for video type ${mimeType}`);
  return ["-hide_banner", "-nostdin", "-protocol_whitelist", "file", "-f", demuxer];
}

/** `Duration: 00:01:02.50` in ffmpeg's description of its input, in milliseconds; null when absent or N/A. */
export function parseDurationMs(description: string): number | null {
  const match = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(description);
  if (!match) return null;
  const ms = Math.round(((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000);
  return Number.isFinite(ms) ? ms : null;
}

/** The first video stream's coded size (`Video: h264 …, 1280x720 …`), or null. */
export function parseFrameSize(description: string): { width: number; height: number } | null {
  const match = /Stream #[^\n]*Video: [^\n]*?, (\d{1,5})x(\d{1,5})\b/.exec(description);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null;
}

/**
 * Reads a stored video file with ffmpeg: its duration, and one frame (at a quarter of the clip, at most 1 s in:
 * past a fade-in, still the opening shot) re-encoded by `processImage` into the same variants as an image; the
 * frame's size is the video's width and height. Throws when no frame can be decoded; the caller stores the video
 * without a poster then.
 */
export async function makeVideoPoster(path: string, mimeType: string): Promise<VideoPoster> {
  const input = inputArgs(mimeType);
  // With no output named, ffmpeg describes the input on stderr and exits with an error: that is the probe.
  const probe = await runFfmpeg([...input, "-i", `file:${path}`], { timeoutMs: 15_000, maxOutputBytes: 0 });
  const durationMs = parseDurationMs(probe.stderr);
  const size = parseFrameSize(probe.stderr);
  if (!size) throw new Error(`no readable video track: ${lastLine(probe.stderr)}`);
  if (size.width * size.height > MAX_INPUT_PIXELS) throw new Error(`frame too large: ${size.width}x${size.height}`);

  const seconds = durationMs ? Math.min(1, durationMs / 4000) : 0;
  let frame = await grabFrame(input, path, seconds);
  if (frame.length === 0 && seconds > 0) frame = await grabFrame(input, path, 0);
  if (frame.length === 0) throw new Error("no frame decoded");
  return { image: await processImage(frame), durationMs };
}

async function grabFrame(input: string[], path: string, seconds: number): Promise<Buffer> {
  const result = await runFfmpeg(
    [
      ...input,
      "-ss",
      seconds.toFixed(3),
      "-i",
      `file:${path}`,
      "-map",
      "0:v:0",
      "-frames:v",
      "1",
      "-an",
      "-sn",
      "-dn",
      "-threads",
      "1",
      "-f",
      "image2pipe",
      "-c:v",
      "mjpeg",
      "-q:v",
      "2",
      "-v",
      "error",
      "pipe:1",
    ],
    { timeoutMs: 30_000 },
  );
  if (result.code !== 0) throw new Error(`ffmpeg failed (${result.code}): ${lastLine(result.stderr)}`);
  return result.stdout;
}

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1)?.slice(0, 300) ?? "";
}
