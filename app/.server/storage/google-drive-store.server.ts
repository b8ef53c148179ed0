import { randomBytes } from "node:crypto";
import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Kysely } from "kysely";
import type { GoogleDriveConfig } from "../config/env.server.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import { createDriveConnection, type DriveConnection } from "./drive-connection.server.ts";
import { DriveApiError, DriveNotConnectedError, driveApiError, isRetryable } from "./drive-errors.server.ts";
import { assertValidKey, type ByteRange, isValidKey, type MediaStore, type StoredEntry, type StoredObject } from "./media-store.ts";

/** Bodies up to this size go up in one multipart request (Google's advice for "small files, 5 MB or less"). */
export const MULTIPART_MAX_BYTES = 5 * 1024 * 1024;
/** Larger ones go as a resumable upload in chunks of this size (a multiple of 256 KiB, as Drive requires). */
export const RESUMABLE_CHUNK_BYTES = 8 * 1024 * 1024;
/** Attempts for a request Drive answers with a rate limit or a server error (exponential backoff in between). */
export const DRIVE_MAX_ATTEMPTS = 4;
const BACKOFF_BASE_MS = 250;
/** The default thumbnail width of the original product (w800 in its fallback). */
export const DEFAULT_THUMBNAIL_WIDTH = 400;

/** Our key → Drive file id (table created by migration 2026-11-22-002-drive-files). */
export interface DriveFilesTable {
  key: string;
  file_id: string;
  size: number;
  created_at: string;
}
type DriveDatabase = Database & { drive_files: DriveFilesTable };

export interface GoogleDriveStoreOptions {
  db: Kysely<Database>;
  config: GoogleDriveConfig;
  /** The app secret (encrypts the refresh token at rest); not needed when `connection` is given. */
  secret?: string;
  connection?: DriveConnection;
  log?: Pick<Logger, "info" | "warn" | "error">;
  fetch?: typeof fetch;
  /** Waits between retries (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
  /** Clock for the connection's token expiry (tests). */
  now?: () => number;
}

export interface GoogleDriveStore extends MediaStore {
  readonly name: "gdrive";
  /** The OAuth connection behind the store (connect, disconnect, status). */
  readonly connection: DriveConnection;
  /** The Drive file id holding `key`, or null. */
  fileId(key: string): Promise<string | null>;
  /**
   * Drive's own thumbnail of a stored file (`https://drive.google.com/thumbnail?id=…&sz=w400`), as the original
   * product used; null when the key is unknown. Our pages do not need it (images have generated variants), and
   * Drive draws it only for files shared with the viewer (ours are readable by anyone with the link).
   */
  thumbnailUrl(key: string, width?: number): Promise<string | null>;
}

/** The Drive store behind `store`, or null for another store. */
export function asGoogleDriveStore(store: MediaStore): GoogleDriveStore | null {
  return store.name === "gdrive" && "connection" in store ? (store as GoogleDriveStore) : null;
}

/**
 * Media in the newsroom's Google Drive (Drive v3 REST, scope drive.file), the original product's storage, driven
 * from the server: files are uploaded (multipart up to 5 MB, resumable above) into the configured folder, made
 * readable by anyone with the link (permission reader/anyone), streamed back with byte ranges (`alt=media`) through
 * our `/media/*` route, and deleted. Drive names files by id, so `drive_files` maps our keys to ids; `stat` and
 * `list` read that table only.
 *
 * Not connected (no admin consent yet, or a revoked token): `isConnected()` is false and every call that needs
 * Drive throws DriveNotConnectedError.
 */
