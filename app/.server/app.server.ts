import { createNewsroomList, type NewsroomList } from "./news/desk/newsroom-list.server.ts";
import { sql } from "kysely";
import { createUploadSlots, type UploadSlots } from "./media/upload-slots.server.ts";
import { createAdminService, type AdminService } from "./admins/admins.service.server.ts";
import { announceFirstAdmin } from "./admins/first-admin.server.ts";
import { createProfileService, type ProfileService } from "./admins/profiles.server.ts";
import { createTeamService, type TeamService } from "./admins/team.server.ts";
import { removeStaleAccounts } from "./auth/accounts.server.ts";
import { type BetterAuthInstance, createBetterAuth, type LazyBetterAuth } from "./auth/auth.server.ts";
import { createAuthService, type AuthService } from "./auth/auth.service.server.ts";
import { createClusterRateLimiter, createMemoryRateLimiter, isClusterWorker, type RateLimiter } from "./auth/rate-limiter.server.ts";
import { createRedisRateLimiter, type SharedRateLimiter } from "./auth/redis-rate-limiter.server.ts";
import { resolveAuthSecret } from "./auth/secret.server.ts";
import { secureDataDir } from "./config/data-dir.server.ts";
import { type AppConfig, assertProductionReady, loadDotEnv, parseConfig } from "./config/env.server.ts";
import type { EventBus } from "./events/event-bus.ts";
import { createPostgresEventBus } from "./events/postgres-event-bus.server.ts";
import { createSqliteEventBus } from "./events/sqlite-event-bus.server.ts";
import { clusterPeers } from "./events/peers.server.ts";
import { createMailer, type Mailer } from "./mail/mailer.server.ts";
import { openDatabase, type DatabaseHandle } from "./db/database.server.ts";
import { LOCK_KEYS, runExclusive, runWithLock } from "./db/locks.server.ts";
import { migrateToLatest } from "./db/migrate.server.ts";
import { databaseFailure, openServicesChecked, storeFailureOr } from "./dependencies.server.ts";
import { createLogger, type Logger } from "./logger.server.ts";
import { createInstallation, type Installation } from "./media/installation.server.ts";
import { createMediaService, type MediaService } from "./media/media.service.server.ts";
import { type OrphanSweeper, startOrphanSweeper } from "./media/orphan-sweeper.server.ts";
import { createNewsEditor, type NewsEditor } from "./news/editor/news-editor.service.server.ts";
import { createLiveCoverage, type LiveCoverage } from "./news/live/live-coverage.server.ts";
import { createReviewNotifier, type ReviewNotifier } from "./news/publishing/news-review.server.ts";
import { type NewsScheduler, startNewsScheduler } from "./news/publishing/news-scheduler.server.ts";
import { createNewsService, type NewsService } from "./news/news.service.server.ts";
import { createRelatedStories, type RelatedStories } from "./news/related.server.ts";
import { createReadLimiter, type ReadLimiter } from "./news/reads/read-limiter.server.ts";
import { createReadCounter, type ReadCounter } from "./news/reads/reads.service.server.ts";
import { createSearchService, type SearchService } from "./search/search.service.server.ts";
import { createSponsorEditor, type SponsorEditor } from "./sponsors/sponsor-editor.service.server.ts";
import { createPushAlerts, type PushAlerts } from "./push/push-alerts.server.ts";
import { seedDemoContent } from "./seed/demo-seed.server.ts";
import { createSponsorService, type SponsorService } from "./sponsors/sponsors.service.server.ts";
import { createDriveConnectionFor, createMediaStore } from "./storage/create-store.server.ts";
import type { DriveConnection } from "./storage/google-drive/connection.server.ts";
import type { MediaStore } from "./storage/media-store.ts";

export interface AppServices {
  config: AppConfig;
  log: Logger;
  database: DatabaseHandle;
  /** Which installation this database is (the mark on every media object it stores). */
  installation: Installation;
  store: MediaStore;
  /** The newsroom's Google Drive connection (connect, disconnect, status); null unless MEDIA_STORE=gdrive. */
  drive: DriveConnection | null;
  media: MediaService;
  news: NewsService;
  /** Read counts per news item and hour, and the "Mais lidas" list. */
  reads: ReadCounter;
  /** How many reads one client may add per hour (in memory, no address kept). */
  readLimiter: ReadLimiter;
  search: SearchService;
  /** An article's "Leia também", kept per article until the news change. */
  related: RelatedStories;
  sponsors: SponsorService;
  mailer: Mailer;
  reviewMail: ReviewNotifier;
  /** Built on first use (readers never load it). */
  betterAuth: LazyBetterAuth;
  admins: AdminService;
  /** The team page (/equipe): members, invitations, role changes, revocations and their log. */
  team: TeamService;
  /** Members' public profiles: the news form's authors, the byline box, the person page, "Meu perfil". */
  profiles: ProfileService;
  auth: AuthService;
  events: EventBus;
  /** In memory, or in Redis (REDIS_URL): then `backend()` says whether Redis counts now or memory stands in. */
  rateLimiter: RateLimiter & Partial<Pick<SharedRateLimiter, "backend" | "close">>;
  newsEditor: NewsEditor;
  /** Live coverage of stories: state, scoreboard, updates (issue 20). */
  liveCoverage: LiveCoverage;
  /** The newsroom's list (/redacao): every status, filters, search over every status. */
  newsroom: NewsroomList;
  sponsorEditor: SponsorEditor;
  /** Uploads handled at the same time, per admin and in all (see withUploadSlot). */
  uploadSlots: UploadSlots;
  /** Web Push: readers' subscriptions and the alerts the desk sends (issue 36). */
  pushAlerts: PushAlerts;
}

