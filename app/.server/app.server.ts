import { type AppConfig, loadDotEnv, parseConfig } from "./config/env.server.ts";
import { openDatabase, type DatabaseHandle } from "./db/database.server.ts";
import { migrateToLatest } from "./db/migrate.server.ts";
import { createLogger, type Logger } from "./logger.server.ts";
import { createMediaService, type MediaService } from "./media/media.service.server.ts";
import { createNewsService, type NewsService } from "./news/news.service.server.ts";
import { seedDemoContent } from "./seed/demo-seed.server.ts";
import { createSponsorService, type SponsorService } from "./sponsors/sponsors.service.server.ts";
import { createLocalStore } from "./storage/local-store.server.ts";
import type { MediaStore } from "./storage/media-store.ts";

export interface AppServices {
  config: AppConfig;
  log: Logger;
  database: DatabaseHandle;
  store: MediaStore;
  media: MediaService;
  news: NewsService;
  sponsors: SponsorService;
}

/** Builds every service from the configuration. Nothing here reads process.env. */
export function createServices(
  config: AppConfig,
  log: Logger = createLogger(config),
  options: Parameters<typeof openDatabase>[1] = {},
): AppServices {
  const database = openDatabase(config, options);
  const store = createLocalStore({ root: config.media.dir });
  const deps = { db: database.db, store };
  return {
    config,
    log,
    database,
    store,
    media: createMediaService(deps),
    news: createNewsService(deps),
    sponsors: createSponsorService(deps),
  };
}

let current: AppServices | undefined;
let booting: Promise<AppServices> | undefined;

/**
 * Starts the application once: parses the configuration (a bad value throws naming the variable), opens the
 * database, runs migrations and, on an empty installation, creates the demo content.
 */
export function bootApp(): Promise<AppServices> {
  booting ??= (async () => {
    loadDotEnv();
    const config = parseConfig();
    const services = createServices(config);
    const applied = await migrateToLatest(services.database.db);
    if (applied.length) services.log.info({ migrations: applied }, "migrations applied");
    if (config.seedDemo) await seedDemoContent(services);
    current = services;
    return services;
  })();
  return booting;
}

/** The running application's services. Route loaders and actions call this. */
export function getServices(): AppServices {
  if (!current) throw new Error("A aplicação ainda não foi iniciada (bootApp).");
  return current;
}

export async function shutdownApp(): Promise<void> {
  const services = current;
  current = undefined;
  booting = undefined;
  await services?.database.close();
}
