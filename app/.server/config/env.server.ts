import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { z } from "zod";
import { ptBR } from "zod/locales";
import { envSchema } from "./env-schema.server.ts";
import type { PasswordPolicy } from "#app/lib/password-policy.ts";
import type { PublicSiteConfig } from "#app/lib/site-context.ts";
import { t, terminal } from "#app/i18n/pt-BR.ts";
import type { RoutePath } from "#app/lib/route-paths.ts";

/** The part of the configuration the browser may see: defined beside the root loader's data (app/lib). */
export type { PublicSiteConfig };

export type { PasswordPolicy };

export interface AppConfig {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string; poolSize: number; queryTimeoutMs?: number };
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  timeZone: string;
  seedDemo: boolean;
  /** Express's "trust proxy": false (no proxy headers believed), a hop count, or the trusted addresses. */
  trustProxy: false | number | string;
  /** How many server processes answer on the port (WORKERS, `auto` resolved to the cores this machine has). */
  workers: number;
  /** Reader renders in flight per process past which a saturated process answers 503 + Retry-After (0: never). */
  loadShedLimit: number;
  /** Reader renders run at once per process, the others waiting in order (0: no bound). */
  renderConcurrency: number;
  /** BODY_TIMEOUT_SECONDS in ms: the deadline of a form's body and of a body's rest after an early answer (server/slow-body.ts). */
  bodyTimeoutMs: number;
  /** EVENT_STREAMS_MAX: the open live-update streams one process holds (undefined: as the open-files limit allows). */
  eventStreamsMax: number | undefined;
  /** LIVE_FANOUT: the readers' streams held here, or by nginx + nchan, to which each event is published. */
  liveFanout: { kind: "app" } | { kind: "nchan"; publishUrl: string };
  /** Public pages rendered once and served from memory to readers without a session (null: off). */
  pageCache: { maxBytes: number; ttlMs: number } | null;
  /** The CDN in front that every change purges (null: none, or one that only expires pages on its own). */
  cdn: CdnConfig | null;
  /** Create a demo admin (random password printed once) when there is none. */
  demoAdmin: boolean;
  /** What the production start-up checks look at (see `assertProductionReady`). */
  deployment: { siteUrlSet: boolean; allowInsecureHttp: boolean; authSecretSet: boolean };
  media: MediaStoreConfig & {
    uploadTmpDir: string;
    sweepGraceMs: number;
    sweepIntervalMs: number;
    /** Uploads handled at the same time, per admin and in all. */
    parallelUploads: { perAdmin: number; total: number };
    /** EXTERNAL_MEDIA_ORIGINS: where imported media left on other sites may be shown from (lowercase origins). */
    externalOrigins: string[];
  };
  site: PublicSiteConfig;
  auth: {
    /** Null when unset: the app then generates one and keeps it under DATA_DIR/secrets. */
    secret: string | null;
    google: { clientId: string; clientSecret: string; discoveryUrl: string } | null;
    passwordPolicy: PasswordPolicy;
    twoFactor: "optional" | "required";
    /** Never-granted accounts older than this are removed (null: kept). */
    staleAccountMs: number | null;
    rateLimit: { max: number; windowSeconds: number; redisUrl: string | null };
  };
  /** Live coverage: the updates one member may post in a minute. */
  live: { postsPerMinute: number };
  /**
   * Web Push alerts (PUSH_ALERTS): on or off, the push services' origins browsers may be reached at (PUSH_SERVICES),
   * and the contact the site gives them with each message (VAPID `sub`: the contact e-mail, else the site's address).
   */
  push: { enabled: boolean; services: string[]; subject: string };
  mail: { smtpUrl: string | null; from: string; outboxDir: string };
  /** The key that signs backup manifests (BACKUP_SIGNING_KEY), or null: then a generated one in DATA_DIR/secrets. */
  backup: { signingKey: string | null };
}

/**
 * Where media is stored (MEDIA_STORE), with the settings of that store only: the local directory under DATA_DIR,
 * the bucket, or the Google Drive client. Settings of another store (an S3_BUCKET left set with MEDIA_STORE=local)
 * are not kept.
 */
export interface CdnConfig {
  provider: "varnish" | "fastly" | "cloudflare";
  /** Varnish: its address (PURGE requests go there); Fastly, Cloudflare: the API's base. */
  purgeUrl: string;
  token: string | null;
  serviceId: string | null;
}