export function createGoogleDriveStore(options: GoogleDriveStoreOptions): GoogleDriveStore {
  const { config, log } = options;
  const db = options.db as unknown as Kysely<DriveDatabase>;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  if (!options.connection && !options.secret) throw new Error("createGoogleDriveStore: informe `connection` ou `secret`");
  const connection =
    options.connection ??
    createDriveConnection({ db: options.db, config, secret: options.secret!, log, fetch: doFetch, ...(options.now ? { now: options.now } : {}) });
  const filesUrl = `${config.apiUrl}/drive/v3/files`;
  const uploadUrl = `${config.uploadUrl}/upload/drive/v3/files`;

  /**
   * A Drive call with the connection's bearer token. A 401 drops the token and, when the request can be sent again
   * (`replayable`), retries once with a refreshed one; a 401 after that forgets the credentials (not connected).
   * Rate limits and server errors are retried with backoff (replayable requests only). Errors become DriveApiError;
   * the returned response is OK or one of `allow` (e.g. 404), with its body unread.
   */
  async function call(
    operation: string,
    url: string,
    init: RequestInit,
    { replayable = true, allow = [] as number[] } = {},
  ): Promise<Response> {
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const token = await connection.accessToken();
      const headers = new Headers(init.headers);
      headers.set("Authorization", `Bearer ${token}`);
      let response: Response;
      try {
        response = await doFetch(url, { ...init, headers });
      } catch (error) {
        if (replayable && attempt < DRIVE_MAX_ATTEMPTS) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new Error(`Google Drive: ${operation} falhou: ${(error as Error).message}`, { cause: error });
      }
      if (response.ok || allow.includes(response.status)) return response;
      const error = await driveApiError(operation, response);
      if (response.status === 401) {
        connection.rejectToken(token);
        if (refreshed) {
          await connection.fail(`${operation}: 401 com um token recém-renovado`);
          throw new DriveNotConnectedError();
        }
        if (replayable) {
          refreshed = true;
          continue;
        }
        throw error;
      }
      if (replayable && attempt < DRIVE_MAX_ATTEMPTS && isRetryable(error.status, error.reason)) {
        log?.warn({ status: error.status, reason: error.reason, attempt }, `Google Drive ${operation}: retrying`);
        await sleep(backoff(attempt));
        continue;
      }
      throw error;
    }
  }

  async function row(key: string): Promise<DriveFilesTable | null> {
    assertValidKey(key);
    return (await db.selectFrom("drive_files").selectAll().where("key", "=", key).executeTakeFirst()) ?? null;
  }

  function metadata(key: string, contentType: string) {
    return {
      name: key,
      mimeType: contentType,
      ...(config.folderId ? { parents: [config.folderId] } : {}),
      appProperties: { eefKey: key },
    };
  }

  /** One multipart/related request: the JSON metadata part, then the media part. */
  async function uploadMultipart(key: string, data: Buffer, contentType: string): Promise<string> {
    const boundary = `eef-${randomBytes(16).toString("hex")}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(metadata(key, contentType))}\r\n` +
          `--${boundary}\r\nContent-Type: ${contentType}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await call("envio", `${uploadUrl}?uploadType=multipart&fields=id,name`, {
      method: "POST",
      headers: { "Content-Type": `multipart/related; boundary=${boundary}` },
      body,
    });
    return fileIdFrom(response);
  }

  /**
   * A resumable upload session: the metadata first, then the bytes in 8 MiB chunks read from `chunks` (one chunk of
   * read-ahead, so the last one can state the total). At most two chunks are held in memory.
   */
  async function uploadResumable(key: string, chunks: AsyncIterator<Buffer>, contentType: string): Promise<{ id: string; size: number }> {
    const start = await call("início do envio", `${uploadUrl}?uploadType=resumable&fields=id,name`, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=UTF-8", "X-Upload-Content-Type": contentType },
      body: JSON.stringify(metadata(key, contentType)),
    });
    await start.body?.cancel();
    const session = start.headers.get("location");
    if (!session) throw new Error("Google Drive: o envio retomável não devolveu o endereço da sessão (Location)");

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
          response = await doFetch(session, { method: "PUT", headers: { "Content-Range": range }, body: part as Uint8Array<ArrayBuffer> });
        } catch (error) {
          if (attempt++ >= DRIVE_MAX_ATTEMPTS) throw new Error(`Google Drive: envio do trecho falhou: ${(error as Error).message}`, { cause: error });
          await sleep(backoff(attempt));
          sent = (await persistedBytes(session, total)) - offset;
          continue;
        }
        if (response.status === 308) {
          await response.body?.cancel();
          sent = rangeEnd(response.headers.get("range")) - offset;
          if (sent < 0) throw new Error("Google Drive: a sessão de envio perdeu trechos já confirmados");
          continue;
        }
        if (response.ok) {
          if (!last || sent + part.length !== chunk.length) {
            await response.body?.cancel();
            throw new Error("Google Drive: o envio terminou antes do último trecho");
          }
          return { id: await fileIdFrom(response), size: offset + chunk.length };
        }
        const error = await driveApiError("envio do trecho", response);
        if (attempt++ < DRIVE_MAX_ATTEMPTS && isRetryable(error.status, error.reason)) {
          await sleep(backoff(attempt));
          sent = (await persistedBytes(session, total)) - offset;
          continue;
        }
        throw error;
      }
      offset += chunk.length;
      current = next;
    }
    throw new Error("Google Drive: o envio retomável terminou sem resposta final");
  }

  /** How many bytes the session holds (status query: an empty PUT with `bytes *\/total`). */
  async function persistedBytes(session: string, total: string): Promise<number> {
    const response = await doFetch(session, { method: "PUT", headers: { "Content-Range": `bytes */${total}` }, body: "" });
    await response.body?.cancel();
    if (response.status !== 308) throw new Error(`Google Drive: consulta da sessão de envio respondeu HTTP ${response.status}`);
    return rangeEnd(response.headers.get("range"));
  }

  async function grantAnyoneReader(fileId: string): Promise<void> {
    const response = await call("permissão de leitura", `${filesUrl}/${encodeURIComponent(fileId)}/permissions`, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=UTF-8" },
      body: JSON.stringify({ role: "reader", type: "anyone" }),
    });
    await response.body?.cancel();
  }

  async function deleteFile(fileId: string): Promise<void> {
    const response = await call("exclusão", `${filesUrl}/${encodeURIComponent(fileId)}`, { method: "DELETE" }, { allow: [404] });
    await response.body?.cancel();
  }

  const store: GoogleDriveStore = {
    name: "gdrive",
    connection,

    isConnected: () => connection.isConnected(),

    async put(key, body, contentType) {
      assertValidKey(key);
      let uploaded: { id: string; size: number };
      try {
        if (Buffer.isBuffer(body) && body.length <= MULTIPART_MAX_BYTES) {
          uploaded = { id: await uploadMultipart(key, body, contentType), size: body.length };
        } else {
          const chunks = chunked(Buffer.isBuffer(body) ? Readable.from([body]) : body, RESUMABLE_CHUNK_BYTES);
          const first = await chunks.next();
          const second = first.done ? first : await chunks.next();
          if (second.done && (first.done || first.value.length <= MULTIPART_MAX_BYTES)) {
            // Small after all: one request.
            const data = first.done ? Buffer.alloc(0) : first.value;
            uploaded = { id: await uploadMultipart(key, data, contentType), size: data.length };
          } else {
            uploaded = await uploadResumable(key, replay([first, second], chunks), contentType);
          }
        }
      } catch (error) {
        if (!Buffer.isBuffer(body)) body.destroy();
        throw error;
      }
      try {
        await grantAnyoneReader(uploaded.id);
      } catch (error) {
        await deleteFile(uploaded.id).catch((cleanup: unknown) =>
          log?.warn({ err: cleanup, fileId: uploaded.id }, "could not remove a Drive file whose sharing failed"),
        );
        throw error;
      }
      const previous = await row(key);
      try {
        await db
          .insertInto("drive_files")
          .values({ key, file_id: uploaded.id, size: uploaded.size, created_at: new Date().toISOString() })
          .onConflict((conflict) =>
            conflict.column("key").doUpdateSet({ file_id: uploaded.id, size: uploaded.size, created_at: new Date().toISOString() }),
          )
          .execute();
      } catch (error) {
        await deleteFile(uploaded.id).catch(() => undefined);
        throw error;
      }
      // Written again: the old file goes (a failure only leaves an unreachable file in the folder).
      if (previous && previous.file_id !== uploaded.id) {
        await deleteFile(previous.file_id).catch((error: unknown) =>
          log?.warn({ err: error, fileId: previous.file_id }, "could not remove a replaced Drive file"),
        );
      }
    },

    async get(key, range?: ByteRange): Promise<StoredObject | null> {
      const found = await row(key);
      if (!found) return null;
      const response = await call(
        "leitura",
        `${filesUrl}/${encodeURIComponent(found.file_id)}?alt=media`,
        { method: "GET", headers: range ? { Range: `bytes=${range.start}-${range.end}` } : {} },
        { allow: [404] },
      );
      if (response.status === 404) {
        await response.body?.cancel();
        log?.warn({ key, fileId: found.file_id }, "Drive file missing (removed outside the site?)");
        return null;
      }
      if (!response.body) throw new Error("Google Drive: resposta sem corpo");
      let body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
      let size = found.size;
      if (range && response.status === 206) {
        size = totalFromContentRange(response.headers.get("content-range")) ?? found.size;
      } else if (range) {
        // The whole file came back (range ignored): cut the range out of it.
        body = body.pipe(sliceStream(range.start, range.end));
      } else {
        const length = Number(response.headers.get("content-length"));
        if (Number.isFinite(length) && length > 0) size = length;
      }
      return { body, size };
    },

    async stat(key) {
      const found = await row(key);
      return found ? { size: Number(found.size) } : null;
    },

    async delete(key) {
      const found = await row(key);
      if (!found) return;
      await deleteFile(found.file_id);
      await db.deleteFrom("drive_files").where("key", "=", key).where("file_id", "=", found.file_id).execute();
    },

    publicUrl(key) {
      assertValidKey(key);
      return `/media/${key}`;
    },

    async *list(prefix = ""): AsyncGenerator<StoredEntry> {
      const rows = await db.selectFrom("drive_files").selectAll().execute();
      for (const entry of rows) {
        if (entry.key.startsWith(prefix) && isValidKey(entry.key)) {
          yield { key: entry.key, size: Number(entry.size), modifiedAt: new Date(entry.created_at) };
        }
      }
    },

    async fileId(key) {
      return (await row(key))?.file_id ?? null;
    },

    async thumbnailUrl(key, width = DEFAULT_THUMBNAIL_WIDTH) {
      const id = await store.fileId(key);
      return id ? `https://drive.google.com/thumbnail?id=${encodeURIComponent(id)}&sz=w${Math.round(width)}` : null;
    },
  };
  return store;
}

