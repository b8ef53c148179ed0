/**
 * `npm run backup` / `npm run restore` (scripts/backup.ts, scripts/restore.ts) for the embedded setup: a backup of a
 * live installation (database open, WAL mode) restored into a new DATA_DIR gives back the same news, media bytes and
 * secrets; a damaged backup, a non-empty DATA_DIR without --force, a running server, PostgreSQL and remote stores are
 * refused. Always on SQLite files (the backup is SQLite's), also in the PostgreSQL pass.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";
import { BACKUP_DB_FILE, BackupError, type BackupManifest, createBackup, MANIFEST_FILE, SIGNATURE_FILE, SIGNING_KEY_FILE } from "#scripts/backup.ts";
import { restoreBackup, serverAnswers, verifyBackup } from "#scripts/restore.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { createNews, createSponsor, listAllNews } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir } from "#tests/factories/services.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

const ROOT = path.resolve(import.meta.dirname, "../..");
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function tempDir(prefix: string): string {
  const dir = makeDataDir(prefix);
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** SQLite in `dataDir`, whatever TEST_DATABASE says. */
const sqliteEnv = (dataDir: string) => ({ DATABASE_URL: `file:${path.join(dataDir, "esporte-em-foco.sqlite")}` });

/** The newsroom's backup-signing key, given to both the installation and the machine that restores. */
const SIGNING_KEY = "chave-de-assinatura-dos-backups-0123456789";

const configFor = (dataDir: string, env: Record<string, string> = {}) =>
  parseConfig({ DATA_DIR: dataDir, SEED_DEMO: "0", LOG_LEVEL: "silent", BACKUP_SIGNING_KEY: SIGNING_KEY, ...env });

async function openServices(dataDir: string): Promise<Services> {
  const services = await createTestServices(dataDir, { ...sqliteEnv(dataDir), BACKUP_SIGNING_KEY: SIGNING_KEY });
  cleanup.push(() => services.close());
  return services;
}

/** A live installation: three news items (two with an image, one video), a sponsor, the generated secret. */
async function liveSite() {
  const dataDir = tempDir("eef-backup-src-");
  const services = await openServices(dataDir);
  await createNews(services, { title: "Primeira com imagem" });
  await createNews(services, { title: "Segunda, com vídeo", media: "video" });
  await createNews(services, { title: "Terceira, sem mídia", media: null });
  await createNews(services, { title: "Quarta com imagem", isHighlighted: true });
  await createSponsor(services);
  return { dataDir, services };
}

async function mediaBytes(services: Services): Promise<Map<string, Buffer>> {
  const rows = await services.database.db.selectFrom("media").select(["key", "variants"]).execute();
  const keys = rows.flatMap((row) => [row.key, ...(JSON.parse(row.variants) as Array<{ key: string }>).map((variant) => variant.key)]);
  const bytes = new Map<string, Buffer>();
  for (const key of keys.sort()) {
    const object = await services.store.get(key);
    expect(object, key).not.toBeNull();
    bytes.set(key, await buffer(object!.body));
  }
  return bytes;
}

const newsTitles = async (services: Services) => (await listAllNews(services)).map((item) => item.title);