function liveFanoutOf(env: z.infer<typeof envSchema>): AppConfig["liveFanout"] {
  if (env.LIVE_FANOUT === "app") return { kind: "app" };
  if (!env.NCHAN_PUBLISH_URL) throw new ConfigError(terminal.config.invalid([terminal.config.nchanPublishUrl]));
  return { kind: "nchan", publishUrl: env.NCHAN_PUBLISH_URL };
}

/** CDN_PURGE_URL turns purging on; Fastly and Cloudflare need their token and service (zone) id. */
function cdnConfigOf(env: z.infer<typeof envSchema>): CdnConfig | null {
  if (!env.CDN_PURGE_URL) return null;
  if (env.CDN_PROVIDER !== "varnish" && (!env.CDN_PURGE_TOKEN || !env.CDN_SERVICE_ID)) {
    throw new ConfigError(terminal.config.invalid([terminal.config.cdnCredentials(env.CDN_PROVIDER)]));
  }
  return {
    provider: env.CDN_PROVIDER,
    purgeUrl: env.CDN_PURGE_URL.replace(/\/+$/, ""),
    token: env.CDN_PURGE_TOKEN ?? null,
    serviceId: env.CDN_SERVICE_ID ?? null,
  };
}

export type MediaStoreConfig = { store: "local"; dir: string } | { store: "s3"; s3: S3Config } | { store: "gdrive"; gdrive: GoogleDriveConfig };

export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
  publicUrl: string | null;
  prefix: string;
}

/** The Google Drive store's OAuth client and endpoints (see GOOGLE_DRIVE_* in .env.example). */
export interface GoogleDriveConfig {
  clientId: string;
  clientSecret: string;
  /** Parent folder of every uploaded file; null: the root of the connected account's Drive. */
  folderId: string | null;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** Base of `/drive/v3/…` (no trailing slash). */
  apiUrl: string;
  /** Base of `/upload/drive/v3/…` (no trailing slash). */
  uploadUrl: string;
  /** Where Google sends the admin back after consent: `${SITE_URL}/admin/drive/callback`. */
  redirectUri: string;
}