/** Builds every service from the configuration. Nothing here reads process.env. */
export function createServices(config: AppConfig, log: Logger = createLogger(config), options: Parameters<typeof openDatabase>[1] = {}): AppServices {
  const database = openDatabase(config, {
    onPoolError: (error) => log.warn({ err: error }, "idle database connection lost"),
    ...options,
  });
  const secret = resolveAuthSecret(config);
  // The Google Drive store keeps its file ids in the database and its token encrypted with the app secret.
  const drive = createDriveConnectionFor(config, { db: database.db, secret, log });
  const store = createMediaStore(config, { db: database.db, drive, log });
  const deps = { db: database.db, store };
  const installation = createInstallation(database.db);
  const mailer = createMailer(config, log);
  const betterAuth = createBetterAuth({ config, db: database.db, dialect: database.dialect, secret, mailer, log });
  const admins = createAdminService({ db: database.db, log });
  const media = createMediaService({ ...deps, log, installation });
  // Other instances' (PostgreSQL) and other processes' (SQLite) changes reach this one's subscribers too.
  const events =
    config.database.kind === "postgres"
      ? createPostgresEventBus({ url: config.database.url, db: database.db, log })
      : createSqliteEventBus({ db: database.db, log, peers: clusterPeers() });
  const editorDeps = { db: database.db, media, store, events, log };
  // The review queue's e-mails (submitted, approved, returned), sent after each save's commit.
  const reviewMail = createReviewNotifier({ db: database.db, mailer, log, site: config.site, timeZone: config.timeZone });
  const { redisUrl } = config.auth.rateLimit;
  // Several worker processes (WORKERS) without Redis count in the primary's memory, so a limit is the same for all.
  const rateLimiter = redisUrl
    ? createRedisRateLimiter({ url: redisUrl, log })
    : isClusterWorker()
      ? createClusterRateLimiter()
      : createMemoryRateLimiter();
  const reads = createReadCounter({ db: database.db, log });
  const news = createNewsService(deps);
  const search = createSearchService({ ...deps, dialect: database.dialect });
  const related = createRelatedStories({ ...deps, search, log });
  const sponsors = createSponsorService({ ...deps, timeZone: config.timeZone });
  // A news item deleted or retitled must leave the "Mais lidas" list at once, here and on every instance; a category
  // published for the first time (or no longer in use) must reach the section menu. Subscribed before the page cache
  // (server/app.ts), so the pages it re-renders after the event already read the new lists.
  events.subscribe((event) => {
    if (event === "newsUpdated" || event === "resync") {
      reads.invalidate();
      news.invalidate();
      related.invalidate();
    }
    if (event === "sponsorsUpdated" || event === "resync") sponsors.invalidate();
  });
  return {
    config,
    log,
    database,
    installation,
    store,
    drive,
    media,
    news,
    reads,
    readLimiter: createReadLimiter(),
    search,
    related,
    sponsors,
    mailer,
    reviewMail,
    betterAuth,
    admins,
    team: createTeamService({ db: database.db, dialect: database.dialect, betterAuth, mailer, config, log }),
    profiles: createProfileService(editorDeps),
    auth: createAuthService({ auth: betterAuth, mailer, admins, limiter: rateLimiter, config, log }),
    rateLimiter,
    events,
    newsEditor: createNewsEditor({
      ...editorDeps,
      defaultAuthor: config.site.defaultAuthor,
      timeZone: config.timeZone,
      notify: reviewMail,
    }),
    liveCoverage: createLiveCoverage({ ...editorDeps, limiter: rateLimiter, postsPerMinute: config.live.postsPerMinute }),
    newsroom: createNewsroomList({ db: database.db, dialect: database.dialect, timeZone: config.timeZone }),
    sponsorEditor: createSponsorEditor(editorDeps),
    uploadSlots: createUploadSlots(config.media.parallelUploads),
    pushAlerts: createPushAlerts({ db: database.db, log, config: config.push }),
  };
}

