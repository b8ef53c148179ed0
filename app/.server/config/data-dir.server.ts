import fs from "node:fs";
import path from "node:path";

/** Folders that hold secrets (the data dir itself, generated secrets, the mail outbox): owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files that hold secrets (database files, secrets, e-mails with links): owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and parents) readable by this user only, whatever the umask. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Writes `file` readable by this user only, whatever the umask (the mode is set before any byte is written). */
export function writePrivateFile(file: string, data: string | Buffer): void {
  const handle = fs.openSync(file, "w", PRIVATE_FILE_MODE);
  try {
    fs.fchmodSync(handle, PRIVATE_FILE_MODE);
    fs.writeFileSync(handle, data);
  } finally {
    fs.closeSync(handle);
  }
}

/**
 * The data directory holds the database (password hashes, sessions, reset tokens), the generated secrets and the
 * mail outbox: it is made owner-only, and an existing installation's looser modes are tightened (returned, to log
 * once): the data dir, secrets and outbox folders, and the SQLite files and secrets inside them.
 */
export function secureDataDir(dataDir: string, databaseFile: string | null): string[] {
  const tightened: string[] = [];
  const tighten = (target: string, mode: number) => {
    let current: number;
    try {
      current = fs.statSync(target).mode & 0o777;
    } catch {
      return;
    }
    if ((current & ~mode) === 0) return;
    fs.chmodSync(target, mode);
    tightened.push(`${target} ${current.toString(8)} → ${mode.toString(8)}`);
  };
  if (!fs.existsSync(dataDir)) makePrivateDir(dataDir);
  tighten(dataDir, PRIVATE_DIR_MODE);
  for (const folder of ["secrets", "outbox"]) {
    const dir = path.join(dataDir, folder);
    tighten(dir, PRIVATE_DIR_MODE);
    if (fs.existsSync(dir)) for (const name of fs.readdirSync(dir)) tighten(path.join(dir, name), PRIVATE_FILE_MODE);
  }
  if (databaseFile) for (const file of [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`]) tighten(file, PRIVATE_FILE_MODE);
  return tightened;
}
