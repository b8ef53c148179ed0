import { t } from "#app/i18n/newsroom.ts";
import { AppError } from "#app/.server/errors.ts";

/**
 * Errors of the Google Drive store, and the parsing of Google's two error formats:
 * - Drive v3: `{"error": {"code": 403, "message": "…", "errors": [{"domain": "usageLimits", "reason": "userRateLimitExceeded", …}]}}`
 * - OAuth 2 token and revoke endpoints: `{"error": "invalid_grant", "error_description": "Token has been expired or revoked."}`
 */

/**
 * The Drive store has no usable credentials (never connected, or the token was revoked or refused): an admin must
 * click "Conectar ao Google Drive". An AppError, so the API and the forms answer 503 with the spec's message.
 */
export class DriveNotConnectedError extends AppError {
  override name = "DriveNotConnectedError";
  constructor(message: string = t.storage.loginFailed) {
    super("storage_disconnected", message, 503);
  }
}

/** A Drive v3 API call answered with an error status. */
export class DriveApiError extends Error {
  override name = "DriveApiError";
  readonly status: number;
  /** The first `errors[].reason` (`notFound`, `userRateLimitExceeded`, `authError`…), when Google gave one. */
  readonly reason: string | null;
  constructor(operation: string, status: number, reason: string | null, detail: string) {
    super(`Google Drive: ${operation} failed (HTTP ${status}${reason ? `, ${reason}` : ""}): ${detail}`);
    this.status = status;
    this.reason = reason;
  }
}

/** The OAuth token endpoint refused a request (`invalid_grant`, `invalid_client`…) or could not be reached. */
export class DriveAuthError extends Error {
  override name = "DriveAuthError";
  readonly status: number;
  /** OAuth `error` code, e.g. `invalid_grant`; null for network failures or non-JSON answers. */
  readonly code: string | null;
  constructor(message: string, status: number, code: string | null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Reads a Drive v3 error response into a DriveApiError (never throws; the body is consumed). */
export async function driveApiError(operation: string, response: Response): Promise<DriveApiError> {
  const text = await response.text().catch(() => "");
  let reason: string | null = null;
  let message = text.slice(0, 300) || response.statusText;
  try {
    const body = JSON.parse(text) as { error?: { message?: string; errors?: Array<{ reason?: string }> } };
    if (body.error && typeof body.error === "object") {
      message = body.error.message ?? message;
      reason = body.error.errors?.[0]?.reason ?? null;
    }
  } catch {
    // not JSON: keep the text
  }
  return new DriveApiError(operation, response.status, reason, message);
}

/** Reads an OAuth 2 error response (token, revoke) into a DriveAuthError (never throws; the body is consumed). */
export async function oauthError(operation: string, response: Response): Promise<DriveAuthError> {
  const text = await response.text().catch(() => "");
  let code: string | null = null;
  let description = text.slice(0, 300) || response.statusText;
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: string };
    if (typeof body.error === "string") {
      code = body.error;
      description = body.error_description ?? body.error;
    }
  } catch {
    // not JSON: keep the text
  }
  return new DriveAuthError(
    `Google OAuth: ${operation} failed (HTTP ${response.status}${code ? `, ${code}` : ""}): ${description}`,
    response.status,
    code,
  );
}

/** Rate limits and server errors: Google asks clients to retry these with exponential backoff. */
export function isRetryable(status: number, reason: string | null): boolean {
  if (status === 429 || status >= 500) return true;
  return status === 403 && (reason === "userRateLimitExceeded" || reason === "rateLimitExceeded");
}