/** True when `file` is an absolute path to a file this process may execute. */
function isExecutableFile(file: string): boolean {
  if (!path.isAbsolute(file)) return false;
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Zod's own messages in pt-BR, for the checks that have none of ours (`PORT: Grande demais: …`); only this parse. */
const ptBRMessages = ptBR().localeError;

/**
 * Parses the environment once. A bad value throws a ConfigError that names the variable, in pt-BR,
 * e.g. `PORT: Grande demais: esperava que o número fosse <= 65535`.
 */
export function parseConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = envSchema.safeParse(cleaned, { error: ptBRMessages });
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(terminal.config.invalid(lines));
  }
  const env = result.data;
  if (env.PASSWORD_MAX_LENGTH < env.PASSWORD_MIN_LENGTH) {
    throw new ConfigError(terminal.config.invalid([terminal.config.passwordMaxBelowMin]));
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    const missing = env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
    throw new ConfigError(terminal.config.invalid([terminal.config.together(missing, "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY")]));
  }
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    const missing = env.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID";
    throw new ConfigError(terminal.config.invalid([terminal.config.together(missing, "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET")]));
  }
  if (env.FFMPEG_PATH && !isExecutableFile(env.FFMPEG_PATH)) {
    throw new ConfigError(terminal.config.invalid([terminal.config.notExecutable("FFMPEG_PATH", env.FFMPEG_PATH)]));
  }
  const dataDir = path.resolve(env.DATA_DIR);
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const mediaStore = mediaStoreConfig(env, dataDir, siteUrl);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    database: resolveDatabase(env.DATABASE_URL, dataDir, {
      poolSize: env.DATABASE_POOL_SIZE,
      queryTimeoutMs: env.DATABASE_QUERY_TIMEOUT_SECONDS * 1000,
    }),
    logLevel: env.LOG_LEVEL,
    timeZone: env.TIME_ZONE,
    seedDemo: env.SEED_DEMO,
    demoAdmin: env.DEMO_ADMIN ?? env.NODE_ENV === "development",
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    cdn: cdnConfigOf(env),
    workers: env.WORKERS === undefined ? 1 : env.WORKERS === "auto" ? os.availableParallelism() : env.WORKERS,
    loadShedLimit: env.LOAD_SHED_LIMIT,
    renderConcurrency: env.RENDER_CONCURRENCY,
    bodyTimeoutMs: env.BODY_TIMEOUT_SECONDS * 1000,
    eventStreamsMax: env.EVENT_STREAMS_MAX,
    liveFanout: liveFanoutOf(env),
    pageCache: env.PAGE_CACHE ? { maxBytes: env.PAGE_CACHE_MAX_MB * 1024 * 1024, ttlMs: env.PAGE_CACHE_TTL_SECONDS * 1000 } : null,
    deployment: { siteUrlSet: Boolean(env.SITE_URL), allowInsecureHttp: env.ALLOW_INSECURE_HTTP, authSecretSet: Boolean(env.AUTH_SECRET) },
    media: {
      ...mediaStore,
      uploadTmpDir: path.join(dataDir, "tmp", "uploads"),
      sweepGraceMs: env.MEDIA_SWEEP_GRACE_SECONDS * 1000,
      sweepIntervalMs: env.MEDIA_SWEEP_INTERVAL_SECONDS * 1000,
      parallelUploads: { perAdmin: env.UPLOADS_PER_ADMIN, total: Math.max(env.UPLOADS_TOTAL, env.UPLOADS_PER_ADMIN) },
      externalOrigins: [...new Set(env.EXTERNAL_MEDIA_ORIGINS.map((origin) => origin.toLowerCase()))],
    },
    auth: {
      secret: env.AUTH_SECRET ?? null,
      google:
        env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
          ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, discoveryUrl: env.GOOGLE_DISCOVERY_URL }
          : null,
      passwordPolicy: {
        minLength: env.PASSWORD_MIN_LENGTH,
        maxLength: env.PASSWORD_MAX_LENGTH,
        requireLowercase: env.PASSWORD_REQUIRE_LOWERCASE,
        requireUppercase: env.PASSWORD_REQUIRE_UPPERCASE,
        requireNumber: env.PASSWORD_REQUIRE_NUMBER,
        requireSymbol: env.PASSWORD_REQUIRE_SYMBOL,
      },
      twoFactor: env.ADMIN_2FA,
      staleAccountMs: env.STALE_ACCOUNT_DAYS ? env.STALE_ACCOUNT_DAYS * 86_400_000 : null,
      rateLimit: { max: env.LOGIN_RATE_LIMIT, windowSeconds: env.LOGIN_RATE_WINDOW_SECONDS, redisUrl: env.REDIS_URL ?? null },
    },
    backup: { signingKey: env.BACKUP_SIGNING_KEY ?? null },
    live: { postsPerMinute: env.LIVE_POSTS_PER_MINUTE },
    push: {
      enabled: env.PUSH_ALERTS,
      services: [...new Set(env.PUSH_SERVICES.map((origin) => origin.toLowerCase()))],
      // An https: or mailto: address (RFC 8292); a site on plain http (the demo) gives its no-reply address.
      subject: env.CONTACT_EMAIL
        ? `mailto:${env.CONTACT_EMAIL}`
        : siteUrl.startsWith("https:")
          ? siteUrl
          : `mailto:nao-responda@${new URL(siteUrl).hostname}`,
    },
    mail: {
      smtpUrl: env.SMTP_URL ?? null,
      from: env.MAIL_FROM ?? `${env.SITE_NAME} <nao-responda@${new URL(siteUrl).hostname}>`,
      outboxDir: path.join(dataDir, "outbox"),
    },
    site: {
      name: env.SITE_NAME,
      url: siteUrl,
      description: env.SITE_DESCRIPTION ?? t.news.defaultSiteDescription,
      footerTitle: env.FOOTER_TITLE ?? env.SITE_NAME,
      defaultAuthor: t.news.defaultAuthor(env.SITE_NAME),
      contactEmail: env.CONTACT_EMAIL ?? null,
      // The LGPD's encarregado, named on the privacy page; reached at their own address, or the site's contact.
      privacyOfficer: env.PRIVACY_OFFICER_NAME
        ? { name: env.PRIVACY_OFFICER_NAME, email: env.PRIVACY_OFFICER_EMAIL ?? env.CONTACT_EMAIL ?? null }
        : null,
      ads: env.ADSENSE_CLIENT
        ? { client: env.ADSENSE_CLIENT, slots: { top: env.ADSENSE_SLOT_TOP ?? null, bottom: env.ADSENSE_SLOT_BOTTOM ?? null } }
        : null,
      timeZone: env.TIME_ZONE,
      alerts: env.PUSH_ALERTS,
      social: {
        instagram: env.SOCIAL_INSTAGRAM_URL,
        twitter: env.SOCIAL_TWITTER_URL,
        facebook: env.SOCIAL_FACEBOOK_URL,
      },
    },
  };
}

