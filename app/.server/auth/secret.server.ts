import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { makePrivateDir, writePrivateFile } from "#app/.server/config/data-dir.server.ts";
import type { AppConfig } from "#app/.server/config/env.server.ts";

/**
 * The secret that signs session cookies: AUTH_SECRET when set, otherwise one generated on first start and kept
 * in DATA_DIR/secrets/auth-secret (readable by this user only), so sessions survive restarts.
 */
export function resolveAuthSecret(config: { auth: Pick<AppConfig["auth"], "secret">; dataDir: string }): string {
  if (config.auth.secret) return config.auth.secret;
  const file = path.join(config.dataDir, "secrets", "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32).toString("base64url");
  makePrivateDir(path.dirname(file));
  writePrivateFile(file, `${secret}\n`);
  return secret;
}
