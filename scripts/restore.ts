/**
 * `npm run restore -- PASTA [--force]`: puts a backup made by `npm run backup` back into the configured DATA_DIR
 * (embedded setup: SQLite + local media). Stop the server first.
 *
 * 1. Checks the backup: manifest format, then the size and SHA-256 of the database and of every file. Any mismatch
 *    (a damaged or edited backup) refuses the restore before anything is touched.
 * 2. Refuses while a process (the server) has the database open — found through /proc on Linux; elsewhere, when a
 *    server answers /healthz on this configuration's PORT — and, without `--force`, when DATA_DIR already holds a
 *    database, media or secrets.
 * 3. With `--force`, moves what is there (database with its -wal/-shm, media, secrets) aside into
 *    DATA_DIR/antes-da-restauracao-<data e hora>/ — nothing is deleted.
 * 4. Copies media and secrets, then the database (under a temporary name, renamed into place last), and checks the
 *    restored database with PRAGMA integrity_check.
 * Runs on Node 24 directly (type stripping): only erasable TypeScript syntax here.
 */
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type AppConfig, loadDotEnv, parseConfig } from "../app/.server/config/env.server.ts";
import {
  assertEmbeddedSetup,
  BACKUP_DB_FILE,
  BACKUP_FOLDERS,
  BackupError,
  type BackupManifest,
  listFiles,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  type ManifestFile,
  sha256File,
} from "./backup.ts";

/** Reads and checks a backup folder: the manifest, and every file's size and checksum. Throws a BackupError. */
export function verifyBackup(dir: string): BackupManifest {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) {
    throw new BackupError(`${dir} não é um backup do Esporte em Foco: falta ${MANIFEST_FILE} (backups incompletos terminam em .incompleto).`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`${manifestFile} está corrompido (não é um JSON válido). Restauração recusada.`);
  }
  if (manifest?.format !== MANIFEST_FORMAT || manifest.version !== 1 || !manifest.database || !Array.isArray(manifest.files)) {
    throw new BackupError(`${manifestFile} não é um manifesto de backup reconhecido (formato ${MANIFEST_FORMAT}, versão 1). Restauração recusada.`);
  }
  if (manifest.database.path !== BACKUP_DB_FILE) throw new BackupError(`Manifesto inválido: o banco deveria ser ${BACKUP_DB_FILE}.`);
  const listed = new Set<string>();
  const problems: string[] = [];
  for (const entry of [manifest.database, ...manifest.files] as unknown[]) {
    if (!isSafeEntry(entry)) {
      problems.push(`${String((entry as { path?: unknown } | null)?.path)}: entrada inválida no manifesto`);
      continue;
    }
    listed.add(entry.path);
    const file = path.join(dir, entry.path);
    if (!fs.existsSync(file)) {
      problems.push(`${entry.path}: arquivo ausente`);
      continue;
    }
    const size = fs.statSync(file).size;
    if (size !== entry.size) problems.push(`${entry.path}: tamanho ${size}, esperado ${entry.size}`);
    else if (sha256File(file) !== entry.sha256) problems.push(`${entry.path}: soma SHA-256 não confere`);
  }
  for (const folder of BACKUP_FOLDERS) {
    for (const relative of listFiles(path.join(dir, folder))) {
      if (!listed.has(`${folder}/${relative}`)) problems.push(`${folder}/${relative}: arquivo fora do manifesto`);
    }
  }
  if (problems.length) {
    const shown = problems.slice(0, 20).map((problem) => `  ${problem}`);
    if (problems.length > 20) shown.push(`  … e mais ${problems.length - 20}`);
    throw new BackupError(`O backup em ${dir} não confere com o manifesto; restauração recusada:\n${shown.join("\n")}`);
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
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the previous contents of DATA_DIR went (with --force), or null when there was nothing. */
  movedAside: string | null;
}

/**
 * Restores the backup at `dir` into the configured DATA_DIR (and database file). The server must be stopped; pass
 * `force` to replace existing data (moved aside, not deleted).
 */
