/** An error whose message is meant for the user (pt-BR) and whose code is stable for the API. */
export class AppError extends Error {
  override name = "AppError";
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status = 500, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.status = status;
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
 * ("Falha ao buscar notícias: …"), as the original's service layer did. AppErrors pass through unchanged.
 */
export async function wrapFailure<T>(code: string, prefix: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new AppError(code, `${prefix}: ${detail}`, 500, { cause: error });
  }
}
