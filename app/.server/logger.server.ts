import pino, { type Logger } from "pino";
import type { AppConfig } from "./config/env.server.ts";

export type { Logger };

/** Structured JSON logs. Secrets are redacted wherever they might appear. */
export function createLogger(config: Pick<AppConfig, "logLevel">): Logger {
  return pino({
    level: config.logLevel,
    base: { app: "esporte-em-foco" },
    redact: {
      paths: [
        "req.headers.cookie",
        "req.headers.authorization",
        'res.headers["set-cookie"]',
        "*.password",
        "*.token",
        "*.secret",
      ],
      censor: "[redigido]",
    },
  });
}
