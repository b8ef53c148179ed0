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

/** The site file of LIVE_FANOUT=nchan: nchan holds the readers' streams, the app publishes to it. */
export const NGINX_NCHAN_SITE = path.join(ROOT, "deploy/nginx/esporte-em-foco-nchan.conf");
/** Debian's nchan module (libnginx-mod-nchan), loaded by Debian's nginx.conf; here by the test's own. */
export const NCHAN_MODULE = "/usr/lib/nginx/modules/ngx_nchan_module.so";

export interface RunningNginx {
  /** The TLS server of the site file, here on plain HTTP. */
  url: string;
  /** The site file's port-80 server (the redirect to https). */
  redirectUrl: string;
  /** The nchan site file's publisher (NCHAN_PUBLISH_URL), or null for the plain one. */
  publishUrl: string | null;
  /** The worker processes' pids (the bench measures their memory). */
  workerPids(): number[];
  logs(): string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** What the site's pages go to: Varnish, or the site. */
  backendPort: number;
  /** What `/events` goes to: always the site itself (default: backendPort). */
  appPort?: number;
  /** The nchan site file instead of the plain one, with the module loaded. */
  nchan?: boolean;
  /** Where nchan's publisher listens (the site's NCHAN_PUBLISH_URL, chosen before it starts; default: a free port). */
  publishPort?: number;
  /** Connections per worker (the bench opens thousands of streams). */
  workerConnections?: number;
  /** Worker processes (default 1; `auto`: one per core, as Debian's nginx.conf has it). */
  workers?: number | "auto";
  /** Each worker its own listening socket (`reuseport`): the bench's thousands of streams spread evenly over them. */
  reusePort?: boolean;
}

/**
 * Debian's nginx in the foreground with deploy/nginx/esporte-em-foco.conf (or -nchan.conf) as it ships, but for what
 * a test cannot have: its upstreams are `backendPort` (Varnish, or the site) and `appPort` (the site), its TLS server
 * listens on plain HTTP at 127.0.0.1:a free port (no certificate), its port-80 server at another, nchan's publisher
 * at a third. Everything else (locations, headers, the methods it refuses) is the file's own. Its own prefix, pid
 * file, error log and temporary folders. Resolves once it accepts connections.
 */
export async function startNginx({
  backendPort,
  appPort = backendPort,
  nchan = false,
  publishPort,
  workerConnections = 128,
  workers = 1,
  reusePort = false,
}: NginxOptions): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-nginx-"));
  // Started as root, nginx's workers run as an unprivileged user: they write request bodies in these folders.
  const temp = path.join(dir, "temp");
  fs.mkdirSync(temp, { mode: 0o777 });
  fs.chmodSync(temp, 0o777);
  fs.chmodSync(dir, 0o755);
  const [port, redirectPort] = [await freePort(), await freePort()];
  const publisherPort = publishPort ?? (await freePort());
  const siteFile = nchan ? NGINX_NCHAN_SITE : NGINX_SITE;
  const site = rewrite(siteFile, fs.readFileSync(siteFile, "utf8"), [
    // The first upstream is the pages', the second the streams' (the app itself).
    ["server 127.0.0.1:3000;", `server 127.0.0.1:${backendPort};`],
    ["server 127.0.0.1:3000;", `server 127.0.0.1:${appPort};`],
    ["listen 443 ssl http2;", `listen 127.0.0.1:${port}${reusePort ? " reuseport" : ""};`],
    ["listen 80;", `listen 127.0.0.1:${redirectPort};`],
    [/^\s*ssl_certificate(_key)? .*$/gm, ""],
    ...(nchan ? ([["listen 127.0.0.1:8090;", `listen 127.0.0.1:${publisherPort};`]] as Array<[string, string]>) : []),
  ]);
  fs.writeFileSync(path.join(dir, "site.conf"), site);
  const log = path.join(dir, "error.log");
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      ...(nchan ? [`load_module ${NCHAN_MODULE};`, `worker_rlimit_nofile ${Math.min(workerConnections * 2 + 64, hardFilesLimit())};`] : []),
      `worker_processes ${workers};`,
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${log} warn;`,
      `events { worker_connections ${workerConnections}; }`,
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
    publishUrl: nchan ? `http://127.0.0.1:${publisherPort}/_nchan/pub` : null,
    workerPids: () =>
      fs
        .readdirSync(`/proc/${child.pid}/task`)
        .flatMap((task) => fs.readFileSync(`/proc/${child.pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number)),
    logs,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The site file with each `[from, to]` replaced; a `from` it no longer has is an error (the test would be hollow). */
function rewrite(file: string, source: string, changes: Array<[string | RegExp, string]>): string {
  let text = source;
  for (const [from, to] of changes) {
    const found = typeof from === "string" ? text.includes(from) : from.test(text);
    if (!found) throw new Error(`${path.relative(ROOT, file)} no longer has ${String(from)}`);
    text = typeof from === "string" ? text.replace(from, to) : text.replace(from, to);
  }
  return text;
}

/** This process's hard limit of open files (what nginx, started from here, may raise its workers' to). */
function hardFilesLimit(): number {
  const hard = /^Max open files\s+\S+\s+(\d+)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"))?.[1];
  return hard ? Number(hard) : 1024;
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
