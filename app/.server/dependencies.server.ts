import type { AppConfig } from "./config/env.server.ts";
import { loadPg } from "./db/pg.server.ts";
import type { MediaStore } from "./storage/media-store.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

/**
 * What the server and the `npm run` commands do when a dependency cannot be reached as they start: a DATABASE_URL
 * that points nowhere, PostgreSQL down, an S3 endpoint that does not answer. The operator gets one pt-BR line naming
 * what failed and where (never a password), exit code 1, no stack trace and none of the error's fields.
 */

/** A dependency that cannot be reached: the operator's to fix; its message alone is printed (like a ConfigError). */
export class DependencyError extends Error {
  override name = "DependencyError";
}

type Reason = keyof typeof terminal.unreachable.reasons;

/** How long a start waits for PostgreSQL to take a connection before saying it does not answer. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Network and PostgreSQL (SQLSTATE) codes of a connection that could not be made. */
const POSTGRES_REASONS: Record<string, Reason> = {
  ECONNREFUSED: "refused",
  ENOTFOUND: "notFound",
  EAI_AGAIN: "notFound",
  ETIMEDOUT: "timeout",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  EHOSTDOWN: "unreachable",
  ECONNRESET: "reset",
  EPIPE: "reset",
  // cannot_connect_now (starting up, shutting down, recovering), admin_shutdown.
  "57P03": "starting",
  "57P01": "starting",
  // invalid_catalog_name: the database of the URL does not exist.
  "3D000": "noDatabase",
  // invalid_password, invalid_authorization_specification.
  "28P01": "auth",
  "28000": "auth",
};

/** File system and SQLite codes of a database file that cannot be opened or created. */
const SQLITE_REASONS: Record<string, Reason> = {
  EACCES: "permission",
  EPERM: "permission",
  EROFS: "readOnly",
  ENOTDIR: "notADirectory",
  // mkdir of the file's folder where a file of that name is.
  EEXIST: "notADirectory",
  ENOENT: "missing",
  EISDIR: "isDirectory",
  ENOSPC: "diskFull",
};

/** Every error in `error`'s chain: its causes, and the attempts of an AggregateError (each address of a host). */
function* chainOf(error: unknown): Generator<Record<string, unknown>> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    const record = current as Record<string, unknown>;
    yield record;
    if (Array.isArray(record.errors))
      for (const inner of record.errors) if (inner && typeof inner === "object") yield inner as Record<string, unknown>;
    current = record.cause;
  }
}

/** Why PostgreSQL could not be reached, when `error` says so (null: some other failure). */
function postgresReason(error: unknown): Reason | null {
  for (const entry of chainOf(error)) {
    const code = typeof entry.code === "string" ? entry.code : "";
    if (POSTGRES_REASONS[code]) return POSTGRES_REASONS[code];
    const message = typeof entry.message === "string" ? entry.message : "";
    // node-postgres' own messages (no code): its connection timeout, a server gone mid-handshake, a refused TLS.
    if (/connection timeout|timeout expired/i.test(message)) return "timeout";
    if (/Connection terminated/i.test(message)) return "reset";
    if (/does not support SSL|SSL connection/i.test(message)) return "tls";
  }
  return null;
}

/** Why the SQLite file could not be opened, when `error` says so. */
function sqliteReason(error: unknown): Reason | null {
  for (const entry of chainOf(error)) {
    const code = typeof entry.code === "string" ? entry.code : "";
    if (SQLITE_REASONS[code]) return SQLITE_REASONS[code];
    const message = typeof entry.message === "string" ? entry.message : "";
    if (/file is not a database/i.test(message)) return "notADatabase";
    if (/unable to open database file|disk I\/O error|readonly database/i.test(message)) return "cannotOpen";
  }
  return null;
}

/** `host:port` of a PostgreSQL URL (user and password left out). */
function postgresAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
  } catch {
    return "DATABASE_URL";
  }
}

/** The DependencyError for a database that cannot be reached, when `error` is that (null otherwise). */
export function databaseFailure(error: unknown, config: Pick<AppConfig, "database">): DependencyError | null {
  if (error instanceof DependencyError) return error;
  const { reasons } = terminal.unreachable;
  if (config.database.kind === "postgres") {
    const reason = postgresReason(error);
    return reason
      ? new DependencyError(terminal.unreachable.postgres(postgresAddress(config.database.url), reasons[reason]), { cause: error })
      : null;
  }
  const reason = sqliteReason(error);
  return reason ? new DependencyError(terminal.unreachable.sqlite(config.database.file, reasons[reason]), { cause: error }) : null;
}

/**
 * Before the services open: PostgreSQL must take a connection (within 10 s), or a DependencyError says why. Done
 * first so that nothing else (the event bus's listening connection, the pool) starts retrying and logging first.
 * SQLite is opened by the services themselves (see openServicesChecked).
 */
export async function requireDatabase(config: Pick<AppConfig, "database">): Promise<void> {
  if (config.database.kind !== "postgres") return;
  const client = new (loadPg().Client)({ connectionString: config.database.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A connection lost after the check is of no interest here.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw (
      databaseFailure(error, config) ??
      new DependencyError(terminal.unreachable.postgres(postgresAddress(config.database.url), terminal.unreachable.reasons.other), { cause: error })
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Opens the services (`open`, e.g. createServices) on a database that answers: PostgreSQL checked first
 * (requireDatabase), and a SQLite file that cannot be opened or created turned into a DependencyError.
 */
export async function openServicesChecked<T>(config: Pick<AppConfig, "database">, open: () => T): Promise<T> {
  await requireDatabase(config);
  try {
    return open();
  } catch (error) {
    throw databaseFailure(error, config) ?? error;
  }
}

/** The DependencyError for a media store that does not answer now (null when it does). */
export async function storeFailure(
  store: Pick<MediaStore, "name" | "isConnected">,
  config: Pick<AppConfig, "media">,
): Promise<DependencyError | null> {
  if (await store.isConnected().catch(() => false)) return null;
  const { media } = config;
  if (media.store === "s3") return new DependencyError(terminal.unreachable.s3(media.s3.endpoint ?? "AWS S3", media.s3.bucket));
  return new DependencyError(terminal.unreachable.store(terminal.unreachable.storeNames[store.name] ?? store.name));
}

/** `error` as the store's DependencyError when the store does not answer now, else as it is. */
export async function storeFailureOr(
  error: unknown,
  store: Pick<MediaStore, "name" | "isConnected">,
  config: Pick<AppConfig, "media">,
): Promise<unknown> {
  return (await storeFailure(store, config)) ?? error;
}
