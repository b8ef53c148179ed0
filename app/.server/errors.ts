import { t } from "#app/i18n/pt-BR.ts";

/**
 * An error whose message is meant for the user (pt-BR) and whose code is stable for the API. `publicMessage` is
 * what a client may see: the message itself, unless the error wraps an unexpected failure (then only the
 * operation's prefix; the details stay in `message` and the cause, for the log).
 */
export class AppError extends Error {
  override name = "AppError";
  readonly code: string;
  readonly status: number;
  readonly publicMessage: string;
  /** A refusal to retry later (a 429, a 503 for capacity): its message is shown, with `Retry-After`. */
  readonly retryAfterSeconds: number | null;
  constructor(code: string, message: string, status = 500, options?: ErrorOptions & { publicMessage?: string; retryAfterSeconds?: number }) {
    super(message, options);
    this.code = code;
    this.status = status;
    this.publicMessage = options?.publicMessage ?? message;
    this.retryAfterSeconds = options?.retryAfterSeconds ?? null;
  }
}

/** Whether `error` is an answer meant for the client (its message shown as is), not an unexpected failure. */
export function isExpectedError(error: unknown): error is AppError {
  return error instanceof AppError && (error.status < 500 || error.retryAfterSeconds !== null || error instanceof DiskFullError);
}

/**
 * The disk (or the quota) refused a write because it is full: 507 with a pt-BR message that says nothing was saved.
 * Shown to the user as is, and still logged as an error (the operator has to free space).
 */
export class DiskFullError extends AppError {
  override name = "DiskFullError";
  constructor(options?: ErrorOptions) {
    super("disk_full", t.errors.diskFull, 507, options);
  }
}

