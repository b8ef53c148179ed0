import { z } from "zod";
import { terminal } from "#app/i18n/pt-BR.ts";
import { isPlainEmailAddress } from "#app/lib/email-address.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";

/**
 * Every environment variable the server reads, with its check and pt-BR message (parseConfig in env.server.ts turns
 * the result into the AppConfig the services take). `.env.example` lists them all (tests/unit/config.test.ts).
 */

const DEFAULT_SITE_NAME = "Esporte em Foco";

const booleanFlag = z
  .enum(["0", "1", "true", "false", "yes", "no", "on", "off"], {
    error: terminal.config.booleanFlag,
  })
  .transform((value) => ["1", "true", "yes", "on"].includes(value));

/** One origin of EXTERNAL_MEDIA_ORIGINS: https, a host name (optionally `*.` for its subdomains), maybe a port, no path. */
const ORIGIN = /^https:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d{1,5})?$/i;

/** A test's push service on this machine (PUSH_SERVICES). */
const LOOPBACK_ORIGIN = /^http:\/\/127\.0\.0\.1:\d{1,5}$/;

const optionalUrl = z.url({ error: terminal.config.url }).optional();

/** Every environment variable the app reads, with its default. `.env.example` documents each one. */
export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  FFMPEG_PATH: z.string().trim().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|sqlite:|postgres:\/\/|postgresql:\/\/)/, {
      error: terminal.config.databaseUrl,
    })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_QUERY_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(10),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SITE_NAME: z.string().trim().min(1).default(DEFAULT_SITE_NAME),
  SITE_URL: optionalUrl,
  SITE_DESCRIPTION: z.string().trim().min(1).optional(),
  FOOTER_TITLE: z.string().trim().min(1).optional(),
  SOCIAL_INSTAGRAM_URL: z.url().default("https://www.instagram.com/esporteemfoco"),
  SOCIAL_TWITTER_URL: z.url().default("https://twitter.com/esporteemfoco"),
  SOCIAL_FACEBOOK_URL: z.url().default("https://www.facebook.com/esporteemfoco"),
  CONTACT_EMAIL: z.string().trim().refine(isPlainEmailAddress, { error: terminal.config.email }).optional(),
  PRIVACY_OFFICER_NAME: z.string().trim().min(1).max(120).optional(),
  PRIVACY_OFFICER_EMAIL: z.string().trim().refine(isPlainEmailAddress, { error: terminal.config.email }).optional(),
  /** Google AdSense: the publisher id turns the home's two ad slots into units, after each reader's consent. */
  ADSENSE_CLIENT: z
    .string()
    .trim()
    .regex(/^ca-pub-\d{6,20}$/, { error: terminal.config.adsenseClient })
    .optional(),
  ADSENSE_SLOT_TOP: z
    .string()
    .trim()
    .regex(/^\d{4,20}$/, { error: terminal.config.adsenseSlot })
    .optional(),
  ADSENSE_SLOT_BOTTOM: z
    .string()
    .trim()
    .regex(/^\d{4,20}$/, { error: terminal.config.adsenseSlot })
    .optional(),
  TIME_ZONE: z.string().default("America/Sao_Paulo").refine(isValidTimeZone, { error: terminal.config.timeZone }),
  SEED_DEMO: booleanFlag.default(true),
  MEDIA_STORE: z.enum(["local", "s3", "gdrive"]).default("local"),
  S3_BUCKET: z.string().trim().min(3).optional(),
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  /** Public base URL of the bucket (usually a CDN): media URLs become `${S3_PUBLIC_URL}/${key}`. */
  S3_PUBLIC_URL: z.url().optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([a-z0-9][a-z0-9._-]*\/)*$/, { error: terminal.config.s3Prefix })
    .default(""),
  /** Google Drive store (MEDIA_STORE=gdrive): OAuth client (defaults to GOOGLE_CLIENT_ID/SECRET) and optional folder. */
  GOOGLE_DRIVE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_DRIVE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  GOOGLE_DRIVE_FOLDER_ID: z
    .string()
    .trim()
    .regex(/^[\w-]+$/, { error: terminal.config.driveFolderId })
    .optional(),
  /** Google's documented endpoints; changed only to point at a test server. */
  GOOGLE_DRIVE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_DRIVE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_DRIVE_REVOKE_URL: z.url().default("https://oauth2.googleapis.com/revoke"),
  GOOGLE_DRIVE_API_URL: z.url().default("https://www.googleapis.com"),
  GOOGLE_DRIVE_UPLOAD_URL: z.url().default("https://www.googleapis.com"),
  /**
   * Other sites the pages may show images and videos from (Content-Security-Policy img-src/media-src): the media
   * imported from the original product and left on Google Drive (`npm run import:firestore`). Origins separated by
   * spaces or commas, a `*.` wildcard allowed for subdomains. None by default: no reader's browser is sent elsewhere.
   */
  EXTERNAL_MEDIA_ORIGINS: z
    .string()
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .superRefine((origins, ctx) => {
      for (const origin of origins.filter((origin) => !ORIGIN.test(origin))) {
        ctx.addIssue({
          code: "custom",
          message: terminal.config.externalOrigin(origin),
        });
      }
    })
    .default([]),
  /**
   * Where readers' browsers may have their Web Push alerts delivered (the push services of Chrome, Firefox, Safari and
   * Edge by default): the app sends to no other address, so no one can make it post to a host of their choosing.
   * Origins separated by spaces or commas, `*.` for subdomains; `http://127.0.0.1:{port}` is accepted (a test's push
   * service on this machine).
   */
  PUSH_SERVICES: z
    .string()
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .superRefine((origins, ctx) => {
      for (const origin of origins.filter((origin) => !ORIGIN.test(origin) && !LOOPBACK_ORIGIN.test(origin))) {
        ctx.addIssue({ code: "custom", message: terminal.config.externalOrigin(origin) });
      }
    })
    .default(["https://fcm.googleapis.com", "https://updates.push.services.mozilla.com", "https://*.push.apple.com", "https://*.notify.windows.com"]),
  /** Web Push alerts on (the readers' "Receber alertas", the desk's "Enviar alerta"); `0` turns them off. */
  PUSH_ALERTS: booleanFlag.default(true),
  /** Media no record points to is removed after this many seconds (uploads in progress are younger). */
  MEDIA_SWEEP_GRACE_SECONDS: z.coerce.number().int().min(1).max(604_800).default(21_600),
  MEDIA_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(3_600),
  /**
   * Uploads handled at the same time, per admin and in all (each holds a temporary file and, for images, the
   * decoder's memory): beyond them an upload is refused at once (429 / 503 with Retry-After).
   */
  UPLOADS_PER_ADMIN: z.coerce.number().int().min(1).max(50).default(2),
  UPLOADS_TOTAL: z.coerce.number().int().min(1).max(200).default(4),

  /**
   * Server processes answering on the same port (node:cluster): 1 by default, `auto` for one per core. Each has its
   * own page cache; changes reach all of them at once (docs/decisions/012-workers.md).
   */
  WORKERS: z
    .string()
    .trim()
    .refine((value) => value === "auto" || (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 64), { error: terminal.config.workers })
    .transform((value) => (value === "auto" ? ("auto" as const) : Number(value)))
    .optional(),
  /**
   * Reader requests rendered at once per process past which, while the process is saturated, new ones are answered
   * 503 with Retry-After at once instead of waiting behind the queue (0 turns it off). Writes, the newsroom's
   * requests, health checks and open-page streams are never refused.
   */
  LOAD_SHED_LIMIT: z.coerce.number().int().min(0).max(10_000).default(128),
  /**
   * How long a request body may take (server/slow-body.ts): a form without a file arrives whole within it, what is left
   * of a body already answered within it too, and an upload brings at least BODY_MIN_BYTES_PER_SECOND over each window
   * of twice it.
   */
  BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  /**
   * Open live-update streams (`/events`) one process holds; past it a new page gets a 429 and simply no live updates.
   * Unset: what the process's open-files limit allows (server/event-streams.ts).
   */
  EVENT_STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /**
   * Who holds the readers' open event streams: this server (`app`), or nginx with the nchan module in front
   * (`nchan`, deploy/nginx/esporte-em-foco-nchan.conf): each event is then published to NCHAN_PUBLISH_URL, and nginx
   * gives readers' `/events` to nchan, so N app instances and one or more nginx boxes hold the streams.
   */
  LIVE_FANOUT: z.enum(["app", "nchan"], { error: terminal.config.liveFanout }).default("app"),
  /** nchan's publisher location (the nginx site file's `/_nchan/pub`, reachable from the app only). */
  NCHAN_PUBLISH_URL: optionalUrl,
  /** Reader renders run at once per process; the others wait their turn in order (0: no bound). */
  RENDER_CONCURRENCY: z.coerce.number().int().min(0).max(10_000).default(8),
  /** The in-memory page cache for readers without a session (0 turns it off). */
  PAGE_CACHE: booleanFlag.default(true),
  PAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
  PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /**
   * A CDN or HTTP cache in front, purged on every change (docs/decisions/010-cdn-purge.md): where purges go (Varnish:
   * its address; Fastly and Cloudflare: their API, defaulted), which kind, and the credentials Fastly and Cloudflare need.
   */
  CDN_PURGE_URL: optionalUrl,
  CDN_PROVIDER: z.enum(["varnish", "fastly", "cloudflare"], { error: terminal.config.cdnProvider }).default("varnish"),
  CDN_PURGE_TOKEN: z.string().trim().min(1).optional(),
  /** Fastly's service id, or Cloudflare's zone id. */
  CDN_SERVICE_ID: z
    .string()
    .trim()
    .regex(/^[\w-]+$/, { error: terminal.config.cdnServiceId })
    .optional(),
  AUTH_SECRET: z.string().min(32, { error: terminal.config.secretTooShort }).optional(),
  /**
   * Which peers may tell the client's address and protocol (X-Forwarded-For / -Proto): none by default; `loopback`,
   * a hop count, or addresses/CIDRs separated by commas when a reverse proxy or load balancer is in front.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(0|false|true|\d{1,2}|((loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)(\s*,\s*)?)+)$/, {
      error: terminal.config.trustProxy,
    })
    .optional(),
  /** Accounts that registered and were never made admins are removed after this many days (0: never). */
  STALE_ACCOUNT_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** Signs backup manifests (HMAC); without it a key is generated in DATA_DIR/secrets and kept out of backups. */
  BACKUP_SIGNING_KEY: z.string().min(32, { error: terminal.config.secretTooShort }).optional(),
  /** Production refuses a plain-http SITE_URL unless this says it is on purpose (a test box, a TLS proxy on the same host). */
  ALLOW_INSECURE_HTTP: booleanFlag.default(false),
  /** Two-factor sign-in for admins: `optional` (each admin may turn it on) or `required` (every admin must). */
  ADMIN_2FA: z.enum(["optional", "required"], { error: terminal.config.admin2fa }).default("optional"),
  /**
   * Creates a demo admin with a random password printed once, when there is no admin (set by `npm run dev` and
   * `npm run demo`; never do this on a public server).
   */
  DEMO_ADMIN: booleanFlag.optional(),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  GOOGLE_DISCOVERY_URL: z.url().default("https://accounts.google.com/.well-known/openid-configuration"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: terminal.config.smtpUrl })
    .optional(),
  MAIL_FROM: z.string().trim().min(3).optional(),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6, { error: terminal.config.passwordMinLength }).max(128).default(6),
  PASSWORD_MAX_LENGTH: z.coerce.number().int().min(8).max(256).default(128),
  PASSWORD_REQUIRE_LOWERCASE: booleanFlag.default(false),
  PASSWORD_REQUIRE_UPPERCASE: booleanFlag.default(false),
  PASSWORD_REQUIRE_NUMBER: booleanFlag.default(false),
  PASSWORD_REQUIRE_SYMBOL: booleanFlag.default(false),
  /** Redis shared by every instance for the rate limits (optional; memory otherwise). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { error: terminal.config.redisUrl })
    .optional(),
  /** Sign-in attempts allowed per window, per IP and per account. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(1000).default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Live updates one member may post in a minute (LIVE_LIMITS.postsPerMinute). */
  LIVE_POSTS_PER_MINUTE: z.coerce.number().int().min(1).max(600).default(LIVE_LIMITS.postsPerMinute),
});

function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("pt-BR", { timeZone });
    return true;
  } catch {
    return false;
  }
}
