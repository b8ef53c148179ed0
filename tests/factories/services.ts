import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "../../app/.server/config/env.server.ts";
import { type AppServices, createServices, migrateAll } from "../../app/.server/app.server.ts";
import { createLogger } from "../../app/.server/logger.server.ts";

/** A fresh data directory (SQLite file + media) under the system temp folder. */
export function makeDataDir(prefix = "eef-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Real services on a real, freshly migrated SQLite file. Call `close()` when done. */
export async function createTestServices(
  dataDir: string = makeDataDir(),
  env: Record<string, string> = {},
  options: Parameters<typeof createServices>[2] = {},
): Promise<AppServices & { dataDir: string; close(): Promise<void> }> {
  const config = parseConfig({ DATA_DIR: dataDir, SEED_DEMO: "0", LOG_LEVEL: "silent", ...env });
  const services = createServices(config, createLogger({ logLevel: "silent" }), options);
  await migrateAll(services);
  return { ...services, dataDir, close: () => services.database.close() };
}
