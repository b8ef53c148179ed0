/**
 * `npm run restore -- PASTA [--force]`: puts a backup made by `npm run backup` back into the configured DATA_DIR
 * (embedded setup: SQLite + local media). Stop the server first.
 *
 * 1. Checks the backup: the manifest's signature (HMAC with the backup-signing key, which backups do not carry:
 *    BACKUP_SIGNING_KEY or DATA_DIR/secrets/backup-signing-key; `--unsigned` accepts a backup whose signature cannot
 *    be checked), its format, then the size and SHA-256 of the database and of every file. Any mismatch (a damaged
 *    or edited backup) refuses the restore before anything is touched.
 * 2. Refuses while a process (the server) has the database open — found through /proc on Linux; elsewhere, when a
 *    server answers /healthz on this configuration's PORT — and, without `--force`, when DATA_DIR already holds a
 *    database, media or secrets.
 * 3. With `--force`, moves what is there (database with its -wal/-shm, media, secrets) aside into
 *    DATA_DIR/antes-da-restauracao-<data e hora>/ — nothing is deleted.
 * 4. Copies media and secrets, then the database (under a temporary name, renamed into place last), and checks the
 *    restored database with PRAGMA integrity_check.
 * 5. In the restored database, ends every session and every pending reset/verification token (they were live at
 *    backup time), and replaces the admins with the ones of the database it replaces (a revoked admin does not come
 *    back), unless `--keep-admins`.
 * Runs on Node 24 directly (type stripping): only erasable TypeScript syntax here.
 */
import { timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { makePrivateDir, PRIVATE_FILE_MODE, writePrivateFile } from "#app/.server/config/data-dir.server.ts";
import { type AppConfig, loadDotEnv, parseConfig } from "#app/.server/config/env.server.ts";
import { terminal } from "#app/i18n/pt-BR.ts";
import {
  assertEmbeddedSetup,
  BACKUP_DB_FILE,
  BACKUP_FOLDERS,
  BackupError,
  type BackupManifest,
  keyId,
  listFiles,
  MANIFEST_FILE,
  SIGNATURE_FILE,
  SIGNING_KEY_FILE,
  signingKey,
  signManifest,
  MANIFEST_FORMAT,
  type ManifestFile,
  sha256File,
} from "./backup.ts";

/**
 * Checks the manifest's signature with `key`. Without a key or without a signature it cannot be checked: refused,
 * unless `allowUnsigned` (then `unsigned` is returned, for a warning). A signature that does not match is always
 * refused: the backup was edited, or signed with another key.
 */
export function checkSignature(dir: string, key: Buffer | null, allowUnsigned: boolean): "signed" | "unsigned" {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  // A folder that does not exist, or is not a backup: the same clear refusal as verifyBackup's, not a stack trace.
  if (!fs.existsSync(manifestFile)) throw new BackupError(terminal.restore.notABackup(dir, MANIFEST_FILE));
  const manifestBytes = fs.readFileSync(manifestFile);
  const signatureFile = path.join(dir, SIGNATURE_FILE);
  const signature = fs.existsSync(signatureFile) ? fs.readFileSync(signatureFile, "utf8").trim() : null;
  if (signature && key) {
    const expected = Buffer.from(signManifest(manifestBytes, key));
    const given = Buffer.from(signature);
    if (expected.length === given.length && timingSafeEqual(expected, given)) return "signed";
    let signedBy = "";
    try {
      signedBy = (JSON.parse(manifestBytes.toString("utf8")) as BackupManifest).signingKeyId ?? "";
    } catch {
      // reported below as a bad signature anyway
    }
    throw new BackupError(terminal.restore.signatureMismatch(signedBy, keyId(key)));
  }
  if (allowUnsigned) return "unsigned";
  throw new BackupError(signature ? terminal.restore.signingKeyMissing(SIGNING_KEY_FILE) : terminal.restore.notSigned(SIGNATURE_FILE));
}

/** Reads and checks a backup folder: the manifest, and every file's size and checksum. Throws a BackupError. */
export function verifyBackup(dir: string, signature?: { key: Buffer | null; allowUnsigned: boolean }): BackupManifest {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) {
    throw new BackupError(terminal.restore.notABackup(dir, MANIFEST_FILE));
  }
  if (signature) checkSignature(dir, signature.key, signature.allowUnsigned);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(terminal.restore.manifestCorrupt(manifestFile));
  }
  if (
    manifest?.format !== MANIFEST_FORMAT ||
    (manifest.version !== 1 && manifest.version !== 2) ||
    !manifest.database ||
    !Array.isArray(manifest.files)
  ) {
    throw new BackupError(terminal.restore.manifestUnknown(manifestFile, MANIFEST_FORMAT));
  }
  if (manifest.database.path !== BACKUP_DB_FILE) throw new BackupError(terminal.restore.manifestDatabase(BACKUP_DB_FILE));
  const listed = new Set<string>();
  const problems: string[] = [];
  for (const entry of [manifest.database, ...manifest.files] as unknown[]) {
    if (!isSafeEntry(entry)) {
      problems.push(terminal.restore.problem.invalidEntry(String((entry as { path?: unknown } | null)?.path)));
      continue;
    }
    listed.add(entry.path);
    const file = path.join(dir, entry.path);
    if (!fs.existsSync(file)) {
      problems.push(terminal.restore.problem.missing(entry.path));
      continue;
    }
    const size = fs.statSync(file).size;
    if (size !== entry.size) problems.push(terminal.restore.problem.size(entry.path, size, entry.size));
    else if (sha256File(file) !== entry.sha256) problems.push(terminal.restore.problem.checksum(entry.path));
  }
  for (const folder of BACKUP_FOLDERS) {
    for (const relative of listFiles(path.join(dir, folder))) {
      if (!listed.has(`${folder}/${relative}`)) problems.push(terminal.restore.problem.notListed(`${folder}/${relative}`));
    }
  }
  if (problems.length) {
    const shown = problems.slice(0, 20).map((problem) => `  ${problem}`);
    if (problems.length > 20) shown.push(terminal.restore.problem.more(problems.length - 20));
    throw new BackupError(terminal.restore.mismatch(dir, shown));
  }
  return manifest;
}

