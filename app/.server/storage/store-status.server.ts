import { t } from "#app/i18n/newsroom.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { type DriveStatusView, driveStatusView } from "./google-drive/status.server.ts";
import type { MediaStore } from "./media-store.ts";

/** The media store's name as the newsroom reads it ("Google Drive", "armazenamento local"…). */
export function storeLabelOf(store: Pick<MediaStore, "name">): string {
  return t.storage.labels[store.name] ?? store.name;
}

/**
 * Whether media can be stored now, for an admin page's loader (the editor, the sponsors): with Google Drive, its
 * connection state (card, 'Google Drive conectado', failure message); otherwise the store's own check.
 */
export async function storeStatusOf(
  request: Request,
  { store, drive: connection }: Pick<AppServices, "store" | "drive">,
): Promise<{ storeConnected: boolean; drive: DriveStatusView | null }> {
  const drive = await driveStatusView(connection, request);
  return { storeConnected: drive ? drive.connected : await store.isConnected(), drive };
}
