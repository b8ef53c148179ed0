/**
 * The demo site (SEED_DEMO=1), shared by the Playwright workers of one run.
 *
 * Creating the demo content takes 25–40 s on this machine. The first worker that needs it seeds it for real
 * (the quick-start path) and leaves a copy of its data directory (database + media) as a template; any other
 * worker starts its own server from a copy of that template, which takes about a second. The template lives
 * under the system temp folder, keyed by the test runner's pid, and is deleted by the last worker that used
 * it. All bookkeeping happens under a directory lock, so two workers never race.
 *
 * On PostgreSQL (TEST_DATABASE=postgres) the template's database is a PostgreSQL database: the first worker stops its
 * server for a moment (CREATE DATABASE … TEMPLATE needs nobody connected to the source), copies the database and the
 * data directory, and starts it again; the others start from copies of both. The last worker drops it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createSiteDatabase, dropSiteDatabase } from "./site-database.ts";
import { type RunningSite, startSite } from "./site.ts";

const DB_FILE = "esporte-em-foco.sqlite";
const PREFIX = "eef-e2e-demo-";
/** Workers of one run are children of the same runner process. */
const runnerPid = process.ppid;
const root = path.join(os.tmpdir(), `${PREFIX}${runnerPid}`);
const lockDir = path.join(root, "lock");
const templateDir = path.join(root, "template");
const readyFile = path.join(root, "ready");
const creatingFile = path.join(root, "creating");
const usersDir = path.join(root, "users");
/** On PostgreSQL: the URL of the template's database. */
const templateDbFile = path.join(root, "template-database");
const me = path.join(usersDir, String(process.pid));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes templates (and their PostgreSQL databases) left behind by runs that were killed. */
async function removeStaleTemplates(): Promise<void> {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length));
    if (Number.isInteger(pid) && pid !== runnerPid && !isAlive(pid)) {
      const stale = path.join(os.tmpdir(), name);
      const databaseFile = path.join(stale, "template-database");
      if (fs.existsSync(databaseFile)) await dropSiteDatabase(fs.readFileSync(databaseFile, "utf8")).catch(() => undefined);
      fs.rmSync(stale, { recursive: true, force: true });
    }
  }
}

async function withLock<T>(fn: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      fs.mkdirSync(root, { recursive: true });
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      // EEXIST: another worker holds the lock. ENOENT: the last user just removed the folder.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST" && code !== "ENOENT") throw error;
      if (Date.now() > deadline) throw new Error(`Trava do site de demonstração presa: ${lockDir}`);
      await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmdirSync(lockDir);
    try {
      fs.rmdirSync(root); // only succeeds once nothing is left in it
    } catch {
      // still in use
    }
  }
}

function liveUsers(): string[] {
  if (!fs.existsSync(usersDir)) return [];
  return fs.readdirSync(usersDir).filter((pid) => isAlive(Number(pid)));
}

/** Registers this worker; answers whether to copy the template, create it, or wait for another worker. */
function claim(): "copy" | "create" | "wait" {
  if (fs.existsSync(readyFile)) {
    fs.mkdirSync(usersDir, { recursive: true });
    fs.writeFileSync(me, "");
    return "copy";
  }
  if (fs.existsSync(creatingFile)) {
    const creator = Number(fs.readFileSync(creatingFile, "utf8"));
    if (isAlive(creator)) return "wait";
  }
  fs.mkdirSync(usersDir, { recursive: true });
  fs.writeFileSync(me, "");
  fs.writeFileSync(creatingFile, String(process.pid));
  return "create";
}

/** Unregisters this worker; the last one out deletes the template. */
async function release(): Promise<void> {
  fs.rmSync(me, { force: true });
  if (liveUsers().length === 0 && !fs.existsSync(creatingFile)) {
    if (fs.existsSync(templateDbFile)) await dropSiteDatabase(fs.readFileSync(templateDbFile, "utf8"));
    for (const entry of [templateDir, readyFile, usersDir, templateDbFile]) fs.rmSync(entry, { recursive: true, force: true });
  }
}

/** Copies a running site's data directory into the template (a consistent database copy, then media). */
async function saveTemplate(site: RunningSite): Promise<void> {
  fs.rmSync(templateDir, { recursive: true, force: true });
  if (site.databaseUrl) {
    const databaseUrl = site.databaseUrl;
    await site.whileStopped(async () => {
      fs.cpSync(site.dataDir, templateDir, { recursive: true });
      const copy = await createSiteDatabase(databaseUrl);
      await withLock(() => fs.writeFileSync(templateDbFile, copy.url));
    });
    return;
  }
  fs.mkdirSync(templateDir, { recursive: true });
  fs.cpSync(site.dataDir, templateDir, {
    recursive: true,
    filter: (source) => !path.basename(source).startsWith(DB_FILE),
  });
  const db = new DatabaseSync(site.dbFile, { timeout: 5000 });
  try {
    db.prepare("VACUUM INTO ?").run(path.join(templateDir, DB_FILE));
  } finally {
    db.close();
  }
}

/** Starts a demo site for this worker: seeded for real by the first worker, copied by the others. */
export async function startDemoSite(): Promise<RunningSite> {
  await removeStaleTemplates();
  const deadline = Date.now() + 150_000;
  for (;;) {
    const decision = await withLock(claim);
    if (decision === "copy") {
      try {
        // SEED_DEMO stays on: the copied database says it was already seeded, as a restarted site would.
        const fromDatabase = fs.existsSync(templateDbFile) ? fs.readFileSync(templateDbFile, "utf8") : undefined;
        return withRelease(await startSite({ seedDemo: true, fromDataDir: templateDir, fromDatabase }));
      } catch (error) {
        await withLock(release);
        throw error;
      }
    }
    if (decision === "create") {
      let site: RunningSite | undefined;
      try {
        // The first start renders the demo pictures and video: give it time on a busy machine.
        site = await startSite({ seedDemo: true, startTimeoutMs: 180_000 });
        await saveTemplate(site);
        await withLock(() => fs.writeFileSync(readyFile, ""));
        return withRelease(site);
      } catch (error) {
        await site?.stop();
        throw error;
      } finally {
        await withLock(async () => {
          fs.rmSync(creatingFile, { force: true });
          if (!fs.existsSync(readyFile)) await release();
        });
      }
    }
    if (Date.now() > deadline) throw new Error("Outro worker não terminou de criar o site de demonstração");
    await sleep(250);
  }
}

function withRelease(site: RunningSite): RunningSite {
  return {
    ...site,
    async stop() {
      try {
        await site.stop();
      } finally {
        await withLock(release);
      }
    },
  };
}