/**
 * Brings every table up to date: Better Auth's own tables first (ours refer to its users), then ours.
 *
 * `deferAuthSchema` (the server's start): on an installation that already has Better Auth's tables, Better Auth's
 * schema check (which loads all of Better Auth, ~0.3 s) runs on its first use instead, before anything uses it, so a
 * reader's page never waits for it. Our own migrations always run here. On a new installation both run now.
 */
export async function migrateAll(
  services: Pick<AppServices, "betterAuth" | "database">,
  options: { deferAuthSchema?: boolean } = {},
): Promise<string[]> {
  const { database, betterAuth } = services;
  // Several instances may start together: one migrates, the others wait and then find nothing to do.
  return runWithLock(database, LOCK_KEYS.migrations, async () => {
    if (options.deferAuthSchema && !betterAuth.loaded && (await hasAuthTables(database))) {
      betterAuth.beforeFirstUse((auth) => runWithLock(database, LOCK_KEYS.migrations, () => migrateAuthSchema(auth)));
    } else {
      await migrateAuthSchema(await betterAuth.get());
    }
    return migrateToLatest(database.db);
  });
}

/** Better Auth's schema check: creates its missing tables and columns (nothing on an up-to-date database). */
async function migrateAuthSchema(auth: BetterAuthInstance): Promise<void> {
  const { getMigrations } = await import("better-auth/db/migration");
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
}

/** Whether Better Auth's tables were created already (its user and session tables, and two-factor's). */
async function hasAuthTables(database: Pick<DatabaseHandle, "db" | "dialect">): Promise<boolean> {
  const names = ["user", "session", "account", "verification", "twoFactor"];
  const { rows } =
    database.dialect === "postgres"
      ? await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name in (${sql.join(names)})`.execute(
          database.db,
        )
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name in (${sql.join(names)})`.execute(database.db);
  return rows.length === names.length;
}

/** The services bootApp started, kept only for shutdownApp (requests get theirs from their context). */
let current: AppServices | undefined;
let sweeper: OrphanSweeper | undefined;
let scheduler: NewsScheduler | undefined;
let accountCleanup: ReturnType<typeof setInterval> | undefined;
let trashPurge: ReturnType<typeof setInterval> | undefined;
let booting: Promise<AppServices> | undefined;

/** How this process takes part in the server: alone (the default), or as one of several workers (WORKERS > 1). */
export interface BootOptions {
  /** The primary process already migrated and seeded the installation (a worker skips it). */
  prepared?: boolean;
  /** Runs the sweeper, the scheduler and the account cleanup (one worker of several does). */
  backgroundTasks?: boolean;
  /** This worker's number (1…WORKERS), on every log line it writes. */
  worker?: number;
}

/**
 * Configuration, logger and services of this process, the data directory checked. A database that cannot be reached
 * is a DependencyError (one line for the operator; server/main.ts prints it and exits).
 */
async function openServices(worker?: number): Promise<AppServices> {
  loadDotEnv();
  const config = parseConfig();
  assertProductionReady(config);
  const root = createLogger(config, { buffered: true });
  const log = worker === undefined ? root : root.child({ worker, pid: process.pid });
  return openServicesChecked(config, () => {
    const tightened = secureDataDir(config.dataDir, config.database.kind === "sqlite" ? config.database.file : null);
    if (tightened.length) log.warn({ tightened }, "data directory was readable by others: permissions tightened");
    return createServices(config, log);
  });
}

/** Migrations, and on an empty installation the demo content and the first admin; the installation's id recorded. */
async function prepare(services: AppServices): Promise<void> {
  const { config } = services;
  let applied: string[];
  try {
    applied = await migrateAll(services, { deferAuthSchema: true });
  } catch (error) {
    throw databaseFailure(error, config) ?? error;
  }
  if (applied.length) services.log.info({ migrations: applied }, "migrations applied");
  // A store an admin must connect (Google Drive) and has not yet: no media can be stored, so the demo waits for a
  // start after the connection.
  const seedable = !services.store.needsConnection || (await services.store.isConnected());
  if (config.seedDemo && !seedable)
    services.log.warn({ store: services.store.name }, "media store not connected: demo content not created on this start");
  // The demo content and the first admin do not depend on each other: the demo admin's password is hashed on the
  // main thread while the demo pictures are encoded on libvips' threads.
  const firstStart = await Promise.allSettled([
    config.seedDemo && seedable
      ? runWithLock(services.database, LOCK_KEYS.demoSeed, () => seedDemoContent(services)).catch(async (error: unknown) => {
          // The demo's media could not be stored because the store does not answer (an S3 endpoint that points
          // nowhere): one line naming it, not the SDK's error.
          throw await storeFailureOr(error, services.store, config);
        })
      : null,
    announceFirstAdmin(services),
  ]);
  for (const result of firstStart) if (result.status === "rejected") throw result.reason;
  // Recorded now, so the first upload does not have to.
  await services.installation.id();
}

