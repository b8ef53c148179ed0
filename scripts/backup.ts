/**
 * `npm run backup [-- --out PASTA]`: a backup of the embedded setup (SQLite + local media), safe while the server runs.
 *
 * Writes `PASTA/eef-backup-<data e hora UTC>/` (PASTA defaults to ./backups) with:
 *   - `database.sqlite`: a consistent snapshot of the SQLite database (`VACUUM INTO`: one read transaction, so
 *     writes made meanwhile are either all in or all out; WAL mode keeps the server writing during the copy);
 *   - `media/`: the media folder (DATA_DIR/media), copied in two passes around the snapshot, so every file the
 *     snapshot refers to is there (files are written before their records and never rewritten);
 *   - `secrets/`: the generated secrets (DATA_DIR/secrets: the session-signing key when AUTH_SECRET is unset), but
 *     not the backup-signing key;
 *   - `manifest.json`: every file with its size and SHA-256 (`npm run restore` checks them before restoring), and
 *     `manifest.sig`: its HMAC-SHA256 with a key the backup does not carry (BACKUP_SIGNING_KEY, or
 *     DATA_DIR/secrets/backup-signing-key made on the first backup), so an edited backup is refused.
 * Everything is written owner-only (folders 0700, files 0600), whatever the umask: a backup holds password hashes,
 * sessions and secrets.
 * The folder is written under a `.incompleto` name and renamed at the end: a folder without it is complete.
 *
 * PostgreSQL (DATABASE_URL) or a media store other than local: refused, with what to use instead.
 * Runs on Node 24 directly (type stripping): only erasable TypeScript syntax here.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { makePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writePrivateFile } from "#app/.server/config/data-dir.server.ts";
import { type AppConfig, loadDotEnv, parseConfig } from "#app/.server/config/env.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";

export const MANIFEST_FILE = "manifest.json";
export const SIGNATURE_FILE = "manifest.sig";
/** The generated backup-signing key, in DATA_DIR/secrets; never copied into a backup. */
export const SIGNING_KEY_FILE = "backup-signing-key";
export const BACKUP_DB_FILE = "database.sqlite";
export const MANIFEST_FORMAT = "esporte-em-foco-backup";
/** The folders of DATA_DIR a backup carries, besides the database. */
export const BACKUP_FOLDERS = ["media", "secrets"] as const;

export interface ManifestFile {
  /** Path inside the backup folder, with forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  /** 2: signed (manifest.sig). 1: older backups, without a signature. */
  version: 1 | 2;
  /** Which key signed it (the first 12 hex digits of the key's SHA-256), to tell the operator which one to provide. */
  signingKeyId?: string;
  createdAt: string;
  /** Where it came from (for the record; restore writes to the configured DATA_DIR). */
  source: { dataDir: string; databaseFile: string };
  database: ManifestFile;
  /** Everything else (media and secrets), sorted by path. */
  files: ManifestFile[];
  /** Media keys the database refers to that were not in the media folder (deleted before the backup, or lost). */
  missingMedia: string[];
}

export class BackupError extends Error {
  override name = "BackupError";
}

/** The embedded setup only: SQLite and media on the local disk. Anything else has its own backup tools. */
export function assertEmbeddedSetup(
  config: Pick<AppConfig, "database" | "media">,
  action: "backup" | "restore",
): asserts config is { media: Extract<AppConfig["media"], { store: "local" }>; database: { kind: "sqlite"; file: string } } {
  const command = action === "backup" ? "npm run backup" : "npm run restore";
  if (config.database.kind !== "sqlite") {
    throw new BackupError(terminal.backup.postgresRefused(command));
  }
  if (config.media.store !== "local") {
    throw new BackupError(terminal.backup.mediaStoreRefused(command, config.media.store));
  }
}

/**
 * The key that signs backup manifests: BACKUP_SIGNING_KEY, else DATA_DIR/secrets/backup-signing-key (made on first
 * use when `create`; kept out of backups, so a backup cannot vouch for itself). Null when there is none.
 */
