import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError, DiskFullError, diskFullOr } from "#app/.server/errors.ts";
import { UPLOAD_MESSAGES } from "./upload-messages.ts";
import { NEWS_MEDIA_MAX_BYTES, PROFILE_PHOTO_MAX_BYTES, SPONSOR_IMAGE_MAX_BYTES, UPLOAD_FIELD_MAX_BYTES } from "#app/lib/limits.ts";
import { type MediaKind, mediaTypeByExtension } from "./media-types.ts";

export type UploadKind = MediaKind;

/** What one upload field accepts, and the pt-BR texts shown when a file breaks those rules. */
export interface UploadRules {
  /** Largest file accepted, in bytes (a file of exactly this size is accepted). */
  maxBytes: number;
  accept: UploadKind[];
  messages: { tooLarge: string; invalidType: string };
}

/** A file received into a temporary file, with its real type detected from its bytes. */
export interface UploadedFile {
  /** The temporary file holding the bytes. Remove it with `cleanup()` (saveUpload does). */
  path: string;
  size: number;
  /** The name the browser sent, without any folder part ("" when it sent none). */
  originalName: string;
  /** The Content-Type the browser declared for the part. Informative only: never trusted. */
  declaredType: string;
  /** The MIME type detected from the magic bytes (`image/jpeg`, `video/mp4`, `video/quicktime`, …). */
  mimeType: string;
  kind: UploadKind;
  /** Usual extension of the detected type, without the dot (`jpg`, `png`, `mp4`, `mov`, …). */
  extension: string;
  /** Removes the temporary file; safe to call more than once. */
  cleanup(): Promise<void>;
}

export interface ParsedForm {
  /** The text fields (UTF-8). When a name repeats, the first value wins, as `FormData.get` does. */
  fields: Record<string, string>;
  /** The file, or null when none was sent (or the file input was left empty). */
  file: UploadedFile | null;
}

export type UploadErrorCode = "upload_too_large" | "upload_invalid_type" | "upload_corrupt" | "upload_malformed";

const STATUS: Record<UploadErrorCode, number> = {
  upload_too_large: 413,
  upload_invalid_type: 415,
  upload_corrupt: 422,
  upload_malformed: 400,
};

/** An upload refused for the user's file or form; the message is pt-BR and meant to be shown. */
export class UploadError extends AppError {
  override name = "UploadError";
  declare readonly code: UploadErrorCode;
  constructor(code: UploadErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, STATUS[code], options);
  }
}

/** News media: any image or video up to 10 MB (SPEC §5 and §9). */
export const NEWS_MEDIA_RULES: UploadRules = {
  maxBytes: NEWS_MEDIA_MAX_BYTES,
  accept: ["image", "video"],
  messages: { tooLarge: UPLOAD_MESSAGES.newsTooLarge, invalidType: UPLOAD_MESSAGES.newsInvalidType },
};

/** Sponsor logos: images only, up to 5 MB (SPEC §5 and §9). */
export const SPONSOR_IMAGE_RULES: UploadRules = {
  maxBytes: SPONSOR_IMAGE_MAX_BYTES,
  accept: ["image"],
  messages: { tooLarge: UPLOAD_MESSAGES.sponsorTooLarge, invalidType: UPLOAD_MESSAGES.sponsorInvalidType },
};

/** A member's profile photo: images only, up to 5 MB. */
export const PROFILE_PHOTO_RULES: UploadRules = {
  maxBytes: PROFILE_PHOTO_MAX_BYTES,
  accept: ["image"],
  messages: { tooLarge: UPLOAD_MESSAGES.profileTooLarge, invalidType: UPLOAD_MESSAGES.profileInvalidType },
};

/** Default largest text field (the news form, whose body is longer, raises it: NEWS_FIELD_MAX_BYTES). */
export const DEFAULT_MAX_FIELD_BYTES = UPLOAD_FIELD_MAX_BYTES;
/** Default largest number of text fields in one form. */
export const DEFAULT_MAX_FIELDS = 16;
/** Room for the multipart boundaries and part headers on top of the file and the fields. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** File parts tolerated in one form: one real file plus a few empty file inputs. */
const MAX_FILE_PARTS = 4;
const MAX_NAME_LENGTH = 255;

/** The largest request body a form with these limits can legitimately have. */
export function maxRequestBytes(maxBytes: number, maxFieldBytes: number, maxFields: number): number {
  return maxBytes + MULTIPART_OVERHEAD_BYTES + maxFields * (maxFieldBytes + 1024);
}

/**
 * Reads a `multipart/form-data` request as it streams in: the text fields into memory (each bounded), the one file
 * part under `fileField` into a temporary file under `tmpDir` (never into memory). The moment the file passes
 * `rules.maxBytes` the request stops being read, the temporary file is removed and an `upload_too_large` error is
 * thrown; a Content-Length that is already too large is refused before reading anything. The file's real type is
 * then detected from its magic bytes (never from its name or declared type) and checked against `rules.accept`.
 *
 * On success the caller owns the temporary file (`file.cleanup()`, or `media.saveUpload(file)` which cleans up).
 */
