import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { href } from "react-router";
import type { Kysely } from "kysely";
import type { GoogleDriveConfig } from "#app/.server/config/env.server.ts";
import type { Database, DriveFilesTable } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import {
  assertValidKey,
  type ByteRange,
  isValidKey,
  type MediaStore,
  type StoredEntry,
  type StoredObject,
} from "#app/.server/storage/media-store.ts";
import { createDriveClient } from "./client.server.ts";
import type { DriveConnection } from "./connection.server.ts";
import { type DriveFileMetadata, uploadFile } from "./upload.server.ts";

export interface GoogleDriveStoreOptions {
  db: Kysely<Database>;
  config: GoogleDriveConfig;
  /** The newsroom's OAuth connection (the store's tokens). */
  connection: DriveConnection;
  log?: Pick<Logger, "info" | "warn" | "error">;
  fetch?: typeof fetch;
  /** Waits between retries (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Media in the newsroom's Google Drive (Drive v3 REST, scope drive.file), the original product's storage, driven
 * from the server: files are uploaded (see upload.server.ts) into the configured folder, made readable by anyone
 * with the link (permission reader/anyone), streamed back with byte ranges (`alt=media`) through our `/media/*`
 * route, and deleted. Drive names files by id, so the `drive_files` table maps our keys to ids; `stat` and `list`
 * read that table only.
 *
 * Not connected (no admin consent yet, or a revoked token): `isConnected()` is false and every call that needs
 * Drive throws DriveNotConnectedError.
 */
export function createGoogleDriveStore(options: GoogleDriveStoreOptions): MediaStore {
  const { db, config, connection, log } = options;
  const client = createDriveClient({
    config,
    connection,
    log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  const fileUrl = (fileId: string) => `${client.filesUrl}/${encodeURIComponent(fileId)}`;

  async function row(key: string): Promise<DriveFilesTable | null> {
    assertValidKey(key);
    return (await db.selectFrom("drive_files").selectAll().where("key", "=", key).executeTakeFirst()) ?? null;
  }

  function metadata(key: string, contentType: string): DriveFileMetadata {
    return {
      name: key,
      mimeType: contentType,
      ...(config.folderId ? { parents: [config.folderId] } : {}),
      appProperties: { eefKey: key },
    };
  }

  async function grantAnyoneReader(fileId: string): Promise<void> {
    const response = await client.call("read permission", `${fileUrl(fileId)}/permissions`, {
      method: "POST",
      headers: { "Content-Type": "application/json; charset=UTF-8" },
      body: JSON.stringify({ role: "reader", type: "anyone" }),
    });
    await response.body?.cancel();
  }

  async function deleteFile(fileId: string): Promise<void> {
    const response = await client.call("delete", fileUrl(fileId), { method: "DELETE" }, { allow: [404] });
    await response.body?.cancel();
  }

  return {
    name: "gdrive",
    // An admin connects the newsroom's Drive (Google's consent page) before anything can be stored.
    needsConnection: true,
    // Media go through the site's /media route; the "Conectar ao Google Drive" form leads to Google's consent page.
    publicOrigins: () => ({ media: [], forms: [new URL(config.authUrl).origin] }),

    isConnected: () => connection.isConnected(),

    async put(key, body, contentType) {
      assertValidKey(key);
      let uploaded: { id: string; size: number };
      try {
        uploaded = await uploadFile(client, metadata(key, contentType), body);
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
        const createdAt = new Date().toISOString();
        await db
          .insertInto("drive_files")
          .values({ key, file_id: uploaded.id, size: uploaded.size, created_at: createdAt })
          .onConflict((conflict) => conflict.column("key").doUpdateSet({ file_id: uploaded.id, size: uploaded.size, created_at: createdAt }))
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
      const response = await client.call(
        "read",
        `${fileUrl(found.file_id)}?alt=media`,
        { method: "GET", headers: range ? { Range: `bytes=${range.start}-${range.end}` } : {} },
        { allow: [404] },
      );
      if (response.status === 404) {
        await response.body?.cancel();
        log?.warn({ key, fileId: found.file_id }, "Drive file missing (removed outside the site?)");
        return null;
      }
      if (!response.body) throw new Error("Google Drive: answer without a body");
      let body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
      let size = found.size;
      if (range && response.status === 206) {
        size = totalFromContentRange(response.headers.get("content-range")) ?? size;
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
      return found ? { size: found.size } : null;
    },

    async delete(key) {
      const found = await row(key);
      if (!found) return;
      await deleteFile(found.file_id);
      await db.deleteFrom("drive_files").where("key", "=", key).where("file_id", "=", found.file_id).execute();
    },

    publicUrl(key) {
      assertValidKey(key);
      return href("/media/*", { "*": key });
    },

    async *list(prefix = ""): AsyncGenerator<StoredEntry> {
      const rows = await db.selectFrom("drive_files").selectAll().execute();
      for (const entry of rows) {
        if (entry.key.startsWith(prefix) && isValidKey(entry.key)) {
          yield { key: entry.key, size: entry.size, modifiedAt: new Date(entry.created_at) };
        }
      }
    },
  };
}

/** `bytes 0-9/12345` → 12345. */
function totalFromContentRange(header: string | null): number | undefined {
  const match = header ? /\/(\d+)\s*$/.exec(header) : null;
  return match ? Number(match[1]) : undefined;
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