export async function restoreBackup(
  config: AppConfig,
  dir: string,
  options: { force?: boolean; checkServer?: boolean; now?: Date } = {},
): Promise<RestoreResult> {
  assertEmbeddedSetup(config, "restore");
  const source = path.resolve(dir);
  const manifest = verifyBackup(source);
  const dbFile = config.database.file;
  if (options.checkServer ?? true) {
    const users = processesUsing(dbFile);
    if (users?.length) {
      throw new BackupError(`O banco ${dbFile} está aberto pelo(s) processo(s) ${users.join(", ")} (o servidor?): pare-o antes de restaurar.`);
    }
    if (users === null && (await serverAnswers(config))) {
      throw new BackupError(`Um servidor do Esporte em Foco responde na porta ${config.port}: pare-o antes de restaurar (os arquivos estão em uso).`);
    }
  }

  const existing = [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, ...BACKUP_FOLDERS.map((folder) => path.join(config.dataDir, folder))].filter(
    (entry) => fs.existsSync(entry) && (!fs.statSync(entry).isDirectory() || fs.readdirSync(entry).length > 0),
  );
  if (existing.length && !options.force) {
    throw new BackupError(
      `DATA_DIR (${config.dataDir}) já tem dados:\n${existing.map((entry) => `  ${entry}`).join("\n")}\n` +
        "Pare o servidor e rode de novo com --force para substituí-los (os atuais vão para DATA_DIR/antes-da-restauracao-…/).",
    );
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
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
    if (entry.path.startsWith("secrets/")) fs.chmodSync(target, 0o600);
  }
  if (fs.existsSync(path.join(config.dataDir, "secrets"))) fs.chmodSync(path.join(config.dataDir, "secrets"), 0o700);
  const staged = `${dbFile}.restaurando`;
  fs.copyFileSync(path.join(source, BACKUP_DB_FILE), staged);
  if (sha256File(staged) !== manifest.database.sha256) {
    fs.rmSync(staged, { force: true });
    throw new BackupError("A cópia do banco não confere com o manifesto (disco cheio?). Restauração interrompida.");
  }
  const check = new DatabaseSync(staged, { readOnly: true });
  try {
    const result = check.prepare("PRAGMA integrity_check").get() as { integrity_check: string };
    if (result.integrity_check !== "ok") throw new BackupError(`O banco do backup falhou na verificação de integridade: ${result.integrity_check}`);
  } finally {
    check.close();
  }
  fs.renameSync(staged, dbFile);
  return { manifest, movedAside };
}

function parseArgs(args: string[]): { dir: string; force: boolean } {
  let dir: string | null = null;
  let force = false;
  for (const arg of args) {
    if (arg === "--force") force = true;
    else if (arg === "--help" || arg === "-h") {
      console.log("Uso: npm run restore -- PASTA_DO_BACKUP [--force]   (pare o servidor antes)");
      process.exit(0);
    } else if (!arg.startsWith("-") && !dir) dir = arg;
    else throw new BackupError(`Argumento desconhecido: ${arg}\nUso: npm run restore -- PASTA_DO_BACKUP [--force]`);
  }
  if (!dir) throw new BackupError("Informe a pasta do backup: npm run restore -- backups/eef-backup-… [--force]");
  return { dir, force };
}

if (import.meta.main) {
  try {
    loadDotEnv();
    const { dir, force } = parseArgs(process.argv.slice(2));
    const config = parseConfig();
    const { manifest, movedAside } = await restoreBackup(config, dir, { force });
    console.log(`Backup de ${manifest.createdAt} restaurado em ${config.dataDir}`);
    console.log(`  banco: ${config.database.kind === "sqlite" ? config.database.file : ""}; ${manifest.files.length} arquivo(s) de mídia e segredos`);
    if (movedAside) console.log(`  os dados anteriores foram movidos para ${movedAside}`);
    console.log("Pode iniciar o servidor (npm start).");
  } catch (error) {
    if (error instanceof BackupError || (error instanceof Error && error.name === "ConfigError")) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
