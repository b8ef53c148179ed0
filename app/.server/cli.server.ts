import { type AppServices, closeServices, createServices, migrateAll } from "./app.server.ts";
import { type AppConfig, loadDotEnv, parseConfig } from "./config/env.server.ts";
import { databaseFailure, openServicesChecked } from "./dependencies.server.ts";
import { createLogger } from "./logger.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

/**
 * Errors an operator can act on (a bad variable, a database or media store that cannot be reached, a bad argument, a
 * refused backup, an unreadable export): the command
 * prints their message alone and ends with exit code 1. Anything else is a bug and keeps its stack trace.
 */
const OPERATOR_ERRORS = new Set(["ConfigError", "DependencyError", "CliError", "BackupError", "ExportReadError"]);

export function isOperatorError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  // node:util parseArgs: an unknown option or a missing value (ERR_PARSE_ARGS_UNKNOWN_OPTION…).
  const code = (error as NodeJS.ErrnoException).code;
  return OPERATOR_ERRORS.has(error.name) || (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_"));
}

/** How long a command may stay alive after its work is done before it is ended (something left a handle open). */
const EXIT_GRACE_MS = 3_000;

/**
 * Runs an `npm run` command's body: an operator error prints its message (no stack trace) and sets exit code 1.
 * Every command closes what it opened, so the process ends by itself; if something still holds it open
 * a few seconds later, the handles are named on stderr and the process ends anyway (with the exit code it had).
 */
export async function runCommand(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (!isOperatorError(error)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
  const guard = setTimeout(() => {
    const open = process.getActiveResourcesInfo().filter((kind) => kind !== "Timeout" && kind !== "TTYWrap");
    console.error(terminal.command.keptAlive(open.join(", ") || "?"));
    process.exit();
  }, EXIT_GRACE_MS);
  guard.unref();
}

/**
 * The configuration (from the environment and .env, like the server) and the services on the configured database,
 * migrated (`applied`: the migrations this run applied), for `task`; everything is closed afterwards, whether the task
 * succeeded or threw. Logs at `warn` and up. A database that cannot be reached is a DependencyError (one line).
 */
export async function withCommandServices<T>(task: (services: AppServices, run: { config: AppConfig; applied: string[] }) => Promise<T>): Promise<T> {
  loadDotEnv();
  const config = parseConfig();
  const services = await openServicesChecked(config, () => createServices(config, createLogger({ logLevel: "warn" })));
  try {
    let applied: string[];
    try {
      applied = await migrateAll(services);
    } catch (error) {
      throw databaseFailure(error, config) ?? error;
    }
    return await task(services, { config, applied });
  } finally {
    await closeServices(services);
  }
}
