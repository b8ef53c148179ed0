import pino, { type Logger } from "pino";
import type { AppConfig } from "./config/env.server.ts";

export type { Logger };

/**
 * Structured JSON logs. Secrets are redacted wherever they might appear. With `buffered`, lines go to standard
 * output asynchronously: lines that arrive while a write is in flight are joined into the next write (flushed on
 * exit), so under load an access-log line costs an append to a string instead of a write system call each; at rest
 * every line still goes out at once. The server uses it; scripts and tests write directly.
 */
export function createLogger(config: Pick<AppConfig, "logLevel">, options: { buffered?: boolean } = {}): Logger {
  const destination = options.buffered ? pino.destination({ dest: 1, sync: false }) : undefined;
  return pino(
    {
      level: config.logLevel,
      base: { app: "esporte-em-foco" },
      redact: {
        paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]', "*.password", "*.token", "*.secret"],
        censor: "[redigido]",
      },
    },
    destination as pino.DestinationStream,
  );
}
