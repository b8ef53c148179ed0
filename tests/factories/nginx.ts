import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./site.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The site file the README's deployment section ships (TLS in front of the site or of Varnish). */
export const NGINX_SITE = path.join(ROOT, "deploy/nginx/esporte-em-foco.conf");
export const NGINX = "/usr/sbin/nginx";

export interface RunningNginx {
  /** The TLS server of the site file, here on plain HTTP. */
  url: string;
  /** The site file's port-80 server (the redirect to https). */
  redirectUrl: string;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx in the foreground with deploy/nginx/esporte-em-foco.conf as it ships, but for what a test cannot
 * have: its upstream is `backendPort` (Varnish, or the site), its TLS server listens on plain HTTP at 127.0.0.1:a free
 * port (no certificate), its port-80 server at another. Everything else (locations, headers, the methods it refuses)
 * is the file's own. Its own prefix, pid file, error log and temporary folders. Resolves once it accepts connections.
 */
export async function startNginx({ backendPort }: { backendPort: number }): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-nginx-"));
  // Started as root, nginx's workers run as an unprivileged user: they write request bodies in these folders.
  const temp = path.join(dir, "temp");
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(temp, 0o777);
  fs.chmodSync(dir, 0o755);
  const [port, redirectPort] = [await freePort(), await freePort()];
  const site = rewrite(fs.readFileSync(NGINX_SITE, "utf8"), [
    ["server 127.0.0.1:3000;", `server 127.0.0.1:${backendPort};`],
    ["listen 443 ssl http2;", `listen 127.0.0.1:${port};`],
    ["listen 80;", `listen 127.0.0.1:${redirectPort};`],
    [/^\s*ssl_certificate(_key)? .*$/gm, ""],
  ]);
  fs.writeFileSync(path.join(dir, "site.conf"), site);
  const log = path.join(dir, "error.log");
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${log} warn;`,
      "events { worker_connections 128; }",
      "http {",
      "  access_log off;",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${path.join(temp, kind)};`),
      `  include ${path.join(dir, "site.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  let output = "";
  const child: ChildProcess = spawn(NGINX, ["-g", "daemon off;", "-e", log, "-p", dir, "-c", path.join(dir, "nginx.conf")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const logs = () => `${output}${fs.existsSync(log) ? fs.readFileSync(log, "utf8") : ""}`;
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) child.kill("SIGTERM");
      throw new Error(`nginx did not start:\n${logs()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    redirectUrl: `http://127.0.0.1:${redirectPort}`,
    logs,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The site file with each `[from, to]` replaced; a `from` it no longer has is an error (the test would be hollow). */
function rewrite(source: string, changes: Array<[string | RegExp, string]>): string {
  let text = source;
  for (const [from, to] of changes) {
    const found = typeof from === "string" ? text.includes(from) : from.test(text);
    if (!found) throw new Error(`deploy/nginx/esporte-em-foco.conf no longer has ${String(from)}`);
    text = typeof from === "string" ? text.replace(from, to) : text.replace(from, to);
  }
  return text;
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
