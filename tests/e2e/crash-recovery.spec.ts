import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { runAdminCli } from "#app/.server/admins/admin-cli.server.ts";
import { createTestServices, makeDataDir } from "#tests/factories/services.ts";
import { createSiteDatabase, type PostgresDatabase, siteQuery, TEST_DATABASE } from "#tests/factories/site-database.ts";
import { freePort } from "#tests/factories/site.ts";
import { ageForSweep } from "./support/faults.ts";

// A server killed with SIGKILL in the middle of an upload leaves no broken record, and the orphan sweeper removes
// what the interrupted upload left on disk (never at start-up: by `npm run media:sweep` or its timer). On SQLite (a file under DATA_DIR) and, with
// TEST_DATABASE=postgres, on a PostgreSQL database of its own.

const root = path.resolve(import.meta.dirname, "../..");

function start(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      SITE_URL: `http://127.0.0.1:${port}`,
      ALLOW_INSECURE_HTTP: "1",
      PAGE_CACHE: "0",
      ...env,
    },
    detached: true,
    stdio: "ignore",
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return resolve(child);
      } catch {
        // not up yet
      }
      if (child.exitCode !== null || Date.now() > deadline) return reject(new Error("server did not start"));
      setTimeout(poll, 100);
    };
    void poll();
  });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test("kill -9 during an upload leaves no record, and the sweeper removes the partial file", async () => {
  test.setTimeout(90_000);
  const dataDir = makeDataDir("eef-crash-");
  const postgres: PostgresDatabase | null = TEST_DATABASE === "postgres" ? await createSiteDatabase() : null;
  // On PostgreSQL production wants a shared AUTH_SECRET: the test's services and the server use the same one.
  const databaseEnv: Record<string, string> = postgres ? { DATABASE_URL: postgres.url, AUTH_SECRET: "segredo-de-teste-".padEnd(40, "x") } : {};
  const database = { dbFile: path.join(dataDir, "esporte-em-foco.sqlite"), databaseUrl: postgres?.url ?? null };
  const count = async (table: string) => Number((await siteQuery<{ n: number | string }>(database, `select count(*) as n from ${table}`))[0]!.n);
  const services = await createTestServices(dataDir, databaseEnv);
  await runAdminCli(["create", "--email", "editor@exemplo.com", "--password", "segredo1"], services);
  await services.close();

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server = await start(dataDir, port, databaseEnv);
  try {
    const login = await fetch(`${origin}/admin/login`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=login&email=editor%40exemplo.com&password=segredo1",
    });
    const cookie = login.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    expect(cookie).toContain("session_token");

    // Start a 6 MB upload, send 2 MB, then kill the server without warning.
    const boundary = "----eefcrash";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nNotícia interrompida\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="subtitle"\r\n\r\nSub\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="video.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const request = http.request(`${origin}/api/news`, {
      method: "POST",
      headers: {
        Origin: origin,
        Cookie: cookie,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(head.length + 6 * 1024 * 1024 + 64),
      },
    });
    request.on("error", () => undefined);
    request.write(head);
    for (let index = 0; index < 32; index++) request.write(Buffer.alloc(64 * 1024, index));
    const tmpDir = path.join(dataDir, "tmp", "uploads");
    await expect.poll(() => filesUnder(tmpDir).length, { timeout: 10_000 }).toBeGreaterThan(0);
    process.kill(-server.pid!, "SIGKILL");
    request.destroy();
    await new Promise((resolve) => server.once("exit", resolve));

    // No news record was written.
    expect(await count("news")).toBe(0);
    expect(filesUnder(tmpDir).length).toBeGreaterThan(0); // the partial upload is still on disk…

    // …the restarted server deletes nothing at start (it could be on the wrong database), though the file is past
    // the sweep's grace…
    await ageForSweep({ dataDir, ...database });
    server = await start(dataDir, port, { ...databaseEnv, MEDIA_SWEEP_GRACE_SECONDS: "1" });
    expect(filesUnder(tmpDir).length).toBeGreaterThan(0);
    // …and the sweep removes it (here `npm run media:sweep`, grace shortened; the server's timer does the same).
    const sweep = spawnSync(process.execPath, ["scripts/media-sweep.ts"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, ...databaseEnv, MEDIA_SWEEP_GRACE_SECONDS: "1", LOG_LEVEL: "warn" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(sweep.status, sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(/Removidos: 0 registro\(s\) de mídia, 0 objeto\(s\), [1-9]\d* arquivo\(s\) temporário\(s\)\./);
    expect(filesUnder(tmpDir).length).toBe(0);
    expect(filesUnder(path.join(dataDir, "media")).filter((file) => !file.includes(`${path.sep}.tmp${path.sep}`))).toEqual([]);
    expect(await count("media")).toBe(0);
  } finally {
    if (server.exitCode === null && server.signalCode === null && server.pid) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      process.kill(-server.pid, "SIGKILL");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  }
});
