import type { Kysely } from "kysely";
import type { AppConfig, S3Config } from "#app/.server/config/env.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { createDriveConnection, type DriveConnection } from "./google-drive/connection.server.ts";
import { createGoogleDriveStore } from "./google-drive/store.server.ts";
import { createLocalStore } from "./local-store.server.ts";
import type { MediaStore } from "./media-store.ts";
import { s3PublicOrigins, s3PublicUrl } from "./s3-public.ts";

/** What the Google Drive store needs besides its configuration: its table and its connection. */
export interface MediaStoreDeps {
  db?: Kysely<Database>;
  drive?: DriveConnection | null;
  log?: Pick<Logger, "info" | "warn" | "error">;
}

/**
 * The newsroom's Google Drive connection when the configuration stores media there (`MEDIA_STORE=gdrive`), else
 * null: the admin pages and the connect/disconnect routes use it, the store takes its tokens from it.
 */
export function createDriveConnectionFor(
  config: Pick<AppConfig, "media">,
  deps: { db: Kysely<Database>; secret: string; log?: Pick<Logger, "info" | "warn" | "error"> },
): DriveConnection | null {
  if (config.media.store !== "gdrive") return null;
  return createDriveConnection({ db: deps.db, config: config.media.gdrive, secret: deps.secret, ...(deps.log ? { log: deps.log } : {}) });
}

/**
 * The media store the configuration asks for (`MEDIA_STORE`): local disk under DATA_DIR/media (default), S3, or
 * Google Drive (`gdrive`, which needs `deps.db` and `deps.drive`).
 */
export function createMediaStore(config: Pick<AppConfig, "media">, deps: MediaStoreDeps = {}): MediaStore {
  const { media } = config;
  switch (media.store) {
    case "local":
      return createLocalStore({ root: media.dir });
    case "s3":
      return lazyS3Store(media.s3);
    case "gdrive":
      if (!deps.db || !deps.drive) throw new Error("createMediaStore: the Google Drive store needs the database (db) and its connection (drive)");
      return createGoogleDriveStore({ db: deps.db, connection: deps.drive, config: media.gdrive, ...(deps.log ? { log: deps.log } : {}) });
    default: {
      const unknown: never = media;
      throw new Error(`createMediaStore: unknown store ${JSON.stringify((unknown as { store: unknown }).store)}`);
    }
  }
}

/**
 * The S3 store, with the AWS SDK (~100 ms and ~15 MB to load) imported on its first use rather than at start:
 * reader pages only need `publicUrl`, which is computed from the configuration alone.
 */
function lazyS3Store(config: S3Config): MediaStore {
  let loading: Promise<MediaStore> | undefined;
  const load = () => (loading ??= import("./s3-store.server.ts").then(({ createS3Store }) => createS3Store(config)));
  return {
    name: "s3",
    needsConnection: false,
    publicOrigins: () => s3PublicOrigins(config),
    isConnected: async () => (await load()).isConnected(),
    put: async (key, body, contentType) => (await load()).put(key, body, contentType),
    get: async (key, range) => (await load()).get(key, range),
    stat: async (key) => (await load()).stat(key),
    delete: async (key) => (await load()).delete(key),
    publicUrl: s3PublicUrl(config),
    async *list(prefix) {
      yield* (await load()).list(prefix);
    },
  };
}
