import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./site.ts";

const run = promisify(execFile);

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The configuration the README's deployment section ships: only its backend port is changed here. */
export const VARNISH_VCL = path.join(ROOT, "deploy/varnish/default.vcl");

export interface RunningVarnish {
  url: string;
  port: number;
  logs(): string;
  /** The ban expressions Varnish holds (`varnishadm ban.list`), newest first; its own start-up ban has none. */
  bans(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Picks the port Varnish will listen on (the site must know it before it starts: CDN_PURGE_URL). */
export const varnishPort = freePort;

/**
 * Debian's varnishd in the foreground on 127.0.0.1:`port`, with deploy/varnish/default.vcl pointed at the site on
 * `backendPort`, its own working directory, 32 MB of memory storage. Resolves once it accepts connections.
 */
export async function startVarnish({ port, backendPort }: { port: number; backendPort: number }): Promise<RunningVarnish> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-varnish-"));
  // Started as root, varnishd reads its configuration as its own unprivileged user.
  fs.chmodSync(dir, 0o755);
  const vcl = path.join(dir, "default.vcl");
  const source = fs.readFileSync(VARNISH_VCL, "utf8");
  if (!source.includes('.port = "3000";')) throw new Error("deploy/varnish/default.vcl no longer names the backend port 3000");
  fs.writeFileSync(vcl, source.replace('.port = "3000";', `.port = "${backendPort}";`));
  let output = "";
  const work = path.join(dir, "work");
  const child: ChildProcess = spawn(
    "varnishd",
    ["-F", "-a", `127.0.0.1:${port}`, "-f", vcl, "-n", work, "-s", "malloc,32m", "-p", "ban_lurker_sleep=0.1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`varnishd did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    logs: () => output,
    async bans() {
      const { stdout } = await run("varnishadm", ["-n", work, "ban.list"], { timeout: 10_000 });
      // "<time> <objects> <flags> <expression>" per line, after a "Present bans:" heading.
      return stdout
        .split("\n")
        .map((line) => /^\s*\d+\.\d+\s+\d+\s+\S*\s+((?:obj|req)\.\S.*?)\s*$/.exec(line)?.[1])
        .filter((expression): expression is string => expression !== undefined);
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}