describe("backup e restauração (instalação embutida)", () => {
  it("backup de uma instalação em uso, restaurado em outro DATA_DIR: mesmas notícias, mesmos bytes de mídia, mesmo segredo", async () => {
    const { dataDir, services } = await liveSite();
    const out = tempDir("eef-backup-out-");
    const { dir, manifest } = createBackup(services.config, out, new Date("2026-11-22T10:20:30.456Z"));

    expect(path.basename(dir)).toBe("eef-backup-20261122T102030Z");
    expect(fs.existsSync(`${dir}.incompleto`)).toBe(false);
    expect(manifest.database.path).toBe(BACKUP_DB_FILE);
    expect(manifest.database.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.database.size).toBe(fs.statSync(path.join(dir, BACKUP_DB_FILE)).size);
    expect(manifest.files.map((file) => file.path)).toContain("secrets/auth-secret");
    expect(manifest.files.filter((file) => file.path.startsWith("media/")).length).toBeGreaterThan(3);
    expect(manifest.files.every((file) => !file.path.startsWith("media/.tmp/"))).toBe(true);
    expect(manifest.missingMedia).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), "utf8"))).toEqual(manifest);

    // Changes after the backup are not in it.
    await createNews(services, { title: "Depois do backup", media: null });
    const titles = (await newsTitles(services)).filter((title) => title !== "Depois do backup");
    const bytes = await mediaBytes(services);

    const target = tempDir("eef-backup-dst-");
    const result = await restoreBackup(configFor(target, sqliteEnv(target)), dir, { checkServer: false });
    expect(result.movedAside).toBeNull();
    const restored = await openServices(target);
    expect(await newsTitles(restored)).toEqual(titles);
    expect((await restored.sponsors.listSponsors()).length).toBe(1);
    const restoredBytes = await mediaBytes(restored);
    expect([...restoredBytes.keys()]).toEqual([...bytes.keys()]);
    for (const [key, value] of bytes) expect(restoredBytes.get(key)!.equals(value), key).toBe(true);
    expect(fs.readFileSync(path.join(target, "secrets", "auth-secret"), "utf8")).toBe(
      fs.readFileSync(path.join(dataDir, "secrets", "auth-secret"), "utf8"),
    );
    expect(fs.statSync(path.join(target, "secrets", "auth-secret")).mode & 0o777).toBe(0o600);
  });

  it("um banco, um arquivo ou um manifesto adulterados: a restauração é recusada antes de tocar no DATA_DIR", async () => {
    const { services } = await liveSite();
    const { dir } = createBackup(services.config, tempDir("eef-backup-out-"));
    const target = tempDir("eef-backup-dst-");
    const config = configFor(target, sqliteEnv(target));
    const restore = () => restoreBackup(config, dir, { checkServer: false });
    const manifestFile = path.join(dir, MANIFEST_FILE);
    const original = fs.readFileSync(manifestFile, "utf8");

    // One byte of the database changed (same size): the checksum says so.
    const dbFile = path.join(dir, BACKUP_DB_FILE);
    const db = fs.readFileSync(dbFile);
    const damaged = Buffer.from(db);
    damaged[damaged.length - 10] = damaged[damaged.length - 10]! ^ 0xff;
    fs.writeFileSync(dbFile, damaged);
    await expect(restore()).rejects.toThrow(/database\.sqlite: soma SHA-256 não confere/);
    expect(fs.readdirSync(target)).toEqual([]);
    fs.writeFileSync(dbFile, db);

    // The manifest's checksum edited: its signature no longer matches.
    const edited = JSON.parse(original) as BackupManifest;
    edited.database.sha256 = "0".repeat(64);
    fs.writeFileSync(manifestFile, JSON.stringify(edited));
    await expect(restore()).rejects.toThrow(/assinatura do manifesto não confere/);

    // A media file cut short.
    const media = (JSON.parse(original) as BackupManifest).files.find((file) => file.path.startsWith("media/"))!;
    fs.writeFileSync(manifestFile, original);
    const mediaFile = path.join(dir, media.path);
    const mediaBytes = fs.readFileSync(mediaFile);
    fs.writeFileSync(mediaFile, mediaBytes.subarray(0, 10));
    await expect(restore()).rejects.toThrow(`${media.path}: tamanho 10, esperado ${media.size}`);
    fs.writeFileSync(mediaFile, mediaBytes);

    // A file that is not in the manifest, and an entry pointing outside the backup (which breaks the signature).
    fs.writeFileSync(path.join(dir, "media", "intruso.jpg"), "x");
    await expect(restore()).rejects.toThrow("media/intruso.jpg: arquivo fora do manifesto");
    fs.rmSync(path.join(dir, "media", "intruso.jpg"));
    const escaping = JSON.parse(original) as BackupManifest;
    escaping.files.push({ path: "../../etc/passwd", size: 1, sha256: "0".repeat(64) });
    fs.writeFileSync(manifestFile, JSON.stringify(escaping));
    await expect(restore()).rejects.toThrow(/assinatura do manifesto não confere/);
    await expect(restoreBackup(config, dir, { checkServer: false, unsigned: true })).rejects.toThrow(/assinatura do manifesto não confere/);

    // A manifest that is not JSON.
    fs.writeFileSync(manifestFile, original.slice(0, original.length / 2));
    await expect(restore()).rejects.toThrow(/assinatura do manifesto não confere/);
    expect(fs.readdirSync(target)).toEqual([]);

    // Put back as it was: the backup is whole again.
    fs.writeFileSync(manifestFile, original);
    expect(verifyBackup(dir).database.sha256).toBe((JSON.parse(original) as BackupManifest).database.sha256);
  });

  it("uma pasta que não existe, ou que não é um backup: recusa clara, sem tocar no DATA_DIR", async () => {
    const target = tempDir("eef-backup-dst-");
    const config = configFor(target, sqliteEnv(target));
    const missing = path.join(tempDir("eef-backup-none-"), "nao-existe");
    await expect(restoreBackup(config, missing, { checkServer: false })).rejects.toThrow(terminal.restore.notABackup(missing, MANIFEST_FILE));
    const empty = tempDir("eef-backup-empty-");
    await expect(restoreBackup(config, empty, { checkServer: false })).rejects.toThrow(terminal.restore.notABackup(empty, MANIFEST_FILE));
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it("DATA_DIR com dados: recusa sem --force; com --force os dados atuais vão para uma pasta ao lado", async () => {
    const { services } = await liveSite();
    const { dir } = createBackup(services.config, tempDir("eef-backup-out-"));

    const target = tempDir("eef-backup-dst-");
    const other = await createTestServices(target, sqliteEnv(target));
    await createNews(other, { title: "Notícia que seria perdida" });
    await other.close();
    const config = configFor(target, sqliteEnv(target));

    await expect(restoreBackup(config, dir, { checkServer: false })).rejects.toThrow(/já tem dados[\s\S]*--force/);
    const { movedAside } = await restoreBackup(config, dir, { checkServer: false, force: true });
    expect(movedAside).toMatch(/antes-da-restauracao-\d{8}T\d{6}Z$/);
    expect(fs.readdirSync(movedAside!).sort()).toEqual(expect.arrayContaining(["esporte-em-foco.sqlite", "media", "secrets"]));

    const restored = await openServices(target);
    expect(await newsTitles(restored)).not.toContain("Notícia que seria perdida");
    expect(await newsTitles(restored)).toContain("Primeira com imagem");
  });

  it("recusa restaurar enquanto um processo (o servidor) está com o banco aberto", async () => {
    const { services } = await liveSite();
    const { dir } = createBackup(services.config, tempDir("eef-backup-out-"));
    const target = tempDir("eef-backup-dst-");
    await openServices(target); // this process now holds the target's database open, as a running server would
    const config = configFor(target, sqliteEnv(target));
    const before = fs.readdirSync(target).sort();
    await expect(restoreBackup(config, dir, { force: true })).rejects.toThrow(
      new RegExp(`aberto pelo\\(s\\) processo\\(s\\) ${process.pid}\\b.*pare-o antes de restaurar`),
    );
    expect(fs.readdirSync(target).sort()).toEqual(before);
  });

  it("sem /proc (outros sistemas): recusa quando um servidor responde /healthz na porta configurada", async () => {
    const server = http.createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    expect(await serverAnswers(configFor(tempDir("eef-backup-dst-"), { PORT: String(port) }))).toBe(true);
    server.close();
    expect(await serverAnswers(configFor(tempDir("eef-backup-dst-"), { PORT: String(port) }))).toBe(false);
  });

  it("PostgreSQL e armazenamento remoto: recusa, indicando pg_dump e o versionamento do bucket", () => {
    const dataDir = tempDir("eef-backup-pg-");
    const out = tempDir("eef-backup-out-");
    const postgres = configFor(dataDir, { DATABASE_URL: "postgres://usuario@127.0.0.1:5432/banco" });
    expect(() => createBackup(postgres, out)).toThrow(BackupError);
    expect(() => createBackup(postgres, out)).toThrow(/pg_dump/);
    const s3 = configFor(dataDir, { MEDIA_STORE: "s3", S3_BUCKET: "midia" });
    expect(() => createBackup(s3, out)).toThrow(/MEDIA_STORE=s3[\s\S]*versionamento/);
    expect(() => createBackup(configFor(dataDir), out)).toThrow(/Banco de dados não encontrado/);
    expect(() => createBackup(configFor(dataDir), path.join(dataDir, "backups"))).toThrow(/não pode ficar dentro de DATA_DIR/);
  });

  it("linha de comando: npm run backup -- --out PASTA, e npm run restore -- PASTA", async () => {
    const { dataDir, services } = await liveSite();
    const out = tempDir("eef-backup-out-");
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", MEDIA_STORE: "", LOG_LEVEL: "silent", BACKUP_SIGNING_KEY: SIGNING_KEY };
    const backup = spawnSync(process.execPath, ["scripts/backup.ts", "--out", out], { cwd: ROOT, env, encoding: "utf8" });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backup criado em .*eef-backup-\d{8}T\d{6}Z/);
    const [folder] = fs.readdirSync(out);
    expect(folder).toMatch(/^eef-backup-\d{8}T\d{6}Z$/);

    const target = tempDir("eef-backup-dst-");
    const restore = spawnSync(process.execPath, ["scripts/restore.ts", path.join(out, folder!)], {
      cwd: ROOT,
      env: { ...env, DATA_DIR: target, PORT: "1" },
      encoding: "utf8",
    });
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("restaurado em");
    expect(restore.stdout).toMatch(/\d+ sessão\(ões\) e \d+ link\(s\) .* foram encerrados/);
    const restored = await openServices(target);
    expect(await newsTitles(restored)).toEqual(await newsTitles(services));

    const refused = spawnSync(process.execPath, ["scripts/backup.ts", "--out", out], {
      cwd: ROOT,
      env: { ...env, DATABASE_URL: "postgres://usuario@127.0.0.1:5432/banco" },
      encoding: "utf8",
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("pg_dump");
  });

  it("backups e banco nascem só para o dono (0700/0600), qualquer que seja a umask; a chave de assinatura não vai no backup", async () => {
    const previous = process.umask(0o000);
    try {
      const dataDir = tempDir("eef-backup-perm-");
      const services = await createTestServices(dataDir, sqliteEnv(dataDir)); // no BACKUP_SIGNING_KEY: a generated key
      cleanup.push(() => services.close());
      await createNews(services, { title: "Com imagem" });
      const dbFile = path.join(dataDir, "esporte-em-foco.sqlite");
      for (const file of [dbFile, `${dbFile}-wal`]) expect(fs.statSync(file).mode & 0o777, file).toBe(0o600);
      const out = path.join(tempDir("eef-backup-out-"), "backups");
      const { dir } = createBackup(services.config, out);
      expect(fs.statSync(out).mode & 0o777).toBe(0o700);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
      for (const entry of entries) {
        const mode = fs.statSync(path.join(entry.parentPath, entry.name)).mode & 0o777;
        expect(mode, path.join(entry.parentPath, entry.name)).toBe(entry.isDirectory() ? 0o700 : 0o600);
      }
      // The key signs the manifest but stays home.
      const keyFile = path.join(dataDir, "secrets", SIGNING_KEY_FILE);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(entries.map((entry) => entry.name)).not.toContain(SIGNING_KEY_FILE);
      expect(fs.readFileSync(path.join(dir, SIGNATURE_FILE), "utf8")).toMatch(/^hmac-sha256:[0-9a-f]{64}\n$/);

      // Elsewhere without the key: refused, saying how to provide it; --unsigned restores (with a warning upstairs).
      const target = tempDir("eef-backup-dst-");
      const bare = parseConfig({ DATA_DIR: target, SEED_DEMO: "0", ...sqliteEnv(target) });
      await expect(restoreBackup(bare, dir, { checkServer: false })).rejects.toThrow(/BACKUP_SIGNING_KEY[\s\S]*backup-signing-key[\s\S]*--unsigned/);
      expect(fs.readdirSync(target)).toEqual([]);
      // With the key file copied over, as the message says, it restores, and keeps the key in place.
      fs.mkdirSync(path.join(target, "secrets"), { recursive: true });
      fs.copyFileSync(keyFile, path.join(target, "secrets", SIGNING_KEY_FILE));
      const result = await restoreBackup(bare, dir, { checkServer: false, force: true });
      expect(result.signature).toBe("signed");
      expect(fs.readFileSync(path.join(target, "secrets", SIGNING_KEY_FILE))).toEqual(fs.readFileSync(keyFile));
      expect(fs.statSync(target).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(target, "esporte-em-foco.sqlite")).mode & 0o777).toBe(0o600);

      // A backup without a signature (older versions): only with --unsigned.
      fs.rmSync(path.join(dir, SIGNATURE_FILE));
      const other = tempDir("eef-backup-dst-");
      const otherConfig = configFor(other, sqliteEnv(other));
      await expect(restoreBackup(otherConfig, dir, { checkServer: false })).rejects.toThrow(/não tem assinatura[\s\S]*--unsigned/);
      expect((await restoreBackup(otherConfig, dir, { checkServer: false, unsigned: true })).signature).toBe("unsigned");
    } finally {
      process.umask(previous);
    }
  });

  it("a restauração encerra sessões e links pendentes, e não traz de volta um administrador revogado (sem --keep-admins)", async () => {
    const { dataDir, services } = await liveSite();
    const boss = await createAdmin(services, { email: "chefe@redacao.example" });
    const revoked = await createAdmin(services, { email: "ex-editor@redacao.example" });
    for (const admin of [boss, revoked]) {
      expect(
        (await services.auth.signInWithPassword({ email: admin.email, password: admin.password, ip: "10.1.1.1", headers: new Headers() })).ok,
      ).toBe(true);
    }
    await services.auth.requestPasswordReset({ email: boss.email, ip: "10.1.1.2", headers: new Headers() });
    await services.mailer.idle();
    const { dir } = createBackup(services.config, tempDir("eef-backup-out-"));
    // After the backup, the ex-editor loses access.
    await services.admins.revoke(revoked.id);
    await services.close(); // the server stops before a restore

    const config = configFor(dataDir, sqliteEnv(dataDir));
    const result = await restoreBackup(config, dir, { checkServer: false, force: true });
    expect(result.endedSessions).toBe(2);
    expect(result.endedTokens).toBeGreaterThanOrEqual(1);
    expect(result.admins).toEqual({ kept: "replaced", count: 1, dropped: 0 });
    const restored = await openServices(dataDir);
    expect(await restored.database.db.selectFrom("session").select("id").execute()).toEqual([]);
    expect((await restored.admins.list()).map((admin) => admin.email)).toEqual(["chefe@redacao.example"]);

    // With --keep-admins the backup's admin rows stay (both), still without their sessions.
    await restored.close();
    const kept = await restoreBackup(config, dir, { checkServer: false, force: true, keepAdmins: true, now: new Date(Date.now() + 5000) });
    expect(kept.admins).toEqual({ kept: "backup", count: 2, dropped: 0 });
  });
});
