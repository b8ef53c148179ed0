import type { DriveConnection } from "./connection.server.ts";

/** What the admin pages show about the Google Drive connection (null when another store is in use). */
export interface DriveStatusView {
  connected: boolean;
  /** Show 'Falha ao fazer login no Google Drive. Tente novamente.' */
  failed: boolean;
  /** The visitor is on iPhone/iPad/iPod: the failure message carries the cookies and pop-ups hint. */
  ios: boolean;
}

/** iPhone, iPad (older iPadOS) and iPod browsers, Safari or not (they all run on WebKit there). */
export function isIosUserAgent(userAgent: string | null | undefined): boolean {
  return /\b(iPhone|iPad|iPod)\b/.test(userAgent ?? "");
}

/** The Drive connection's state for an admin page's loader; null with the local or S3 store. Never throws. */
export async function driveStatusView(drive: DriveConnection | null, request: Request): Promise<DriveStatusView | null> {
  if (!drive) return null;
  const { connected, failed } = await drive.status();
  return { connected, failed, ios: isIosUserAgent(request.headers.get("user-agent")) };
}
