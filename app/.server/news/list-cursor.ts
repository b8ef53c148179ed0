import { AppError } from "#app/.server/errors.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import type { ListCursor } from "./news.queries.server.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

/**
 * The list's keyset cursor, opaque to clients: the publication time and id of the last item shown, in base64url.
 * Decoding checks the shape, so a made-up cursor is a clear 400 rather than an odd page or a query error.
 */
export function encodeListCursor(item: { publishedAt: string; id: string }): string {
  return Buffer.from(`${item.publishedAt}|${item.id}`, "utf8").toString("base64url");
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const MAX_CURSOR_LENGTH = 400;

export function decodeListCursor(cursor: string): ListCursor {
  if (cursor.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(cursor)) {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    const separator = text.indexOf("|");
    const publishedAt = text.slice(0, separator);
    const id = text.slice(separator + 1);
    if (separator > 0 && ISO_TIMESTAMP.test(publishedAt) && id.length > 0 && !/[\u0000-\u001f]/.test(id)) return { publishedAt, id };
  }
  throw new AppError("invalid_cursor", t.newsList.invalidCursor, 400);
}

/**
 * How a list page answers a page it could not load: `cursor` (400, nothing logged) for a cursor this site did not
 * make, `load` (500, logged as `message`) for anything else; never stored by a cache.
 */
export function listPageFailure(error: unknown, log: Pick<Logger, "error">, message: string): { failure: "cursor" | "load"; init: ResponseInit } {
  const invalidCursor = error instanceof AppError && error.code === "invalid_cursor";
  if (!invalidCursor) log.error({ err: error }, message);
  return { failure: invalidCursor ? "cursor" : "load", init: { status: invalidCursor ? 400 : 500, headers: { "Cache-Control": NO_STORE } } };
}
