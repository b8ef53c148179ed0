import { t } from "#app/i18n/newsroom.ts";
import { AppError } from "#app/.server/errors.ts";
import type { MediaStore } from "./media-store.ts";

/**
 * A media store that cannot take a file now (S3 not answering, a Google Drive not connected): only what carries a new
 * file is refused, with a message naming that store; a save without a file never asks the store (a title
 * correction, an unpublish or a delete go through during a media outage).
 */

/** What the refused file was for: the message says what was not sent and what was kept. */
export type StoreUse = "newsFile" | "bodyImage" | "sponsor" | "photo";

/** The 409 `storage_not_connected` for `store`: Google Drive asks to be connected; any other store says it is down. */
export function storeUnavailableError(store: Pick<MediaStore, "name">, use: StoreUse, options?: ErrorOptions): AppError {
  const message =
    store.name === "gdrive"
      ? use === "sponsor"
        ? t.sponsors.driveRequired
        : t.newsForm.driveRequired
      : t.storage.down[use](t.storage.names[store.name] ?? store.name);
  return new AppError("storage_not_connected", message, 409, options);
}

/** Refuses (see storeUnavailableError) when the store cannot take files now. Ask only when there is a file. */
export async function requireStoreFor(store: Pick<MediaStore, "name" | "isConnected">, use: StoreUse): Promise<void> {
  if (!(await store.isConnected())) throw storeUnavailableError(store, use);
}

/**
 * Runs a write to the store (`media.saveUpload`). When it fails because the store stopped answering (its last
 * "connected" was still trusted), the failure becomes the same refusal as above instead of a 500; a refusal of the
 * file itself (an AppError: corrupt image, disk full…) stays what it is.
 */
export async function storedOrRefused<T>(store: Pick<MediaStore, "name" | "isConnected">, use: StoreUse, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof AppError) && !(await store.isConnected().catch(() => false))) throw storeUnavailableError(store, use, { cause: error });
    throw error;
  }
}