function backoff(attempt: number): number {
  return BACKOFF_BASE_MS * 2 ** (attempt - 1) + Math.floor(Math.random() * BACKOFF_BASE_MS);
}

async function fileIdFrom(response: Response): Promise<string> {
  const body = (await response.json()) as { id?: unknown };
  if (typeof body.id !== "string" || !body.id) throw new DriveApiError("envio", response.status, null, "resposta sem id do arquivo");
  return body.id;
}

/** `bytes=0-1048575` → 1048576 (bytes held); no header → 0. */
function rangeEnd(header: string | null): number {
  const match = header ? /bytes=\d+-(\d+)/.exec(header) : null;
  return match ? Number(match[1]) + 1 : 0;
}

/** `bytes 0-9/12345` → 12345. */
function totalFromContentRange(header: string | null): number | undefined {
  const match = header ? /\/(\d+)\s*$/.exec(header) : null;
  return match ? Number(match[1]) : undefined;
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

/** Passes only bytes `start`…`end` (inclusive) of the stream through. */
function sliceStream(start: number, end: number): Transform {
  let position = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const from = Math.max(start - position, 0);
      const to = Math.min(end + 1 - position, chunk.length);
      position += chunk.length;
      callback(null, from < to ? chunk.subarray(from, to) : undefined);
    },
  });
}
