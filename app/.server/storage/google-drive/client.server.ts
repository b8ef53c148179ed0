import type { GoogleDriveConfig } from "#app/.server/config/env.server.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { DriveConnection } from "./connection.server.ts";
import { DriveNotConnectedError, driveApiError, isRetryable } from "./errors.server.ts";

/** Attempts for a request Drive answers with a rate limit or a server error (exponential backoff in between). */
export const DRIVE_MAX_ATTEMPTS = 4;
const BACKOFF_BASE_MS = 250;

export interface DriveClientOptions {
  config: Pick<GoogleDriveConfig, "apiUrl" | "uploadUrl">;
  connection: DriveConnection;
  log?: Pick<Logger, "warn">;
  fetch?: typeof fetch;
  /** Waits between retries (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

export interface CallOptions {
  /** The request can be sent again (its body is not a stream): retried on 401, rate limits and server errors. */
  replayable?: boolean;
  /** Statuses returned to the caller instead of thrown (e.g. 404). */
  allow?: number[];
}

export type DriveClient = ReturnType<typeof createDriveClient>;

/**
 * Drive v3 over HTTP with the connection's bearer token. A 401 drops the token and, when the request can be sent
 * again, retries once with a refreshed one; a 401 after that forgets the credentials (not connected). Rate limits and
 * server errors are retried with backoff (replayable requests only). Errors become DriveApiError.
 */
export function createDriveClient(options: DriveClientOptions) {
  const { connection, log } = options;
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /** The returned response is OK or one of `allow`, with its body unread. */
  async function call(operation: string, url: string, init: RequestInit, { replayable = true, allow = [] }: CallOptions = {}): Promise<Response> {
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
        throw new Error(`Google Drive: ${operation} failed: ${(error as Error).message}`, { cause: error });
      }
      if (response.ok || allow.includes(response.status)) return response;
      const error = await driveApiError(operation, response);
      if (response.status === 401) {
        connection.rejectToken(token);
        if (refreshed) {
          await connection.fail(`${operation}: 401 with a freshly refreshed token`);
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

  return {
    call,
    /** A request without the bearer token (resumable upload sessions carry their own authorization). */
    fetch: doFetch,
    sleep,
    backoff,
    filesUrl: `${options.config.apiUrl}/drive/v3/files`,
    uploadUrl: `${options.config.uploadUrl}/upload/drive/v3/files`,
  };
}

function backoff(attempt: number): number {
  return BACKOFF_BASE_MS * 2 ** (attempt - 1) + Math.floor(Math.random() * BACKOFF_BASE_MS);
}
