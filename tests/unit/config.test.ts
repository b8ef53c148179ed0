import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type AppConfig, assertProductionReady, ConfigError, parseConfig } from "#app/.server/config/env.server.ts";
import { envSchema } from "#app/.server/config/env-schema.server.ts";
import { BODY_TIMEOUTS, bodyTimeouts } from "#server/slow-body.ts";

function sqliteFile(config: Pick<AppConfig, "database">): string {
  if (config.database.kind !== "sqlite") throw new Error(`expected SQLite, got ${config.database.kind}`);
  return config.database.file;
}

/** Runs parseConfig and returns the ConfigError it throws (fails the test when it does not throw one). */
function configErrorFor(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseConfig aceitou ${JSON.stringify(env)}`);
}

describe("parseConfig: defaults", () => {
  const config = parseConfig({});

  it("listens on port 3000 on every interface", () => {
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.env).toBe("production");
  });

  it("keeps data under ./data, resolved to an absolute path, with the SQLite file and media inside it", () => {
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.database.kind).toBe("sqlite");
    expect(path.dirname(sqliteFile(config))).toBe(config.dataDir);
    expect(sqliteFile(config)).toMatch(/\.sqlite$/);
    expect(config.media).toEqual({
      store: "local",
      dir: path.join(config.dataDir, "media"),
      uploadTmpDir: path.join(config.dataDir, "tmp", "uploads"),
      sweepGraceMs: 6 * 60 * 60_000,
      sweepIntervalMs: 60 * 60_000,
      parallelUploads: { perAdmin: 2, total: 4 },
      externalOrigins: [],
    });
  });

  it("names the site 'Esporte em Foco' with the newsroom as default author", () => {
    expect(config.site.name).toBe("Esporte em Foco");
    expect(config.site.defaultAuthor).toBe("Redação Esporte em Foco");
    expect(config.site.footerTitle).toBe("Esporte em Foco");
    expect(config.site.url).toBe("http://localhost:3000");
    expect(config.site.description.length).toBeGreaterThan(0);
  });

  it("seeds the demo, uses São Paulo time and has no contact e-mail", () => {
    expect(config.seedDemo).toBe(true);
    expect(config.timeZone).toBe("America/Sao_Paulo");
    expect(config.site.timeZone).toBe("America/Sao_Paulo");
    expect(config.site.contactEmail).toBeNull();
    expect(config.logLevel).toBe("info");
  });

  it("treats empty strings as unset", () => {
    const fromEmpty = parseConfig({ PORT: "", SITE_NAME: "", TIME_ZONE: "", SEED_DEMO: "", CONTACT_EMAIL: "" });
    expect(fromEmpty.port).toBe(3000);
    expect(fromEmpty.site.name).toBe("Esporte em Foco");
    expect(fromEmpty.timeZone).toBe("America/Sao_Paulo");
    expect(fromEmpty.seedDemo).toBe(true);
    expect(fromEmpty.site.contactEmail).toBeNull();
  });
});

describe("parseConfig: overrides", () => {
  it("SITE_NAME changes the default author and the footer title", () => {
    const config = parseConfig({ SITE_NAME: "Placar Livre" });
    expect(config.site.name).toBe("Placar Livre");
    expect(config.site.defaultAuthor).toBe("Redação Placar Livre");
    expect(config.site.footerTitle).toBe("Placar Livre");
  });

  it("FOOTER_TITLE overrides only the footer title", () => {
    const config = parseConfig({ SITE_NAME: "Placar Livre", FOOTER_TITLE: "Placar Livre Esportes" });
    expect(config.site.footerTitle).toBe("Placar Livre Esportes");
    expect(config.site.defaultAuthor).toBe("Redação Placar Livre");
  });

  it("DATA_DIR moves the SQLite file and the media folder", () => {
    const config = parseConfig({ DATA_DIR: "/tmp/eef-config-test" });
    expect(config.dataDir).toBe("/tmp/eef-config-test");
    expect(path.dirname(sqliteFile(config))).toBe("/tmp/eef-config-test");
    expect(config.media).toMatchObject({ store: "local", dir: "/tmp/eef-config-test/media" });
  });

  it("DATABASE_URL=file:… points to that SQLite file (relative or absolute)", () => {
    expect(parseConfig({ DATABASE_URL: "file:./tmp/outro.sqlite" }).database).toEqual({
      kind: "sqlite",
      file: path.resolve("./tmp/outro.sqlite"),
    });
    expect(sqliteFile(parseConfig({ DATABASE_URL: "file:///var/lib/eef/banco.sqlite" }))).toBe("/var/lib/eef/banco.sqlite");
    expect(sqliteFile(parseConfig({ DATABASE_URL: "sqlite:/srv/db.sqlite", DATA_DIR: "/tmp/x" }))).toBe("/srv/db.sqlite");
  });

  it("DATABASE_URL=postgres://… selects PostgreSQL with a pool (DATABASE_POOL_SIZE, default 10) and a query deadline (default 10 s)", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://eef@127.0.0.1:5432/eef" }).database).toEqual({
      kind: "postgres",
      url: "postgres://eef@127.0.0.1:5432/eef",
      poolSize: 10,
      queryTimeoutMs: 10_000,
    });
    expect(parseConfig({ DATABASE_URL: "postgresql://h/db", DATABASE_POOL_SIZE: "3" }).database).toMatchObject({ poolSize: 3 });
    expect(parseConfig({ DATABASE_URL: "postgresql://h/db", DATABASE_QUERY_TIMEOUT_SECONDS: "0" }).database).toMatchObject({ queryTimeoutMs: 0 });
  });

  it("PORT, SITE_URL, CONTACT_EMAIL, TIME_ZONE and SEED_DEMO are read", () => {
    const config = parseConfig({
      PORT: "8080",
      SITE_URL: "https://esporte.exemplo.com.br/",
      CONTACT_EMAIL: "contato@exemplo.com.br",
      TIME_ZONE: "America/Manaus",
      SEED_DEMO: "false",
    });
    expect(config.port).toBe(8080);
    expect(config.site.url).toBe("https://esporte.exemplo.com.br");
    expect(config.site.contactEmail).toBe("contato@exemplo.com.br");
    expect(config.timeZone).toBe("America/Manaus");
    expect(config.site.timeZone).toBe("America/Manaus");
    expect(config.seedDemo).toBe(false);
  });

  it.each([
    ["1", true],
    ["true", true],
    ["yes", true],
    ["on", true],
    ["0", false],
    ["false", false],
    ["no", false],
    ["off", false],
  ])("SEED_DEMO=%s means %s", (value, expected) => {
    expect(parseConfig({ SEED_DEMO: value }).seedDemo).toBe(expected);
  });

  it("the site URL without SITE_URL follows PORT", () => {
    expect(parseConfig({ PORT: "4321" }).site.url).toBe("http://localhost:4321");
  });
});

describe("MEDIA_STORE: the chosen store and only its settings", () => {
  it("local keeps the folder; s3 the bucket; gdrive the OAuth client; settings of another store are dropped", () => {
    const bucket = { S3_BUCKET: "fotos", S3_PUBLIC_URL: "https://cdn.example/fotos/" };
    const local = parseConfig({ DATA_DIR: "/tmp/eef-config-test", ...bucket }).media;
    expect(local).toMatchObject({ store: "local", dir: "/tmp/eef-config-test/media" });
    expect(local).not.toHaveProperty("s3");
    const s3 = parseConfig({ MEDIA_STORE: "s3", ...bucket }).media;
    expect(s3).toMatchObject({ store: "s3", s3: { bucket: "fotos", region: "us-east-1", publicUrl: "https://cdn.example/fotos", prefix: "" } });
    expect(s3).not.toHaveProperty("dir");
    const drive = parseConfig({ MEDIA_STORE: "gdrive", GOOGLE_DRIVE_CLIENT_ID: "id", GOOGLE_DRIVE_CLIENT_SECRET: "segredo", ...bucket }).media;
    expect(drive).toMatchObject({ store: "gdrive", gdrive: { clientId: "id", clientSecret: "segredo", folderId: null } });
    expect(drive).not.toHaveProperty("s3");
    expect(() => parseConfig({ MEDIA_STORE: "s3" })).toThrow("Configuração inválida:\n  S3_BUCKET: obrigatório com MEDIA_STORE=s3");
    expect(() => parseConfig({ MEDIA_STORE: "gdrive", GOOGLE_DRIVE_CLIENT_ID: "id" })).toThrow(
      "Configuração inválida:\n  GOOGLE_DRIVE_CLIENT_SECRET: obrigatório com MEDIA_STORE=gdrive (ou GOOGLE_CLIENT_ID e GOOGLE_CLIENT_SECRET)",
    );
  });
});

describe("parseConfig: a bad value throws a ConfigError naming the variable", () => {
  const variables = ["PORT", "CONTACT_EMAIL", "TIME_ZONE", "SEED_DEMO", "DATABASE_URL", "SITE_URL"];

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["PORT", "80.5"],
    ["CONTACT_EMAIL", "x"],
    ["TIME_ZONE", "Mars/Base"],
    ["SEED_DEMO", "maybe"],
    ["DATABASE_URL", "mysql://x"],
    ["SITE_URL", "notaurl"],
  ])("%s=%s", (name, value) => {
    const error = configErrorFor({ [name]: value });
    expect(error.name).toBe("ConfigError");
    expect(error.message).toContain(`${name}:`);
    // Only the bad variable is named.
    for (const other of variables.filter((variable) => variable !== name)) {
      expect(error.message).not.toContain(`${other}:`);
    }
  });

  it("zod's own checks speak pt-BR too (no English 'Too small: expected number…')", () => {
    expect(configErrorFor({ PORT: "-1" }).message).toBe("Configuração inválida:\n  PORT: Pequeno demais: esperava que o número fosse >= 0");
    expect(configErrorFor({ PORT: "70000" }).message).toBe("Configuração inválida:\n  PORT: Grande demais: esperava que o número fosse <= 65535");
    expect(configErrorFor({ S3_BUCKET: "ab" }).message).toBe(
      "Configuração inválida:\n  S3_BUCKET: Pequeno demais: esperava que o texto tivesse >= 3 caracteres",
    );
    const english = /\b(Too (small|big)|expected|Invalid|received|must)\b/;
    const cases: Array<Record<string, string>> = [
      { PORT: "abc" },
      { PORT: "80.5" },
      { DATABASE_POOL_SIZE: "0" },
      { LOG_LEVEL: "alto" },
      { S3_ENDPOINT: "sem-url" },
      { NODE_ENV: "qa" },
    ];
    for (const env of cases) {
      const message = configErrorFor(env).message;
      expect(message, JSON.stringify(env)).toMatch(
        /^Configuração inválida:\n {2}[A-Z0-9_]+: (Pequeno demais|Grande demais|Entrada inválida|Opção inválida|Formato|Número)/,
      );
      expect(message, JSON.stringify(env)).not.toMatch(english);
    }
    // Our own messages still win over zod's.
    expect(configErrorFor({ SEED_DEMO: "talvez" }).message).toContain("SEED_DEMO: use 1/0, true/false, yes/no ou on/off");
  });

  it("FFMPEG_PATH must be an absolute path to an executable file", () => {
    expect(() => parseConfig({ FFMPEG_PATH: process.execPath })).not.toThrow();
    for (const bad of ["ffmpeg", "/nao/existe/ffmpeg", path.dirname(process.execPath), path.resolve("package.json")]) {
      expect(() => parseConfig({ FFMPEG_PATH: bad }), bad).toThrow(
        `Configuração inválida:\n  FFMPEG_PATH: "${bad}" não é um programa executável (use o caminho absoluto, por exemplo /usr/bin/ffmpeg)`,
      );
    }
  });

  it("WORKERS: 1 by default, a number, or auto (one per core); anything else names the variable", () => {
    expect(parseConfig({}).workers).toBe(1);
    expect(parseConfig({ WORKERS: "3" }).workers).toBe(3);
    expect(parseConfig({ WORKERS: "auto" }).workers).toBe(os.availableParallelism());
    for (const bad of ["0", "zero", "65"])
      expect(() => parseConfig({ WORKERS: bad }), bad).toThrow("WORKERS: use um número de 1 a 64 ou auto (um por núcleo)");
  });

  it("BODY_TIMEOUT_SECONDS: a form's body whole in 15 s by default, an upload's rate window twice the deadline", () => {
    expect(parseConfig({}).bodyTimeoutMs).toBe(15_000);
    expect(bodyTimeouts(parseConfig({}).bodyTimeoutMs)).toEqual(BODY_TIMEOUTS);
    expect(BODY_TIMEOUTS).toMatchObject({ formMs: 15_000, rateWindowMs: 30_000, afterAnswerMs: 15_000 });
    expect(bodyTimeouts(parseConfig({ BODY_TIMEOUT_SECONDS: "3" }).bodyTimeoutMs)).toMatchObject({ formMs: 3_000, rateWindowMs: 6_000 });
    for (const bad of ["0", "301", "dez"]) expect(configErrorFor({ BODY_TIMEOUT_SECONDS: bad }).message, bad).toContain("BODY_TIMEOUT_SECONDS");
  });

  it("CDN_PURGE_URL turns purging on (Varnish by default); Fastly and Cloudflare need their token and id", () => {
    expect(parseConfig({}).cdn).toBeNull();
    expect(parseConfig({ CDN_PURGE_URL: "http://127.0.0.1:6081/" }).cdn).toEqual({
      provider: "varnish",
      purgeUrl: "http://127.0.0.1:6081",
      token: null,
      serviceId: null,
    });
    expect(
      parseConfig({ CDN_PURGE_URL: "https://api.fastly.com", CDN_PROVIDER: "fastly", CDN_PURGE_TOKEN: "k", CDN_SERVICE_ID: "SU1Z0" }).cdn,
    ).toEqual({
      provider: "fastly",
      purgeUrl: "https://api.fastly.com",
      token: "k",
      serviceId: "SU1Z0",
    });
    expect(() => parseConfig({ CDN_PURGE_URL: "https://api.cloudflare.com/client/v4", CDN_PROVIDER: "cloudflare" })).toThrow(
      "CDN_PURGE_TOKEN e CDN_SERVICE_ID: obrigatórios com CDN_PROVIDER=cloudflare",
    );
    expect(() => parseConfig({ CDN_PURGE_URL: "http://x", CDN_PROVIDER: "akamai" })).toThrow("CDN_PROVIDER: use varnish, fastly ou cloudflare");
  });

  it("LIVE_FANOUT: the app holds the streams by default; nchan needs where to publish", () => {
    expect(parseConfig({}).liveFanout).toEqual({ kind: "app" });
    expect(parseConfig({ LIVE_FANOUT: "nchan", NCHAN_PUBLISH_URL: "http://127.0.0.1:8090/_nchan/pub" }).liveFanout).toEqual({
      kind: "nchan",
      publishUrl: "http://127.0.0.1:8090/_nchan/pub",
    });
    expect(() => parseConfig({ LIVE_FANOUT: "nchan" })).toThrow("NCHAN_PUBLISH_URL: obrigatório com LIVE_FANOUT=nchan");
    expect(() => parseConfig({ LIVE_FANOUT: "pushpin" })).toThrow("LIVE_FANOUT: use app (o próprio servidor) ou nchan");
  });

  it("names every bad variable when several are wrong", () => {
    const error = configErrorFor({ PORT: "abc", TIME_ZONE: "Mars/Base", SITE_URL: "notaurl" });
    expect(error.message).toContain("PORT:");
    expect(error.message).toContain("TIME_ZONE:");
    expect(error.message).toContain("SITE_URL:");
    expect(error.message).not.toContain("SEED_DEMO:");
  });
});

describe("assertProductionReady: what a public server refuses to start without", () => {
  const refusal = (env: Record<string, string>) => {
    try {
      assertProductionReady(parseConfig(env));
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
    return null;
  };

  it("SITE_URL is required in production, and must be https unless ALLOW_INSECURE_HTTP=1", () => {
    expect(refusal({})).toMatch(/^Configuração inválida para produção:\n {2}SITE_URL: obrigatório em produção/);
    expect(refusal({ NODE_ENV: "production" })).toContain("npm run demo");
    expect(refusal({ SITE_URL: "http://www.exemplo.com.br" })).toMatch(/SITE_URL: precisa começar com https:\/\/ .*ALLOW_INSECURE_HTTP=1/);
    expect(refusal({ SITE_URL: "http://www.exemplo.com.br", ALLOW_INSECURE_HTTP: "1" })).toBeNull();
    expect(refusal({ SITE_URL: "https://www.exemplo.com.br" })).toBeNull();
  });

  it("on PostgreSQL, AUTH_SECRET is required (every instance must share it)", () => {
    const postgres = { SITE_URL: "https://www.exemplo.com.br", DATABASE_URL: "postgres://eef@db:5432/eef" };
    expect(refusal(postgres)).toMatch(/AUTH_SECRET: obrigatório com PostgreSQL/);
    expect(refusal({ ...postgres, AUTH_SECRET: "x".repeat(32) })).toBeNull();
    // SQLite keeps its generated secret in DATA_DIR: one server, one secret.
    expect(refusal({ SITE_URL: "https://www.exemplo.com.br" })).toBeNull();
  });

  it("every problem is named at once", () => {
    const message = refusal({ DATABASE_URL: "postgres://eef@db:5432/eef" })!;
    expect(message).toContain("SITE_URL:");
    expect(message).toContain("AUTH_SECRET:");
  });

  it("development and test start without any of it", () => {
    expect(refusal({ NODE_ENV: "development" })).toBeNull();
    expect(refusal({ NODE_ENV: "test", DATABASE_URL: "postgres://eef@db:5432/eef" })).toBeNull();
  });
});

describe("TRUST_PROXY: proxy headers are believed only when a proxy is declared", () => {
  it("off by default; loopback, hop counts and address lists when set; anything else names the variable", () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: "loopback" }).trustProxy).toBe("loopback");
    expect(parseConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(parseConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.5" }).trustProxy).toBe("10.0.0.0/8, 192.168.1.5");
    expect(() => parseConfig({ TRUST_PROXY: "qualquer um" })).toThrow(/TRUST_PROXY:/);
  });
});

describe("EXTERNAL_MEDIA_ORIGINS: where imported media left on Google Drive may be shown from", () => {
  it("none by default; origins separated by spaces or commas, lowercased, each once; anything else names the variable", () => {
    expect(parseConfig({}).media.externalOrigins).toEqual([]);
    expect(
      parseConfig({ EXTERNAL_MEDIA_ORIGINS: " https://drive.google.com,https://*.GoogleUserContent.com  https://drive.google.com " }).media
        .externalOrigins,
    ).toEqual(["https://drive.google.com", "https://*.googleusercontent.com"]);
    expect(parseConfig({ EXTERNAL_MEDIA_ORIGINS: "https://midia.example:8443" }).media.externalOrigins).toEqual(["https://midia.example:8443"]);
    for (const bad of [
      "http://drive.google.com",
      "https://drive.google.com/thumbnail",
      "drive.google.com",
      "https://*",
      "'self'",
      "https://a.example; script-src *",
    ]) {
      const error = configErrorFor({ EXTERNAL_MEDIA_ORIGINS: bad });
      expect(error.message, bad).toMatch(/EXTERNAL_MEDIA_ORIGINS: .*não é uma origem https sem caminho/);
    }
  });
});

describe(".env.example", () => {
  it("lists every variable the configuration reads, and nothing it does not", () => {
    const example = fs.readFileSync(path.join(import.meta.dirname, "../../.env.example"), "utf8");
    // Set (`NAME=…`) or shown commented out (`# NAME=…`).
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
    const read = Object.keys(envSchema.shape);
    expect(
      read.filter((name) => !listed.has(name)),
      "missing from .env.example",
    ).toEqual([]);
    expect(
      [...listed].filter((name) => !read.includes(name)),
      "in .env.example but not read",
    ).toEqual([]);
  });
});
