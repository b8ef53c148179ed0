import { createRequire } from "node:module";
import type pg from "pg";

const require = createRequire(import.meta.url);
let loaded: typeof pg | undefined;

/** The PostgreSQL driver, loaded only by an installation that uses PostgreSQL (SQLite ones never pay for it). */
export function loadPg(): typeof pg {
  loaded ??= require("pg") as typeof pg;
  return loaded;
}

/** What node-postgres says when a query's reply did not come within its `query_timeout`. */
const READ_TIMEOUT_MESSAGE = "Query read timeout";

/**
 * A statement that gave up waiting for the database: the connection it was sent on is dropped (the pool opens a
 * fresh one), so nothing waits behind a reply that may never come. `unconfirmed` when the statement could have
 * changed data on its own — a COMMIT, or a write outside a transaction — and the database may have done it: the
 * caller cannot say "nothing was done". A statement inside a transaction is never unconfirmed: the database rolls the
 * transaction back when it sees the connection gone.
 */
export class QueryDeadlineError extends Error {
  override name = "QueryDeadlineError";
  readonly unconfirmed: boolean;
  constructor(unconfirmed: boolean, options?: ErrorOptions) {
    super(READ_TIMEOUT_MESSAGE, options);
    this.unconfirmed = unconfirmed;
  }
}

/**
 * The pool's client class: each query waits for its reply at most `deadlineMs()` (0: no limit — migrations at start,
 * the npm commands), the rest of node-postgres unchanged. With the database's packets held (a network that drops
 * them, a frozen server) a request then ends in a 503 instead of waiting for TCP to give up, minutes later.
 */
export function clientWithDeadline(driver: typeof pg, deadlineMs: () => number): typeof pg.Client {
  return class DeadlineClient extends driver.Client {
    #inTransaction = false;
    /** The deadline this connection missed: what any later statement on it (a ROLLBACK after it) fails with. */
    #lost: QueryDeadlineError | null = null;

    // biome-ignore lint/suspicious/noExplicitAny: node-postgres' query() has many overloads; they are passed through.
    override query(...args: any[]): any {
      if (this.#lost) return Promise.reject(this.#lost);
      const text: string = typeof args[0] === "string" ? args[0] : (args[0]?.text ?? "");
      const limit = deadlineMs();
      (this as unknown as { connectionParameters: { query_timeout?: number } }).connectionParameters.query_timeout = limit || undefined;
      const result = super.query(...(args as Parameters<pg.Client["query"]>));
      if (!limit || typeof (result as { then?: unknown } | undefined)?.then !== "function") return result;
      const statement = text.trimStart().slice(0, 10).toLowerCase();
      const unconfirmed = statement.startsWith("commit") || (!this.#inTransaction && /^(insert|update|delete)\b/.test(statement));
      if (statement.startsWith("begin")) this.#inTransaction = true;
      else if (statement.startsWith("commit") || statement.startsWith("rollback")) this.#inTransaction = false;
      return (result as unknown as Promise<unknown>).catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== READ_TIMEOUT_MESSAGE) throw error;
        this.#inTransaction = false;
        this.#lost = new QueryDeadlineError(unconfirmed, { cause: error });
        // Unusable from now on (the reply may still come). Marked so at once, so the pool drops it when it is released
        // instead of lending it again before the connection's end is noticed.
        const internals = this as unknown as { _queryable: boolean; connection: { stream: { destroy(): void } } };
        internals._queryable = false;
        internals.connection.stream.destroy();
        throw this.#lost;
      });
    }
  } as typeof pg.Client;
}
