import type { z } from "zod";
import {
  AppError,
  DatabaseUnavailableError,
  DatabaseUnconfirmedError,
  databaseUnavailableOr,
  DiskFullError,
  diskFullOr,
  FieldsError,
  isExpectedError,
  publicErrorMessage,
  requestIdFrom,
  retryAfterHeaders,
} from "#app/.server/errors.ts";
import { t } from "#app/i18n/newsroom.ts";
import { type FieldErrors, fieldErrorsOf } from "#app/lib/zod.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { NewsConflictCurrent } from "#app/lib/news-view.ts";
import { NewsConflictError, NewsMergeConflictError } from "#app/.server/news/editor/news-save.server.ts";
import type { MergeConflict } from "#app/lib/news-merge.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

export interface ApiErrorBody {
  error: { code: string; message: string; fields?: FieldErrors; current?: NewsConflictCurrent; merge?: MergeConflict };
}

/** A JSON error answer with the pt-BR message and a stable code. */
export function apiError(status: number, code: string, message: string, fields?: FieldErrors) {
  return Response.json({ error: { code, message, ...(fields ? { fields } : {}) } } satisfies ApiErrorBody, {
    status,
    headers: { "Cache-Control": NO_STORE },
  });
}

/**
 * Maps any thrown error to a JSON answer. Errors meant for users keep their message; unexpected ones are logged
 * with the request id and answered with the operation's pt-BR prefix and that id only (never a driver's message:
 * during an outage those name hosts, users and paths).
 */
export function toApiError(thrown: unknown, request: Request, log: Pick<Logger, "error" | "warn">): Response {
  if (thrown instanceof Response) return thrown;
  // A full disk (507), or a database that cannot be reached (503 with Retry-After): said as such, not a 500.
  const error = databaseUnavailableOr(diskFullOr(thrown));
  const requestId = requestIdFrom(request);
  const expected = isExpectedError(error);
  if (error instanceof DatabaseUnavailableError || error instanceof DatabaseUnconfirmedError)
    log.warn(
      { err: error.cause, reqId: requestId, unconfirmed: error instanceof DatabaseUnconfirmedError },
      "api request failed: database unreachable",
    );
  else if (!expected || error instanceof DiskFullError) log.error({ err: error, reqId: requestId }, "api request failed");
  const code = error instanceof AppError ? error.code : "internal_error";
  const status = error instanceof AppError ? error.status : 500;
  // A save based on an older version: the answer carries what is saved now (what changed, and its version to
  // overwrite on purpose).
  const response =
    error instanceof NewsConflictError
      ? Response.json(
          {
            error: {
              code,
              message: error.publicMessage,
              current: error.current,
              // "Salvar mesmo assim" found fields both changed: both values of each, who saved the other and when.
              ...(error instanceof NewsMergeConflictError ? { merge: error.merge } : {}),
            },
          } satisfies ApiErrorBody,
          {
            status,
            headers: { "Cache-Control": NO_STORE },
          },
        )
      : apiError(status, code, publicErrorMessage(error, requestId), error instanceof FieldsError ? error.fields : undefined);
  if (!expected && requestId) response.headers.set("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(retryAfterHeaders(error))) response.headers.set(name, value);
  return response;
}

/** Parses `fields` with a zod schema or throws a 400 JSON answer listing each field's messages. */
export function parseFields<T extends z.ZodType>(schema: T, fields: Record<string, string>): z.infer<T> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const byField = fieldErrorsOf(result.error);
  throw apiError(400, "validation_failed", Object.values(byField).flat()[0] ?? t.api.invalidData, byField);
}
