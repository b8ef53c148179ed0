import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { DriveClient } from "./client.server.ts";
import { DriveApiError, driveApiError, isRetryable } from "./errors.server.ts";
import { DRIVE_MAX_ATTEMPTS } from "./client.server.ts";

/** Bodies up to this size go up in one multipart request (Google's advice for "small files, 5 MB or less"). */
export const MULTIPART_MAX_BYTES = 5 * 1024 * 1024;
/** Larger ones go as a resumable upload in chunks of this size (a multiple of 256 KiB, as Drive requires). */
export const RESUMABLE_CHUNK_BYTES = 8 * 1024 * 1024;

/** The Drive file's metadata: its name, type, folder and our key. */
export interface DriveFileMetadata {
  name: string;
  mimeType: string;
  parents?: string[];
  appProperties: Record<string, string>;
}

/**
 * Uploads `body` as a new Drive file and returns its id and size: one multipart request up to 5 MB, a resumable
 * session in 8 MiB chunks above (a stream is read ahead one chunk, so at most two are in memory).
 */
export async function uploadFile(client: DriveClient, metadata: DriveFileMetadata, body: Buffer | Readable): Promise<{ id: string; size: number }> {
  if (Buffer.isBuffer(body) && body.length <= MULTIPART_MAX_BYTES) {
    return { id: await uploadMultipart(client, metadata, body), size: body.length };
  }
  const chunks = chunked(Buffer.isBuffer(body) ? Readable.from([body]) : body, RESUMABLE_CHUNK_BYTES);
  const first = await chunks.next();
  const second = first.done ? first : await chunks.next();
  if (second.done && (first.done || first.value.length <= MULTIPART_MAX_BYTES)) {
    // Small after all: one request.
    const data = first.done ? Buffer.alloc(0) : first.value;
    return { id: await uploadMultipart(client, metadata, data), size: data.length };
  }
  return uploadResumable(client, metadata, replay([first, second], chunks));
}

/** One multipart/related request: the JSON metadata part, then the media part. */
async function uploadMultipart(client: DriveClient, metadata: DriveFileMetadata, data: Buffer): Promise<string> {
  const boundary = `eef-${randomBytes(16).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(metadata)}\r\n` +
        `--${boundary}\r\nContent-Type: ${metadata.mimeType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await client.call("upload", `${client.uploadUrl}?uploadType=multipart&fields=id,name`, {
    method: "POST",
    headers: { "Content-Type": `multipart/related; boundary=${boundary}` },
    body,
  });
  return fileIdFrom(response);
}

/**
 * A resumable upload session: the metadata first, then the bytes in chunks read from `chunks` (one chunk of
 * read-ahead, so the last one can state the total). A failed or cut chunk resumes from what the session holds.
 */
async function uploadResumable(
  client: DriveClient,
  metadata: DriveFileMetadata,
  chunks: AsyncIterator<Buffer>,
): Promise<{ id: string; size: number }> {
  const start = await client.call("resumable upload start", `${client.uploadUrl}?uploadType=resumable&fields=id,name`, {
    method: "POST",
    headers: { "Content-Type": "application/json; charset=UTF-8", "X-Upload-Content-Type": metadata.mimeType },
    body: JSON.stringify(metadata),
  });
  await start.body?.cancel();
  const session = start.headers.get("location");
  if (!session) throw new Error("Google Drive: the resumable upload returned no session address (Location)");

  let offset = 0;
  let current = await chunks.next();
  while (!current.done) {
    const next = await chunks.next();
    const chunk = current.value;
    const last = Boolean(next.done);
    const total = last ? String(offset + chunk.length) : "*";
    let sent = 0;
    for (let attempt = 1; sent < chunk.length; ) {
      const part = chunk.subarray(sent);
      const range = `bytes ${offset + sent}-${offset + chunk.length - 1}/${total}`;
      let response: Response;
      try {
        response = await client.fetch(session, { method: "PUT", headers: { "Content-Range": range }, body: part as Uint8Array<ArrayBuffer> });
      } catch (error) {
        if (attempt++ >= DRIVE_MAX_ATTEMPTS) throw new Error(`Google Drive: uploading a chunk failed: ${(error as Error).message}`, { cause: error });
        await client.sleep(client.backoff(attempt));
        sent = (await persistedBytes(client, session, total)) - offset;
        continue;
      }
      if (response.status === 308) {
        await response.body?.cancel();
        sent = rangeEnd(response.headers.get("range")) - offset;
        if (sent < 0) throw new Error("Google Drive: the upload session lost chunks it had confirmed");
        continue;
      }
      if (response.ok) {
        if (!last || sent + part.length !== chunk.length) {
          await response.body?.cancel();
          throw new Error("Google Drive: the upload finished before its last chunk");
        }
        return { id: await fileIdFrom(response), size: offset + chunk.length };
      }
      const error = await driveApiError("envio do trecho", response);
      if (attempt++ < DRIVE_MAX_ATTEMPTS && isRetryable(error.status, error.reason)) {
        await client.sleep(client.backoff(attempt));
        sent = (await persistedBytes(client, session, total)) - offset;
        continue;
      }
      throw error;
    }
    offset += chunk.length;
    current = next;
  }
  throw new Error("Google Drive: the resumable upload ended without a final answer");
}

/** How many bytes the session holds (status query: an empty PUT with `bytes *\/total`). */
async function persistedBytes(client: DriveClient, session: string, total: string): Promise<number> {
  const response = await client.fetch(session, { method: "PUT", headers: { "Content-Range": `bytes */${total}` }, body: "" });
  await response.body?.cancel();
  if (response.status !== 308) throw new Error(`Google Drive: the upload session status query answered HTTP ${response.status}`);
  return rangeEnd(response.headers.get("range"));
}

async function fileIdFrom(response: Response): Promise<string> {
  const body = (await response.json()) as { id?: unknown };
  if (typeof body.id !== "string" || !body.id) throw new DriveApiError("upload", response.status, null, "answer without the file id");
  return body.id;
}

/** `bytes=0-1048575` → 1048576 (bytes held); no header → 0. */
function rangeEnd(header: string | null): number {
  const match = header ? /bytes=\d+-(\d+)/.exec(header) : null;
  return match ? Number(match[1]) + 1 : 0;
}

/** Re-chunks a byte stream into Buffers of exactly `size` bytes (the last one shorter). */
async function* chunkGenerator(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source as AsyncIterable<Buffer | string>) {
    let data = typeof piece === "string" ? Buffer.from(piece) : piece;
    while (data.length) {
      const take = Math.min(size - pendingBytes, data.length);
      pending.push(data.subarray(0, take));
      pendingBytes += take;
      data = data.subarray(take);
      if (pendingBytes === size) {
        yield Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes) yield Buffer.concat(pending, pendingBytes);
}

function chunked(source: Readable, size: number): AsyncIterator<Buffer> {
  return chunkGenerator(source, size)[Symbol.asyncIterator]();
}

/** An iterator that first gives back `already` (results read ahead), then the rest of `rest`. */
function replay(already: Array<IteratorResult<Buffer>>, rest: AsyncIterator<Buffer>): AsyncIterator<Buffer> {
  const queue = [...already];
  return {
    async next() {
      const head = queue.shift();
      if (head) return head.done ? { done: true, value: undefined } : head;
      return rest.next();
    },
  };
}
