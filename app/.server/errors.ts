import { t } from "../i18n/pt-BR.ts";

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
  constructor(code: string, message: string, status = 500, options?: ErrorOptions & { publicMessage?: string }) {
    super(message, options);
    this.code = code;
    this.status = status;
    this.publicMessage = options?.publicMessage ?? message;
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
  if (error instanceof AppError && error.status < 500) return error.publicMessage;
  const head = error instanceof AppError ? `${error.publicMessage}.` : t.errors.unexpected;
  return `${head} ${t.errors.tryAgain(requestId)}`;
}

/** The request id the server gave this request (header set by the access-log middleware), or null. */
export function requestIdFrom(request: Request): string | null {
  return request.headers.get("x-request-id");
}