export function signingKey(config: Pick<AppConfig, "dataDir" | "backup">, options: { create?: boolean } = {}): Buffer | null {
  if (config.backup.signingKey) return Buffer.from(config.backup.signingKey);
  const file = path.join(config.dataDir, "secrets", SIGNING_KEY_FILE);
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, "utf8").trim());
  if (!options.create) return null;
  makePrivateDir(path.dirname(file));
  const key = randomBytes(32).toString("base64url");
  writePrivateFile(file, `${key}\n`);
  return Buffer.from(key);
}

/** The signature of a manifest's exact bytes. */
export function signManifest(manifestBytes: Buffer, key: Buffer): string {
  return `hmac-sha256:${createHmac("sha256", key).update(manifestBytes).digest("hex")}`;
}

export function keyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 12);
}

export function sha256File(file: string): string {
  const hash = createHash("sha256");
  const handle = fs.openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const read = fs.readSync(handle, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(handle);
  }
  return hash.digest("hex");
}

/** Every regular file under `dir`, as paths relative to it (forward slashes), sorted. `skip` drops top-level names. */
export function listFiles(dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string, prefix: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (!prefix && skip.has(entry.name)) continue;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(current, entry.name), relative);
      else if (entry.isFile()) out.push(relative);
    }
  };
  walk(dir, "");
  return out.sort();
}

/** Copies the files of `from` missing in `to` (same relative paths), keeping their modes. Returns how many. */
function copyNewFiles(from: string, to: string, skip: ReadonlySet<string>): number {
  let copied = 0;
  for (const relative of listFiles(from, skip)) {
    const target = path.join(to, relative);
    if (fs.existsSync(target)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      fs.copyFileSync(path.join(from, relative), target, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(target, PRIVATE_FILE_MODE);
      copied++;
    } catch (error) {
      // Deleted between the listing and the copy (the server removed it): nothing to keep.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      fs.rmSync(target, { force: true });
    }
  }
  return copied;
}

function timestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** Media keys a SQLite database refers to (originals and variants); external media (imported addresses) has no file. */
export function referencedMediaKeys(dbFile: string): string[] {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const rows = db.prepare("SELECT key, variants FROM media WHERE store <> 'external'").all() as Array<{ key: string; variants: string }>;
    const keys = new Set<string>();
    for (const row of rows) {
      keys.add(row.key);
      for (const variant of JSON.parse(row.variants || "[]") as Array<{ key: string }>) keys.add(variant.key);
    }
    return [...keys].sort();
  } finally {
    db.close();
  }
}

/**
 * Makes a backup of the configured embedded installation under `outDir`; returns the backup folder and its manifest.
 * Safe while the server runs on the same DATA_DIR.
 */