/** A manifest entry with a relative path inside the backup (no "..", no absolute path) under a known place. */
function isSafeEntry(value: unknown): value is ManifestFile {
  const entry = value as ManifestFile | null;
  if (!entry || typeof entry.path !== "string" || typeof entry.size !== "number" || typeof entry.sha256 !== "string") return false;
  const normalized = path.posix.normalize(entry.path);
  if (normalized !== entry.path || path.posix.isAbsolute(normalized) || normalized.startsWith("..")) return false;
  return normalized === BACKUP_DB_FILE || BACKUP_FOLDERS.some((folder) => normalized.startsWith(`${folder}/`));
}

/**
 * The processes that have `file` (or its -wal/-shm) open, read from /proc (Linux); null where /proc cannot tell
 * (other systems), and then the caller falls back to asking the configured port.
 */
export function processesUsing(file: string): number[] | null {
  if (!fs.existsSync("/proc/self/fd")) return null;
  const targets = new Set([file, `${file}-wal`, `${file}-shm`].map((entry) => path.resolve(entry)));
  const pids: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${name}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    for (const fd of fds) {
      try {
        if (targets.has(fs.readlinkSync(`/proc/${name}/fd/${fd}`))) {
          pids.push(Number(name));
          break;
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return pids;
}

/** Whether this configuration's server answers /healthz on its port. */
export async function serverAnswers(config: Pick<AppConfig, "port">): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${config.port}/healthz`, { signal: AbortSignal.timeout(1500) });
    return response.ok && (await response.text()).trim() === "ok";
  } catch {
    return false;
  }
}

function timestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the previous contents of DATA_DIR went (with --force), or null when there was nothing. */
  movedAside: string | null;
  /** Whether the manifest's signature was checked, or accepted unchecked with --unsigned. */
  signature: "signed" | "unsigned";
  /** Sessions and pending reset/verification tokens of backup time that were ended. */
  endedSessions: number;
  endedTokens: number;
  /** The admins now: kept from the backup (--keep-admins) or carried over from the replaced database. */
  admins: { kept: "backup" | "replaced"; count: number; dropped: number };
}

/** The admins of the database about to be replaced (id and since when), or [] when there is none. */
function currentAdmins(dbFile: string): Array<{ user_id: string; created_at: string }> {
  if (!fs.existsSync(dbFile)) return [];
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    return db.prepare("SELECT user_id, created_at FROM admins").all() as Array<{ user_id: string; created_at: string }>;
  } catch {
    return [];
  } finally {
    db.close();
  }
}

/**
 * What a restored database must not bring back from backup time: live sessions and pending reset / verification
 * tokens (someone who had them then would be signed in now), and its admin list (an admin revoked since then would
 * come back), which is replaced by the admins of the database being replaced, for the accounts that exist.
 */
function resetAccessAfterRestore(file: string, previousAdmins: Array<{ user_id: string; created_at: string }>, keepAdmins: boolean) {
  const db = new DatabaseSync(file);
  try {
    db.exec("BEGIN");
    const endedSessions = Number(db.prepare('DELETE FROM "session"').run().changes);
    const endedTokens = Number(db.prepare('DELETE FROM "verification"').run().changes);
    let admins: RestoreResult["admins"];
    if (keepAdmins) {
      admins = { kept: "backup", count: Number((db.prepare("SELECT count(*) AS n FROM admins").get() as { n: number }).n), dropped: 0 };
    } else {
      db.prepare("DELETE FROM admins").run();
      const exists = db.prepare('SELECT 1 FROM "user" WHERE id = ?');
      const insert = db.prepare("INSERT INTO admins (user_id, created_at) VALUES (?, ?)");
      let count = 0;
      for (const admin of previousAdmins) {
        if (!exists.get(admin.user_id)) continue;
        insert.run(admin.user_id, admin.created_at);
        count++;
      }
      admins = { kept: "replaced", count, dropped: previousAdmins.length - count };
    }
    db.exec("COMMIT");
    return { endedSessions, endedTokens, admins };
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Restores the backup at `dir` into the configured DATA_DIR (and database file). The server must be stopped; pass
 * `force` to replace existing data (moved aside, not deleted).
 */
export async function restoreBackup(
  config: AppConfig,
  dir: string,
  options: { force?: boolean; checkServer?: boolean; now?: Date; unsigned?: boolean; keepAdmins?: boolean } = {},
): Promise<RestoreResult> {
  assertEmbeddedSetup(config, "restore");
  const source = path.resolve(dir);
  const key = signingKey(config);
  const signature = checkSignature(source, key, Boolean(options.unsigned));
  const manifest = verifyBackup(source);
  const dbFile = config.database.file;
  if (options.checkServer ?? true) {
    const users = processesUsing(dbFile);
    if (users?.length) {
      throw new BackupError(terminal.restore.databaseInUse(dbFile, users));
    }
    if (users === null && (await serverAnswers(config))) {
      throw new BackupError(terminal.restore.serverRunning(config.port));
    }
  }

  const existing = [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, ...BACKUP_FOLDERS.map((folder) => path.join(config.dataDir, folder))].filter(
    (entry) => fs.existsSync(entry) && (!fs.statSync(entry).isDirectory() || fs.readdirSync(entry).length > 0),
  );
  if (existing.length && !options.force) {
    throw new BackupError(terminal.restore.dataDirNotEmpty(config.dataDir, existing));
  }

  makePrivateDir(config.dataDir);
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  const previousAdmins = currentAdmins(dbFile);
  // The signing key stays with the installation (it is not in the backup, and secrets/ is about to be replaced).
  const keyFile = path.join(config.dataDir, "secrets", SIGNING_KEY_FILE);
  const keptKey = fs.existsSync(keyFile) ? fs.readFileSync(keyFile) : null;
  let movedAside: string | null = null;
  if (existing.length) {
    movedAside = path.join(config.dataDir, `antes-da-restauracao-${timestamp(options.now ?? new Date())}`);
    fs.mkdirSync(movedAside, { recursive: true });
    for (const entry of existing) fs.renameSync(entry, path.join(movedAside, path.basename(entry)));
  }

  // Media and secrets first, the database last (under a temporary name, renamed into place).
  for (const entry of manifest.files) {
    const target = path.join(config.dataDir, entry.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(source, entry.path), target);
    if (entry.path.startsWith("secrets/")) fs.chmodSync(target, PRIVATE_FILE_MODE);
  }
  if (fs.existsSync(path.join(config.dataDir, "secrets")) || keptKey) makePrivateDir(path.join(config.dataDir, "secrets"));
  if (keptKey) writePrivateFile(keyFile, keptKey);
  const staged = `${dbFile}.restaurando`;
  writePrivateFile(staged, "");
  fs.copyFileSync(path.join(source, BACKUP_DB_FILE), staged);
  fs.chmodSync(staged, PRIVATE_FILE_MODE);
  if (sha256File(staged) !== manifest.database.sha256) {
    fs.rmSync(staged, { force: true });
    throw new BackupError(terminal.restore.copyMismatch);
  }
  const check = new DatabaseSync(staged, { readOnly: true });
  try {
    const result = check.prepare("PRAGMA integrity_check").get() as { integrity_check: string };
    if (result.integrity_check !== "ok") throw new BackupError(terminal.restore.integrityFailed(result.integrity_check));
  } finally {
    check.close();
  }
  const access = resetAccessAfterRestore(staged, previousAdmins, Boolean(options.keepAdmins));
  fs.renameSync(staged, dbFile);
  return { manifest, movedAside, signature, ...access };
}

const USAGE = terminal.restore.usage;

function parseArgs(args: string[]): { dir: string; force: boolean; keepAdmins: boolean; unsigned: boolean } {
  let dir: string | null = null;
  const flags = { force: false, keepAdmins: false, unsigned: false };
  for (const arg of args) {
    if (arg === "--force") flags.force = true;
    else if (arg === "--keep-admins") flags.keepAdmins = true;
    else if (arg === "--unsigned") flags.unsigned = true;
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (!arg.startsWith("-") && !dir) dir = arg;
    else throw new BackupError(terminal.restore.unknownArgument(arg, USAGE));
  }
  if (!dir) throw new BackupError(terminal.restore.dirRequired);
  return { dir, ...flags };
}

if (import.meta.main) {
  try {
    loadDotEnv();
    const { dir, ...options } = parseArgs(process.argv.slice(2));
    const config = parseConfig();
    const result = await restoreBackup(config, dir, options);
    const { manifest, movedAside } = result;
    if (result.signature === "unsigned") console.warn(terminal.restore.unsignedWarning);
    console.log(terminal.restore.restored(manifest.createdAt, config.dataDir));
    console.log(terminal.restore.database(config.database.kind === "sqlite" ? config.database.file : "", manifest.files.length));
    if (movedAside) console.log(terminal.restore.movedAside(movedAside));
    console.log(terminal.restore.accessEnded(result.endedSessions, result.endedTokens));
    if (result.admins.kept === "backup") {
      console.log(terminal.restore.adminsFromBackup(result.admins.count));
    } else if (result.admins.count || result.admins.dropped) {
      console.log(terminal.restore.adminsKept(result.admins.count, result.admins.dropped));
    } else {
      console.log(terminal.restore.noAdmins);
    }
    console.log(terminal.restore.startServer);
  } catch (error) {
    if (error instanceof BackupError || (error instanceof Error && error.name === "ConfigError")) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