/**
 * The primary process of a server with several workers (WORKERS > 1, server/cluster-primary.ts): prepares the
 * installation once (migrations, demo content, first admin, the generated secret) before any worker starts, so
 * workers never race for it, then closes what it opened. Returns how many workers to start and a logger.
 */
export async function prepareInstallation(): Promise<{ workers: number; log: Logger }> {
  const services = await openServices();
  try {
    await prepare(services);
    return { workers: services.config.workers, log: services.log };
  } finally {
    await closeServices(services);
  }
}

/**
 * Starts the application once: parses the configuration (a bad value throws naming the variable), opens the
 * database, runs migrations and, on an empty installation, creates the demo content (unless the primary did:
 * `prepared`), and starts the background tasks (unless another worker runs them).
 */
export function bootApp({ prepared = false, backgroundTasks = true, worker }: BootOptions = {}): Promise<AppServices> {
  booting ??= (async () => {
    const services = await openServices(worker);
    if (!prepared) await prepare(services);
    // Requests from here on: a query whose reply does not come is a 503, not a request that waits for minutes.
    if (services.config.database.kind === "postgres") services.database.setQueryDeadline?.(services.config.database.queryTimeoutMs ?? 0);
    if (backgroundTasks) startBackgroundTasks(services);
    current = services;
    return services;
  })();
  return booting;
}

/** The sweeper, the scheduler and the stale account cleanup (each stopped by shutdownApp). */
function startBackgroundTasks(services: AppServices): void {
  const { config } = services;
  sweeper = startOrphanSweeper({
    installationId: () => services.installation.id(),
    db: services.database.db,
    store: services.store,
    log: services.log,
    graceMs: config.media.sweepGraceMs,
    intervalMs: config.media.sweepIntervalMs,
    tmpDirs: [config.media.uploadTmpDir],
    // With several instances on one PostgreSQL, only one sweeps at a time.
    exclusive: (task) => runExclusive(services.database, LOCK_KEYS.orphanSweep, task),
  });
  // Scheduled news go live at their time, whether or not anyone is reading.
  scheduler = startNewsScheduler({ db: services.database.db, events: services.events, log: services.log });
  // Stories in the Lixeira for longer than TRASH_DAYS are erased (checked on the sweep timer, by one instance).
  trashPurge = setInterval(() => {
    runExclusive(services.database, LOCK_KEYS.trashPurge, async () => {
      const erased = await services.newsEditor.purgeTrash();
      if (erased) services.log.info({ erased }, "stories erased from the trash");
    }).catch((error: unknown) => services.log.error({ err: error }, "trash purge failed"));
  }, config.media.sweepIntervalMs);
  trashPurge.unref();
  // Accounts that registered and were never made admins go after STALE_ACCOUNT_DAYS (checked on the sweep timer).
  const staleMs = config.auth.staleAccountMs;
  if (staleMs) {
    accountCleanup = setInterval(() => {
      runExclusive(services.database, LOCK_KEYS.staleAccounts, async () => {
        const removed = await removeStaleAccounts(services.betterAuth, services.database.db, new Date(Date.now() - staleMs));
        if (removed) services.log.info({ removed }, "accounts never made admins removed");
      }).catch((error: unknown) => services.log.error({ err: error }, "stale account cleanup failed"));
    }, config.media.sweepIntervalMs);
    accountCleanup.unref();
  }
}

export async function shutdownApp(): Promise<void> {
  const services = current;
  current = undefined;
  booting = undefined;
  clearInterval(accountCleanup);
  clearInterval(trashPurge);
  scheduler?.stop();
  scheduler = undefined;
  sweeper?.stop();
  await sweeper?.idle();
  sweeper = undefined;
  if (services) await closeServices(services);
}

/**
 * Closes everything the services hold open (the event bus's listening connection, Redis, mail, the database pool),
 * so a process that built them (the server at shutdown, every `npm run` command) can end by itself.
 */
export async function closeServices(
  services: Pick<AppServices, "events" | "rateLimiter" | "reads" | "mailer" | "database" | "log"> &
    Partial<Pick<AppServices, "reviewMail" | "pushAlerts">>,
): Promise<void> {
  // Alerts being sent finish (each message has its own deadline) before the database closes.
  await services.pushAlerts?.idle();
  await services.events.close();
  await services.rateLimiter.close?.();
  // Reads counted in the last seconds are written before the database closes.
  await services.reads.close().catch((error: unknown) => services.log.error({ err: error }, "read counts: final write failed"));
  // The review queue's e-mails read the database before they reach the mailer.
  await services.reviewMail?.idle();
  await services.mailer.idle();
  await services.database.close();
}
