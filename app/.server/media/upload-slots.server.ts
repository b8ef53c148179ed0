import { t } from "#app/i18n/newsroom.ts";
import { AppError } from "#app/.server/errors.ts";

/** How long a refused uploader is told to wait (Retry-After): an upload of 10 MB takes seconds on a fair line. */
export const UPLOAD_RETRY_AFTER_SECONDS = { admin: 10, site: 15 };

/** An upload refused because too many are running: 429 (this admin's own) or 503 (the whole site's). */
export class UploadBusyError extends AppError {
  override name = "UploadBusyError";
  constructor(scope: "admin" | "site") {
    const seconds = UPLOAD_RETRY_AFTER_SECONDS[scope];
    super(
      scope === "admin" ? "upload_busy_admin" : "upload_busy",
      scope === "admin" ? t.upload.busyAdmin(seconds) : t.upload.busySite(seconds),
      scope === "admin" ? 429 : 503,
      { retryAfterSeconds: seconds },
    );
  }
}

export interface UploadSlots {
  /** Takes a slot for `adminId` or throws UploadBusyError; the returned function gives it back (once). */
  acquire(adminId: string): () => void;
  /** Uploads running now, in all and for one admin. */
  running(adminId?: string): number;
}

/**
 * Counts the uploads being handled (received into a temporary file, checked, converted, stored): at most `perAdmin`
 * for one admin and `total` for the whole instance. Each upload streams to disk, but image conversion holds the
 * decoded picture in memory: without a cap, a few admins (or one script with a stolen session) sending many files at
 * once could take the server's memory. A refusal is immediate (no queue to wait in, nothing read).
 */
export function createUploadSlots(limits: { perAdmin: number; total: number }): UploadSlots {
  const byAdmin = new Map<string, number>();
  let total = 0;
  return {
    acquire(adminId) {
      const mine = byAdmin.get(adminId) ?? 0;
      if (mine >= limits.perAdmin) throw new UploadBusyError("admin");
      if (total >= limits.total) throw new UploadBusyError("site");
      byAdmin.set(adminId, mine + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (byAdmin.get(adminId) ?? 1) - 1;
        if (left > 0) byAdmin.set(adminId, left);
        else byAdmin.delete(adminId);
      };
    },
    running(adminId) {
      return adminId === undefined ? total : (byAdmin.get(adminId) ?? 0);
    },
  };
}