/**
 * What a public server must not run without, checked when the server starts in production (`npm start`,
 * NODE_ENV=production): the public address (cookies are `Secure` only on https, and links in e-mails and previews
 * use it), https unless ALLOW_INSECURE_HTTP=1 says otherwise, and, with several instances on PostgreSQL, one
 * AUTH_SECRET shared by all (each would otherwise make its own and sessions would break between them).
 * Throws a ConfigError naming the variable.
 */
export function assertProductionReady(config: AppConfig): void {
  if (config.env !== "production") return;
  const problems: string[] = [];
  const { siteUrlSet, allowInsecureHttp, authSecretSet } = config.deployment;
  if (!siteUrlSet) {
    problems.push(terminal.config.siteUrlRequired);
  } else if (new URL(config.site.url).protocol !== "https:" && !allowInsecureHttp) {
    problems.push(terminal.config.siteUrlHttps);
  }
  if (config.database.kind === "postgres" && !authSecretSet) {
    problems.push(terminal.config.authSecretRequired);
  }
  if (problems.length) throw new ConfigError(terminal.config.invalidForProduction(problems));
}

/** The chosen store's settings, refusing a store whose required settings are missing. */
function mediaStoreConfig(env: z.infer<typeof envSchema>, dataDir: string, siteUrl: string): MediaStoreConfig {
  switch (env.MEDIA_STORE) {
    case "local":
      return { store: "local", dir: path.join(dataDir, "media") };
    case "s3":
      if (!env.S3_BUCKET) throw new ConfigError(terminal.config.invalid([terminal.config.s3BucketRequired]));
      return {
        store: "s3",
        s3: {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT ?? null,
          accessKeyId: env.S3_ACCESS_KEY_ID ?? null,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? null,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
          publicUrl: env.S3_PUBLIC_URL?.replace(/\/+$/, "") ?? null,
          prefix: env.S3_PREFIX,
        },
      };
    case "gdrive": {
      const clientId = env.GOOGLE_DRIVE_CLIENT_ID ?? env.GOOGLE_CLIENT_ID;
      const clientSecret = env.GOOGLE_DRIVE_CLIENT_SECRET ?? env.GOOGLE_CLIENT_SECRET;
      if (!clientId || !clientSecret) {
        const missing = clientId ? "GOOGLE_DRIVE_CLIENT_SECRET" : "GOOGLE_DRIVE_CLIENT_ID";
        throw new ConfigError(terminal.config.invalid([terminal.config.driveClientRequired(missing)]));
      }
      return {
        store: "gdrive",
        gdrive: {
          clientId,
          clientSecret,
          folderId: env.GOOGLE_DRIVE_FOLDER_ID ?? null,
          authUrl: env.GOOGLE_DRIVE_AUTH_URL,
          tokenUrl: env.GOOGLE_DRIVE_TOKEN_URL,
          revokeUrl: env.GOOGLE_DRIVE_REVOKE_URL,
          apiUrl: env.GOOGLE_DRIVE_API_URL.replace(/\/+$/, ""),
          uploadUrl: env.GOOGLE_DRIVE_UPLOAD_URL.replace(/\/+$/, ""),
          redirectUri: `${siteUrl}${"/admin/drive/callback" satisfies RoutePath}`,
        },
      };
    }
  }
}

function parseTrustProxy(value: string | undefined): false | number | string {
  if (!value || value === "0" || value === "false") return false;
  if (value === "true") return 1;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function resolveDatabase(url: string | undefined, dataDir: string, pool: { poolSize: number; queryTimeoutMs?: number }): AppConfig["database"] {
  if (!url) return { kind: "sqlite", file: path.join(dataDir, "esporte-em-foco.sqlite") };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url, ...pool };
  const file = url.replace(/^(file|sqlite):(\/\/)?/, "");
  return { kind: "sqlite", file: path.resolve(file) };
}

/** Loads `.env` (if present) into process.env without overriding real environment variables. */
export function loadDotEnv(file = ".env"): void {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