export function createBackup(config: AppConfig, outDir: string, now: Date = new Date()): { dir: string; manifest: BackupManifest } {
  assertEmbeddedSetup(config, "backup");
  const out = path.resolve(outDir);
  const inside = path.relative(config.dataDir, out);
  if (!inside.startsWith("..") && !path.isAbsolute(inside)) {
    throw new BackupError(terminal.backup.outInsideDataDir(out, config.dataDir));
  }
  const dbFile = config.database.file;
  if (!fs.existsSync(dbFile)) {
    throw new BackupError(terminal.backup.databaseNotFound(dbFile));
  }
  fs.mkdirSync(out, { recursive: true, mode: PRIVATE_DIR_MODE });
  const key = signingKey(config, { create: true })!;
  const name = `eef-backup-${timestamp(now)}`;
  const dir = path.join(out, name);
  const partial = `${dir}.incompleto`;
  if (fs.existsSync(dir)) throw new BackupError(terminal.backup.alreadyExists(dir));
  fs.rmSync(partial, { recursive: true, force: true });
  makePrivateDir(partial);
  try {
    const mediaDir = config.media.dir;
    // Objects being written live in media/.tmp until renamed into place: never part of a backup.
    const skipMedia = new Set([".tmp"]);
    // Pass 1: the media as it is now. Then the snapshot. Pass 2: files that appeared meanwhile (a record in the
    // snapshot is always written after its files, so its files are in one of the two passes).
    copyNewFiles(mediaDir, path.join(partial, "media"), skipMedia);
    const snapshot = path.join(partial, BACKUP_DB_FILE);
    // Created owner-only first: VACUUM INTO fills the existing (empty) file.
    writePrivateFile(snapshot, "");
    const source = new DatabaseSync(dbFile, { timeout: 10_000 });
    try {
      source.prepare("VACUUM INTO ?").run(snapshot);
    } finally {
      source.close();
    }
    fs.chmodSync(snapshot, PRIVATE_FILE_MODE);
    copyNewFiles(mediaDir, path.join(partial, "media"), skipMedia);
    copyNewFiles(path.join(config.dataDir, "secrets"), path.join(partial, "secrets"), new Set([SIGNING_KEY_FILE]));

    const copiedMedia = new Set(listFiles(path.join(partial, "media")));
    const missingMedia = referencedMediaKeys(snapshot).filter((key) => !copiedMedia.has(key));
    const manifestEntry = (relative: string): ManifestFile => {
      const file = path.join(partial, relative);
      return { path: relative, size: fs.statSync(file).size, sha256: sha256File(file) };
    };
    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      version: 2,
      signingKeyId: keyId(key),
      createdAt: now.toISOString(),
      source: { dataDir: config.dataDir, databaseFile: dbFile },
      database: manifestEntry(BACKUP_DB_FILE),
      files: BACKUP_FOLDERS.flatMap((folder) => listFiles(path.join(partial, folder)).map((relative) => manifestEntry(`${folder}/${relative}`))),
      missingMedia,
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    writePrivateFile(path.join(partial, MANIFEST_FILE), manifestBytes);
    writePrivateFile(path.join(partial, SIGNATURE_FILE), `${signManifest(manifestBytes, key)}\n`);
    fs.renameSync(partial, dir);
    return { dir, manifest };
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("pt-BR", { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/** `--out PASTA` / `--out=PASTA`; nothing else is accepted. */
function parseArgs(args: string[]): { out: string } {
  let out = "backups";
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--out" && args[index + 1]) out = args[++index]!;
    else if (arg.startsWith("--out=")) out = arg.slice("--out=".length);
    else if (arg === "--help" || arg === "-h") {
      console.log(terminal.backup.help);
      process.exit(0);
    } else throw new BackupError(terminal.backup.unknownArgument(arg));
  }
  return { out };
}

if (import.meta.main) {
  try {
    loadDotEnv();
    const { out } = parseArgs(process.argv.slice(2));
    const started = Date.now();
    const { dir, manifest } = createBackup(parseConfig(), out);
    const total = manifest.database.size + manifest.files.reduce((sum, file) => sum + file.size, 0);
    const media = manifest.files.filter((file) => file.path.startsWith("media/")).length;
    console.log(terminal.backup.created(dir));
    console.log(terminal.backup.database(formatBytes(manifest.database.size), manifest.database.sha256));
    console.log(terminal.backup.media(media, formatBytes(total), ((Date.now() - started) / 1000).toFixed(1)));
    if (manifest.missingMedia.length) {
      console.warn(terminal.backup.missingMedia(manifest.missingMedia.length));
      for (const key of manifest.missingMedia.slice(0, 20)) console.warn(`  ${key}`);
    }
    const shown = path.relative(process.cwd(), dir);
    console.log(terminal.backup.restoreHint(shown.startsWith("..") ? dir : shown));
  } catch (error) {
    if (error instanceof BackupError || (error instanceof Error && error.name === "ConfigError")) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
