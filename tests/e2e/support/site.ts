import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { AppServices } from "../../../app/.server/app.server.ts";
import { createTestServices, makeDataDir } from "../../factories/services.ts";

export interface RunningSite {
  url: string;
  /** The server process id (for memory readings in benchmarks). */
  pid: number;
  dataDir: string;
  dbFile: string;
  logs(): string;
  stop(): Promise<void>;
}

export interface SiteOptions {
  /** Fills the database before the server starts (the server then runs migrations, a no-op). */
  setup?: (services: AppServices) => Promise<void>;
  /** Leave the demo content on (the quick-start path). Off by default. */
  seedDemo?: boolean;
  env?: Record<string, string>;
  /** Start from a copy of this data directory (database and media) instead of an empty one. */
  fromDataDir?: string;
  /**
   * Listen on this port instead of a random free one: for tests that must know the site's URL before it starts
   * (SITE_URL, OAuth redirect URIs). Pick it with `freePort()`.
   */
  port?: number;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the real production server (`server.ts` on the built app) on its own data directory and port. */
export async function startSite(options: SiteOptions = {}): Promise<RunningSite> {
  const dataDir = makeDataDir("eef-e2e-");
  if (options.fromDataDir) fs.cpSync(options.fromDataDir, dataDir, { recursive: true });
  if (options.setup) {
    const services = await createTestServices(dataDir);
    try {
      await options.setup(services);
    } catch (error) {
      await services.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
    await services.close();
  }
  const port = options.port ?? (await freePort());
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.ts"], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SEED_DEMO: options.seedDemo ? "1" : "0",
      LOG_LEVEL: "warn",
      ...options.env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`O servidor saiu com código ${child.exitCode}:\n${output}`);
      try {
        const response = await fetch(`${url}/healthz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`O servidor não respondeu em 60 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    // Never leave a half-started server or its data behind.
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGKILL");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    pid: child.pid ?? 0,
    dataDir,
    dbFile: path.join(dataDir, "esporte-em-foco.sqlite"),
    logs: () => output,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        process.kill(-child.pid, "SIGTERM");
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
