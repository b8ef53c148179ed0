import path from "node:path";
import { z } from "zod";

const DEFAULT_SITE_NAME = "Esporte em Foco";

const booleanFlag = z
  .enum(["0", "1", "true", "false", "yes", "no", "on", "off"], {
    error: "use 1/0, true/false, yes/no ou on/off",
  })
  .transform((value) => ["1", "true", "yes", "on"].includes(value));

const optionalUrl = z.url({ error: "precisa ser uma URL completa (https://…)" }).optional();

/** Every environment variable the app reads, with its default. `.env.example` documents each one. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^(file|sqlite):/, { error: "use file:caminho/para/banco.sqlite" })
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SITE_NAME: z.string().trim().min(1).default(DEFAULT_SITE_NAME),
  SITE_URL: optionalUrl,
  SITE_DESCRIPTION: z.string().trim().min(1).optional(),
  FOOTER_TITLE: z.string().trim().min(1).optional(),
  SOCIAL_INSTAGRAM_URL: z.url().default("https://www.instagram.com/esporteemfoco"),
  SOCIAL_TWITTER_URL: z.url().default("https://twitter.com/esporteemfoco"),
  SOCIAL_FACEBOOK_URL: z.url().default("https://www.facebook.com/esporteemfoco"),
  CONTACT_EMAIL: z.email({ error: "precisa ser um e-mail válido" }).optional(),
  TIME_ZONE: z
    .string()
    .default("America/Sao_Paulo")
    .refine(isValidTimeZone, { error: "fuso horário IANA desconhecido (ex.: America/Sao_Paulo)" }),
  SEED_DEMO: booleanFlag.default(true),
  MEDIA_STORE: z.enum(["local"]).default("local"),
});

function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("pt-BR", { timeZone });
    return true;
  } catch {
    return false;
  }
}

export interface AppConfig {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  database: { kind: "sqlite"; file: string };
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  timeZone: string;
  seedDemo: boolean;
  media: { store: "local"; dir: string };
  site: PublicSiteConfig;
}

/** The part of the configuration the browser may see (sent by the root loader). */
export interface PublicSiteConfig {
  name: string;
  url: string;
  description: string;
  footerTitle: string;
  defaultAuthor: string;
  contactEmail: string | null;
  timeZone: string;
  social: { instagram: string; twitter: string; facebook: string };
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Parses the environment once. A bad value throws a ConfigError that names the variable,
 * e.g. `PORT: Too big: expected number to be <=65535`.
 */
export function parseConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Configuração inválida:\n  ${lines.join("\n  ")}`);
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir,
    database: resolveDatabase(env.DATABASE_URL, dataDir),
    logLevel: env.LOG_LEVEL,
    timeZone: env.TIME_ZONE,
    seedDemo: env.SEED_DEMO,
    media: { store: env.MEDIA_STORE, dir: path.join(dataDir, "media") },
    site: {
      name: env.SITE_NAME,
      url: siteUrl,
      description:
        env.SITE_DESCRIPTION ??
        "Futebol, basquete, vôlei e tudo o que move o esporte brasileiro, com cobertura diária e independente.",
      footerTitle: env.FOOTER_TITLE ?? env.SITE_NAME,
      defaultAuthor: `Redação ${env.SITE_NAME}`,
      contactEmail: env.CONTACT_EMAIL ?? null,
      timeZone: env.TIME_ZONE,
      social: {
        instagram: env.SOCIAL_INSTAGRAM_URL,
        twitter: env.SOCIAL_TWITTER_URL,
        facebook: env.SOCIAL_FACEBOOK_URL,
      },
    },
  };
}

function resolveDatabase(url: string | undefined, dataDir: string): AppConfig["database"] {
  if (!url) return { kind: "sqlite", file: path.join(dataDir, "esporte-em-foco.sqlite") };
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