/**
 * Whether `error` or one of its causes is a write refused for lack of space: ENOSPC or EDQUOT from the file system,
 * SQLITE_FULL from SQLite, SQLSTATE 53100 (disk_full) from PostgreSQL.
 */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof DiskFullError) return true;
    const { code, errcode, errstr } = current as { code?: unknown; errcode?: unknown; errstr?: unknown };
    if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL" || code === "53100") return true;
    // node:sqlite: code "ERR_SQLITE_ERROR" with the primary result code 13 (SQLITE_FULL).
    if (typeof errcode === "number" && (errcode & 0xff) === 13) return true;
    if (typeof errstr === "string" && /database or disk is full/i.test(errstr)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** `error` itself, or a DiskFullError wrapping it when the disk was full. */
export function diskFullOr(error: unknown): unknown {
  return error instanceof DiskFullError || !isDiskFull(error) ? error : new DiskFullError({ cause: error });
}

/** How long a client is told to wait (`Retry-After`) when the database cannot be reached. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database could not be reached (PostgreSQL refused, dropped or timed out the connection; SQLite's file was busy
 * or failed to read or write): 503 with `Retry-After` and a pt-BR message, not a 500. Nothing was done; trying again
 * in a few seconds is the right move. Logged as a warning.
 */
export class DatabaseUnavailableError extends AppError {
  override name = "DatabaseUnavailableError";
  constructor(options?: ErrorOptions) {
    super("database_unavailable", t.errors.databaseUnavailable, 503, { ...options, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  }
}

/**
 * The database stopped answering while a change was on its way (its COMMIT, or a write on its own, was sent and no
 * reply came: app/.server/db/pg.server.ts): it may or may not have been made. 503 with `Retry-After`, and a pt-BR
 * message that says so — the client must look before trying again, or the change could be made twice.
 */
export class DatabaseUnconfirmedError extends AppError {
  override name = "DatabaseUnconfirmedError";
  constructor(options?: ErrorOptions) {
    super("database_unconfirmed", t.errors.databaseUnconfirmed, 503, { ...options, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  }
}

/** Socket errors of a connection to PostgreSQL that never reached it or was lost. */
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
/** node-postgres' own words for a connection that was cut or never opened. */
const PG_CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable|Query read timeout/i;
/** SQLite's primary result codes of a file it cannot use right now: BUSY, LOCKED, IOERR, CANTOPEN. */
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 14]);

/**
 * Whether `error` or one of its causes says the database could not be reached: a socket error (ECONNREFUSED…),
 * node-postgres' "Connection terminated" / connection timeout / a reply that did not come within the query deadline,
 * PostgreSQL's SQLSTATE class 08 (connection exception),
 * 57P01–57P03 (shutting down, cannot connect now) or 53300 (too many connections), or SQLite's BUSY, LOCKED, IOERR,
 * CANTOPEN.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current instanceof DatabaseUnavailableError || current instanceof DatabaseUnconfirmedError) return true;
    // Another dependency's failure (an S3 SDK error carries `$metadata`) is not the database's.
    if (typeof current === "object" && "$metadata" in current) return false;
    const { code, errcode, message } = current as { code?: unknown; errcode?: unknown; message?: unknown };
    if (typeof code === "string") {
      if (CONNECTION_CODES.has(code) || code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300")
        return true;
      if (/^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN)/.test(code)) return true;
    }
    // node:sqlite: code "ERR_SQLITE_ERROR" with SQLite's extended result code in `errcode`.
    if (typeof errcode === "number" && SQLITE_UNAVAILABLE.has(errcode & 0xff)) return true;
    if (typeof message === "string" && PG_CONNECTION_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * `error` itself, or a DatabaseUnavailableError wrapping it when the database could not be reached — a
 * DatabaseUnconfirmedError when it stopped answering after a change was sent (QueryDeadlineError's `unconfirmed`).
 */
export function databaseUnavailableOr(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || error instanceof DatabaseUnconfirmedError || !isDatabaseUnreachable(error)) return error;
  return causes(error).some((cause) => (cause as { unconfirmed?: unknown }).unconfirmed === true)
    ? new DatabaseUnconfirmedError({ cause: error })
    : new DatabaseUnavailableError({ cause: error });
}

/** `error` and its causes, outermost first. */
function causes(error: unknown): unknown[] {
  const found: unknown[] = [];
  for (let current = error; current && typeof current === "object" && found.length < 8; current = (current as { cause?: unknown }).cause)
    found.push(current);
  return found;
}

/** The `Retry-After` header of a refusal to retry later, or none. */
export function retryAfterHeaders(error: unknown): Record<string, string> {
  return error instanceof AppError && error.retryAfterSeconds !== null ? { "Retry-After": String(error.retryAfterSeconds) } : {};
}

/** Input refused field by field (a 400): `fields` maps each field to its pt-BR messages, as forms show them. */
export class FieldsError extends AppError {
  override name = "FieldsError";
  readonly fields: Record<string, string[]>;
  constructor(code: string, fields: Record<string, string[]>) {
    super(code, Object.values(fields).flat()[0] ?? t.api.invalidData, 400);
    this.fields = fields;
  }
}

export class NotFoundError extends AppError {
  override name = "NotFoundError";
  constructor(code: string, message: string) {
    super(code, message, 404);
  }
}

/**
 * Runs a service operation and wraps unexpected failures with the operation's pt-BR prefix
 * ("Falha ao buscar notícias: …"), as the original's service layer did. AppErrors pass through unchanged. The
 * failure's own text (a driver message: host, user, file path) is kept for the log, never shown to clients.
 */
export async function wrapFailure<T>(code: string, prefix: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isDiskFull(error)) throw diskFullOr(error);
    if (error instanceof AppError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new AppError(code, `${prefix}: ${detail}`, 500, { cause: error, publicMessage: prefix });
  }
}

/**
 * What a client is told about `error`: an AppError meant for users says its own message; anything else (an
 * unexpected failure) says only the operation and a request id to quote, which the log line carries too.
 */
export function publicErrorMessage(error: unknown, requestId: string | null): string {
  if (isExpectedError(error)) return error.publicMessage;
  const head = error instanceof AppError ? `${error.publicMessage}.` : t.errors.unexpected;
  return `${head} ${t.errors.tryAgain(requestId)}`;
}

/** The request id the server gave this request (header set by the access-log middleware), or null. */
export function requestIdFrom(request: Request): string | null {
  return request.headers.get("x-request-id");
}