export async function parseUploadForm(
  request: Request,
  options: { fileField: string; rules: UploadRules; tmpDir: string; maxFieldBytes?: number; maxFields?: number },
): Promise<ParsedForm> {
  const { fileField, rules, tmpDir } = options;
  const maxFieldBytes = options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
  const maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS;
  const limit = maxRequestBytes(rules.maxBytes, maxFieldBytes, maxFields);

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body || request.bodyUsed) {
    discardBody(request);
    throw new UploadError("upload_malformed", UPLOAD_MESSAGES.malformed);
  }
  const declaredLength = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > limit) {
    discardBody(request);
    throw new UploadError("upload_too_large", rules.messages.tooLarge);
  }

  await fs.mkdir(tmpDir, { recursive: true });
  const received = await receive(request.body, {
    contentType,
    fileField,
    tmpDir,
    rules,
    maxFieldBytes,
    maxFields,
    maxRequestBytes: limit,
  });
  if (!received.file) return { fields: received.fields, file: null };

  const temp = received.file;
  const cleanup = () => fs.rm(temp.path, { force: true });
  try {
    if (temp.size === 0 && !temp.filename) {
      // An empty file input: the browser sends the part with no name and no bytes.
      await cleanup();
      return { fields: received.fields, file: null };
    }
    // file-type is loaded with the first upload, not at start.
    const detected =
      temp.size > 0 ? await import("file-type").then(({ fileTypeFromFile }) => fileTypeFromFile(temp.path)).catch(() => undefined) : undefined;
    const accepted = detected ? mediaTypeByExtension(detected.ext) : undefined;
    if (!accepted || !rules.accept.includes(accepted.kind)) {
      throw new UploadError("upload_invalid_type", rules.messages.invalidType);
    }
    return {
      fields: received.fields,
      file: {
        path: temp.path,
        size: temp.size,
        originalName: temp.filename,
        declaredType: temp.declaredType,
        mimeType: accepted.mimeType,
        kind: accepted.kind,
        extension: accepted.extension,
        cleanup,
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

interface ReceivedFile {
  path: string;
  size: number;
  filename: string;
  declaredType: string;
}

interface ReceiveOptions {
  contentType: string;
  fileField: string;
  tmpDir: string;
  rules: UploadRules;
  maxFieldBytes: number;
  maxFields: number;
  maxRequestBytes: number;
}

type Received = { fields: Record<string, string>; file: ReceivedFile | null };

function receive(body: ReadableStream<Uint8Array>, options: ReceiveOptions): Promise<Received> {
  return new Promise((resolve, reject) => {
    let streams: { source: Readable; parser: busboy.Busboy };
    try {
      streams = openParser(body, options);
    } catch (error) {
      reject(new UploadError("upload_malformed", UPLOAD_MESSAGES.malformed, { cause: error }));
      return;
    }
    new Reception(streams, options, resolve, reject).start();
  });
}

/** The request body as a Node stream and a multipart parser bounded by `options` (not yet connected). */
function openParser(body: ReadableStream<Uint8Array>, options: ReceiveOptions): { source: Readable; parser: busboy.Busboy } {
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  try {
    const parser = busboy({
      headers: { "content-type": options.contentType },
      defParamCharset: "utf8",
      defCharset: "utf8",
      limits: {
        // busboy flags a part as truncated once it *reaches* the limit, so one byte more lets a file or field of
        // exactly the maximum size through and trips only when it is really over.
        fileSize: options.rules.maxBytes + 1,
        files: MAX_FILE_PARTS,
        fields: options.maxFields,
        fieldSize: options.maxFieldBytes + 1,
        fieldNameSize: 200,
        parts: options.maxFields + MAX_FILE_PARTS,
        headerPairs: 20,
      },
    });
    return { source, parser };
  } catch (error) {
    source.destroy();
    throw error;
  }
}

/** One multipart body being read: its fields, its one file being written to a temporary file, and how it ends. */
class Reception {
  private readonly fields = new Map<string, string>();
  private settled = false;
  private tempPath: string | null = null;
  private writing: Promise<void> | null = null;
  private file: ReceivedFile | null = null;
  private bytesRead = 0;

  private readonly source: Readable;
  private readonly parser: busboy.Busboy;
  private readonly options: ReceiveOptions;
  private readonly resolve: (received: Received) => void;
  private readonly reject: (error: unknown) => void;

  constructor(
    streams: { source: Readable; parser: busboy.Busboy },
    options: ReceiveOptions,
    resolve: (received: Received) => void,
    reject: (error: unknown) => void,
  ) {
    this.source = streams.source;
    this.parser = streams.parser;
    this.options = options;
    this.resolve = resolve;
    this.reject = reject;
  }

  start(): void {
    const { parser, source } = this;
    parser.on("field", (name, value, info) => this.onField(name, value, info));
    parser.on("file", (name, stream, info) => this.onFile(name, stream, info));
    parser.on("filesLimit", () => this.malformed(UPLOAD_MESSAGES.tooManyFiles));
    parser.on("fieldsLimit", () => this.malformed(UPLOAD_MESSAGES.fieldsTooLarge));
    parser.on("partsLimit", () => this.malformed(UPLOAD_MESSAGES.fieldsTooLarge));
    parser.on("error", (error: unknown) => this.malformed(UPLOAD_MESSAGES.malformed, error));
    parser.on("close", () => this.onClose());
    source.on("data", (chunk: Buffer) => this.onData(chunk));
    source.on("error", (error: unknown) => this.malformed(UPLOAD_MESSAGES.malformed, error));
    source.pipe(parser);
  }

  /**
   * Stops parsing, removes the temporary file and rejects. The request body is cancelled at once (nothing more is
   * pulled from the client), except when the disk is full: then the rest of a body within the limits is read and
   * thrown away, so the client gets the answer (507) instead of a connection reset.
   */
  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.source.unpipe(this.parser);
    if (error instanceof DiskFullError) this.source.resume();
    else this.source.destroy();
    this.parser.destroy();
    void (async () => {
      try {
        if (this.writing) await this.writing;
        if (this.tempPath) await fs.rm(this.tempPath, { force: true });
      } finally {
        this.reject(error);
      }
    })();
  }

  private malformed(message: string = UPLOAD_MESSAGES.malformed, cause?: unknown): void {
    this.fail(new UploadError("upload_malformed", message, cause === undefined ? undefined : { cause }));
  }

  private tooLarge(): void {
    this.fail(new UploadError("upload_too_large", this.options.rules.messages.tooLarge));
  }

  private onField(name: string, value: string, info: busboy.FieldInfo): void {
    if (this.settled) return;
    if (info.nameTruncated || info.valueTruncated) this.malformed(UPLOAD_MESSAGES.fieldsTooLarge);
    else if (!this.fields.has(name)) this.fields.set(name, value);
  }

  private onFile(name: string, stream: Readable & { truncated?: boolean }, info: busboy.FileInfo): void {
    // Destroying the parser destroys the part's stream with an error; it is handled through `fail`.
    stream.on("error", () => undefined);
    if (this.settled) {
      stream.resume();
      return;
    }
    if (name !== this.options.fileField || this.tempPath !== null) {
      // Only one file is accepted. An extra *empty* file input (no name, no bytes) is harmless.
      if (info.filename) {
        this.malformed(UPLOAD_MESSAGES.tooManyFiles);
        return;
      }
      stream.on("data", (chunk: Buffer) => {
        if (chunk.length > 0) this.malformed(UPLOAD_MESSAGES.tooManyFiles);
      });
      return;
    }
    this.writeFile(stream, info);
  }

  /** Streams the file part into a new temporary file; `file` is set once it is complete and within the limit. */
  private writeFile(stream: Readable & { truncated?: boolean }, info: busboy.FileInfo): void {
    const target = path.join(this.options.tmpDir, `${randomUUID()}.part`);
    this.tempPath = target;
    stream.once("limit", () => this.tooLarge());
    const out = createWriteStream(target, { flags: "wx" });
    this.writing = pipeline(stream, out)
      .then(
        () => {
          if (stream.truncated) return; // the limit handler has already failed the upload
          this.file = { path: target, size: out.bytesWritten, filename: cleanName(info.filename), declaredType: info.mimeType };
        },
        (error: unknown) => {
          // The parser was destroyed (limit, broken form) or the disk refused the write (full: a 507 that says so).
          if (!this.settled) this.fail(diskFullOr(error));
        },
      )
      // Only once the file is closed can it be removed for good (a late open would recreate it).
      .then(() => (out.closed ? undefined : once(out, "close").then(() => undefined)));
  }

  private onClose(): void {
    if (this.settled) return;
    void (this.writing ?? Promise.resolve()).then(() => {
      if (this.settled) return;
      this.settled = true;
      this.resolve({ fields: Object.fromEntries(this.fields), file: this.file });
    });
  }

  private onData(chunk: Buffer): void {
    this.bytesRead += chunk.length;
    // With no (or a false) Content-Length, the body as a whole is still bounded (a body being drained too).
    if (this.bytesRead > this.options.maxRequestBytes) {
      if (this.settled) this.source.destroy();
      else this.tooLarge();
    }
  }
}

/** The browser's file name, without control characters and bounded in length. */
function cleanName(filename: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const name = (filename ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return name.length > MAX_NAME_LENGTH ? name.slice(0, MAX_NAME_LENGTH) : name;
}

/** Tells the client's body stream we will not read it. */
function discardBody(request: Request): void {
  if (request.body && !request.body.locked) request.body.cancel().catch(() => {});
}
