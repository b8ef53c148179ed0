/**
 * `npm run security [-- --minutes 30 --level 2 --risk 1 --only redação,autosave]`: the site under two outside scanners
 * (`--only`: the sqlmap targets whose name has one of those words, without wapiti).
 *
 * Installs sqlmap and wapiti (Debian packages) when missing, builds when needed, seeds a temporary data directory
 * with the demo content and an admin, starts its own production server on 127.0.0.1 (login throttling and upload
 * caps raised, so the scanners test the code and not the throttling) and signs the admin in through the login form.
 * Then:
 *  - sqlmap against every route that takes a parameter (path, query, form, JSON, multipart), with the admin's
 *    session cookie and a same-site Origin for the admin ones;
 *  - wapiti crawling the site twice (as a reader, and as the admin), with every module that stays on the target.
 * Fails (exit code 1) on any finding: an injection sqlmap confirms or suspects, a vulnerability or anomaly in
 * wapiti's JSON report (e.g. a 500), a 5xx answered to either tool, or a scanner that did not finish in time.
 *
 * Only 127.0.0.1 is ever scanned: every target is checked before a tool starts, wapiti's modules that download
 * databases or call its public endpoint (wapp, nikto, ssrf, xxe) are left out, its endpoints point at the target and
 * bug reports are off; and when the machine allows it (root, `unshare`), everything after the installation runs in
 * a network namespace of its own whose only interface is loopback.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServices, migrateAll } from "#app/.server/app.server.ts";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { seedDemoContent } from "#app/.server/seed/demo-seed.server.ts";
import { buildIfNeeded } from "#bench/build.ts";
import { signInAdmin, startAppServer } from "#bench/processes.ts";
import { createAdmin } from "#tests/factories/auth.ts";

const ISOLATED_ENV = "EEF_SECURITY_NETNS";

interface Options {
  minutes: number;
  level: number;
  risk: number;
  /** `--only a,b`: only the sqlmap targets whose name contains one of these, and no wapiti (a quick re-check). */
  only: string[] | null;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: "string", default: "30" },
      level: { type: "string", default: "2" },
      risk: { type: "string", default: "1" },
      only: { type: "string" },
    },
  });
  const number = (name: string, value: string, min: number, max: number) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) throw new Error(`--${name} precisa ser um inteiro entre ${min} e ${max}.`);
    return parsed;
  };
  return {
    minutes: number("minutes", values.minutes!, 5, 240),
    level: number("level", values.level!, 1, 5),
    risk: number("risk", values.risk!, 1, 3),
    only: values.only
      ? values.only
          .split(",")
          .map((part) => part.trim().toLowerCase())
          .filter(Boolean)
      : null,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

/** Throws unless `url` is plain HTTP on 127.0.0.1: nothing else is ever handed to a scanner. */
export function assertLoopback(url: string): void {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" || parsed.hostname !== "127.0.0.1") throw new Error(`Alvo recusado (só 127.0.0.1 pode ser varrido): ${url}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Tools

function has(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Installs sqlmap and wapiti with apt-get when either is missing. */
function ensureTools(): void {
  const missing = ["sqlmap", "wapiti"].filter((tool) => !has(tool));
  if (!missing.length) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Faltam ${missing.join(" e ")}. Instale com: sudo apt-get install -y ${missing.join(" ")} (ou rode este comando como root).`);
  }
  console.log(`Instalando ${missing.join(" e ")} (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", ...missing], { stdio: "inherit", env });
}

/**
 * Runs this script again inside a network namespace whose only interface is loopback (needs root and `unshare`),
 * returning its exit code; null when the machine does not allow it (the script then goes on without).
 */
function runIsolated(argv: string[]): number | null {
  if (process.env[ISOLATED_ENV] === "1") return null;
  if (!has("unshare") || !has("ip") || spawnSync("unshare", ["--net", "true"], { stdio: "ignore" }).status !== 0) {
    console.log("Aviso: sem `unshare --net` (precisa de root): a varredura roda na rede da máquina, limitada a 127.0.0.1 pelos alvos e módulos.");
    return null;
  }
  const result = spawnSync(
    "unshare",
    ["--net", "--", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', process.execPath, import.meta.filename, ...argv],
    { stdio: "inherit", env: { ...process.env, [ISOLATED_ENV]: "1" } },
  );
  return result.status ?? 1;
}

/** Runs a command with a deadline, keeping its output (also echoed to `logFile`). */
function run(command: string, args: string[], options: { logFile: string; timeoutMs: number; cwd?: string }) {
  return new Promise<{ code: number | null; output: string; timedOut: boolean; ms: number }>((resolve) => {
    const started = performance.now();
    const log = fs.createWriteStream(options.logFile);
    let output = "";
    const child: ChildProcess = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log.write(chunk);
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      log.end();
      resolve({ code, output, timedOut, ms: performance.now() - started });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The site

const ADMIN_PASSWORD = "Senha-varredura-1";

/** A fresh data directory with the demo content and an admin; returns the ids the targets use. */
async function seed(dataDir: string) {
  const config = parseConfig({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${path.join(dataDir, "esporte-em-foco.sqlite")}`,
    MEDIA_STORE: "local",
    SEED_DEMO: "0",
    LOG_LEVEL: "silent",
  });
  const services = createServices(config, createLogger({ logLevel: "silent" }));
  try {
    await migrateAll(services);
    await seedDemoContent(services);
    const admin = await createAdmin(services, { password: ADMIN_PASSWORD });
    const { db } = services.database;
    const news = await db.selectFrom("news").select(["id", "media_id"]).orderBy("created_at", "desc").execute();
    const withMedia = news.find((item) => item.media_id !== null);
    const media = withMedia ? await db.selectFrom("media").select("variants").where("id", "=", withMedia.media_id!).executeTakeFirst() : undefined;
    const sponsor = await db.selectFrom("sponsors").select("id").executeTakeFirst();
    if (news.length < 3 || !media || !sponsor) throw new Error("O conteúdo de demonstração não tem notícias, imagem ou patrocinador.");
    const mediaKey = (JSON.parse(media.variants) as Array<{ key: string }>)[0]!.key;
    return { admin, newsIds: news.map((item) => item.id), mediaKey, sponsorId: sponsor.id };
  } finally {
    await services.events.close();
    await services.rateLimiter.close?.();
    await services.database.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// sqlmap

interface SqlmapTarget {
  name: string;
  method: string;
  /** Path and query; `*` marks a path segment to inject into (query, form and JSON values are found by sqlmap). */
  path: string;
  admin?: boolean;
  body?: { type: "form" | "json" | "multipart"; fields: Record<string, string> };
}

const BOUNDARY = "----varredura7f3a";

/**
 * sqlmap's arguments for one target: URL, method, headers and body given explicitly (with `-r` and no terminal on
 * its standard input, sqlmap 1.7 reads its targets from there instead).
 */
export function sqlmapRequestArgs(base: string, target: SqlmapTarget, cookie: string): string[] {
  const url = new URL(target.path.replaceAll("*", ""), base);
  assertLoopback(url.href);
  const headers = ["Accept-Encoding: identity"];
  const args = ["-u", `${url.origin}${target.path}`, `--method=${target.method}`, "-A", "esporte-em-foco-security"];
  if (target.method !== "GET") headers.push(`Origin: ${url.origin}`);
  if (target.admin) args.push(`--cookie=${cookie}`);
  if (target.body?.type === "form") {
    headers.push("Content-Type: application/x-www-form-urlencoded");
    args.push(`--data=${new URLSearchParams(target.body.fields).toString()}`);
  } else if (target.body?.type === "json") {
    headers.push("Content-Type: application/json");
    args.push(`--data=${JSON.stringify(target.body.fields)}`);
  } else if (target.body?.type === "multipart") {
    const body = `${Object.entries(target.body.fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("")}--${BOUNDARY}--\r\n`;
    headers.push(`Content-Type: multipart/form-data; boundary=${BOUNDARY}`);
    args.push(`--data=${body}`);
  }
  args.push(`--headers=${headers.join("\n")}`);
  return args;
}

function sqlmapTargets(ids: Awaited<ReturnType<typeof seed>>, sitemapFile: string): SqlmapTarget[] {
  const [newest, second, third] = ids.newsIds;
  const news = { title: "Varredura", subtitle: "Subtítulo", fullContent: "Texto.", category: "Futebol", author: "Redação" };
  const login = { intent: "login", email: "leitor@teste.example", password: "senha-errada-1", redirectTo: "/news-list" };
  return [
    // Public pages and the public API.
    { name: "artigo (id)", method: "GET", path: `/article/${newest}*` },
    { name: "artigo (id e slug)", method: "GET", path: `/article/${newest}*/titulo*` },
    { name: "lista (tab, cursor)", method: "GET", path: "/news-list?tab=1&cursor=abc" },
    { name: "API lista (limit, cursor, highlighted)", method: "GET", path: "/api/news?limit=10&cursor=abc&highlighted=1" },
    { name: "API notícia (id)", method: "GET", path: `/api/news/${newest}*` },
    { name: "sitemap (arquivo)", method: "GET", path: `/sitemaps/${sitemapFile.replace(/\.xml$/, "")}*.xml` },
    { name: "mídia (chave)", method: "GET", path: `/media/${ids.mediaKey}*` },
    // Sign-in, registration, password reset, e-mail confirmation.
    { name: "login (redirectTo, view)", method: "GET", path: "/admin/login?view=login&redirectTo=%2Fnews-list" },
    { name: "login (formulário)", method: "POST", path: "/admin/login", body: { type: "form", fields: login } },
    {
      name: "cadastro (formulário)",
      method: "POST",
      path: "/admin/login",
      body: {
        type: "form",
        fields: { intent: "register", name: "Leitor", email: "novo@teste.example", password: "senha-nova-12", confirmPassword: "senha-nova-12" },
      },
    },
    {
      name: "esqueci a senha (formulário)",
      method: "POST",
      path: "/admin/login",
      body: { type: "form", fields: { intent: "forgot", email: "leitor@teste.example" } },
    },
    { name: "redefinir senha (token)", method: "GET", path: "/admin/reset-password?token=abc123" },
    {
      name: "redefinir senha (formulário)",
      method: "POST",
      path: "/admin/reset-password",
      body: { type: "form", fields: { token: "abc123", password: "senha-nova-12", confirmPassword: "senha-nova-12" } },
    },
    { name: "confirmar e-mail (token)", method: "GET", path: "/admin/verify-email?token=abc123" },
    {
      name: "Better Auth: entrar (JSON)",
      method: "POST",
      path: "/api/auth/sign-in/email",
      body: { type: "json", fields: { email: "leitor@teste.example", password: "senha-errada-1" } },
    },
    // The newsroom, with the admin's session.
    { name: "editar notícia (id)", method: "GET", path: `/edit-news/${newest}*`, admin: true },
    { name: "editar notícia (formulário)", method: "POST", path: `/edit-news/${second}`, admin: true, body: { type: "multipart", fields: news } },
    { name: "nova notícia (formulário)", method: "POST", path: "/add-news", admin: true, body: { type: "multipart", fields: news } },
    { name: "API criar notícia (JSON)", method: "POST", path: "/api/news", admin: true, body: { type: "json", fields: news } },
    {
      name: "API alterar notícia (JSON)",
      method: "PATCH",
      path: `/api/news/${second}`,
      admin: true,
      body: { type: "json", fields: { title: "Varredura", category: "Vôlei" } },
    },
    { name: "API substituir notícia (JSON)", method: "PUT", path: `/api/news/${second}*`, admin: true, body: { type: "json", fields: news } },
    { name: "API apagar notícia (id)", method: "DELETE", path: `/api/news/${third}*`, admin: true },
    {
      name: "patrocinadores (apagar, formulário)",
      method: "POST",
      path: "/SponsorManager",
      admin: true,
      body: { type: "multipart", fields: { intent: "delete", id: ids.sponsorId } },
    },
    {
      name: "API alterar patrocinador (JSON)",
      method: "PATCH",
      path: `/api/sponsors/${ids.sponsorId}`,
      admin: true,
      body: { type: "json", fields: { name: "Varredura", link: "https://patrocinador.example/", position: "1" } },
    },
    { name: "API apagar patrocinador (id)", method: "DELETE", path: `/api/sponsors/${ids.sponsorId}*`, admin: true },
    {
      name: "redação (filtros e busca)",
      method: "GET",
      path: "/redacao?q=gol&situacao=todas&categoria=futebol&autor=redacao&de=2026-01-01&ate=2026-12-31&ordem=atualizacao&cursor=abc",
      admin: true,
    },
    {
      name: "redação (ações em lote, formulário)",
      method: "POST",
      path: "/redacao",
      admin: true,
      body: { type: "form", fields: { intent: "unpublish", id: second!, confirmed: "1" } },
    },
    {
      name: "salvamento automático (JSON)",
      method: "PUT",
      path: `/api/news/${second}/autosave`,
      admin: true,
      body: { type: "json", fields: { title: "Varredura", subtitle: "Subtítulo", category: "Futebol", author: "Redação" } },
    },
    { name: "histórico (id)", method: "GET", path: `/edit-news/${second}*/historico`, admin: true },
    {
      name: "segurança (2FA, formulário)",
      method: "POST",
      path: "/admin/security",
      admin: true,
      body: { type: "form", fields: { intent: "enable", password: "senha-errada-1" } },
    },
  ];
}

/**
 * What in sqlmap's output is a finding: a confirmed injection, a parameter sqlmap found injectable and did not
 * itself dismiss afterwards ("false positive or unexploitable" → "does not seem to be injectable"), a suspected
 * XSS or file inclusion, a 5xx, or a target it gave up on.
 */
export function sqlmapFindings(output: string): string[] {
  const findings: string[] = [];
  const suspected = new Map<string, string>();
  for (const line of output.split("\n")) {
    const text = line.trim();
    const parameter = /(\S+) parameter '([^']+)'/.exec(text);
    const key = parameter ? `${parameter[1]} ${parameter[2]}` : "";
    if (parameter && /does not seem to be injectable/i.test(text)) {
      suspected.delete(key);
      continue;
    }
    if (parameter && /appears to be '.*' injectable/i.test(text)) {
      suspected.set(key, text);
      continue;
    }
    if (/do not appear to be injectable/i.test(text)) continue;
    if (
      // A target sqlmap gave up on (e.g. "not authorized … skipping to the next target") was not tested at all.
      /skipping to the next target|\[CRITICAL\] .*(connection|connect to|timed out|not authorized)/i.test(text) ||
      /identified the following injection point/i.test(text) ||
      /\bis vulnerable\b/i.test(text) ||
      /might be vulnerable/i.test(text) ||
      // The codes sqlmap got, one a line after "HTTP error codes detected during run:", e.g. "500 (Internal Server Error) - 3 times".
      /^5\d\d \([^)]*\) - \d+ times/.test(text)
    ) {
      findings.push(text);
    }
  }
  return [...new Set([...suspected.values(), ...findings])];
}

async function runSqlmap(base: string, targets: SqlmapTarget[], cookie: string, workDir: string, options: Options, deadline: number) {
  const dir = path.join(workDir, "sqlmap");
  fs.mkdirSync(dir, { recursive: true });
  const results: Array<{ target: SqlmapTarget; findings: string[]; ms: number; timedOut: boolean; code: number | null }> = [];
  for (const [index, target] of targets.entries()) {
    const left = deadline - Date.now();
    if (left < 10_000) {
      results.push({ target, findings: [], ms: 0, timedOut: true, code: null });
      continue;
    }
    process.stdout.write(`  sqlmap ${String(index + 1).padStart(2)}/${targets.length} ${target.method} ${target.path} (${target.name}): `);
    const result = await run(
      "sqlmap",
      [
        ...sqlmapRequestArgs(base, target, cookie),
        "--batch",
        `--level=${options.level}`,
        `--risk=${options.risk}`,
        "--threads=2",
        "--timeout=15",
        "--retries=1",
        "--flush-session",
        "--disable-coloring",
        // Refusals are normal answers here (a wrong password is a 401, a bad id a 404): test them instead of skipping.
        "--ignore-code=400,401,403,404,405,409,413,415,422,429",
        "--output-dir",
        dir,
        // Boolean, error and UNION based; not the time-based ones (time-based blind and stacked queries), which a
        // slow, shared machine turns into false positives and which multiply the run time.
        "--technique=BEU",
      ],
      { logFile: path.join(dir, `sqlmap-${index}.log`), timeoutMs: Math.min(left, 6 * 60_000) },
    );
    const findings = sqlmapFindings(result.output);
    if (result.code !== 0 && !result.timedOut)
      findings.push(`sqlmap saiu com código ${result.code}: ${result.output.trim().split("\n").slice(-3).join(" / ")}`);
    console.log(`${seconds(result.ms)}${result.timedOut ? ", NÃO TERMINOU" : ""}${findings.length ? `, ${findings.length} achado(s)` : ", nada"}`);
    results.push({ target, findings, ms: result.ms, timedOut: result.timedOut, code: result.code });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// wapiti

/** Wapiti's modules run here: all but those that reach outside (wapp, nikto, ssrf, xxe) and those that do not fit. */
export const WAPITI_MODULES = [
  "backup",
  "blindsql",
  "cookieflags",
  "crlf",
  "csp",
  "exec",
  "file",
  "htaccess",
  "http_headers",
  "methods",
  "permanentxss",
  "redirect",
  "shellshock",
  "sql",
  "xss",
];

/**
 * Wapiti results that are not defects of this site, with the reason. Everything else in its report is a finding.
 */
export const WAPITI_EXPECTED: Array<{ info: RegExp; reason: string }> = [
  {
    info: /^Strict-Transport-Security is not set/,
    reason: "o servidor da varredura é HTTP em 127.0.0.1; o HSTS só é enviado quando SITE_URL é https",
  },
  {
    info: /^Secure flag is not set in the cookie/,
    reason: "o servidor da varredura é HTTP em 127.0.0.1 (ALLOW_INSECURE_HTTP=1); em https o cookie sai com Secure",
  },
  {
    info: /^X-XSS-Protection is not set/,
    reason: "cabeçalho obsoleto (os navegadores removeram o filtro de XSS); a CSP o substitui",
  },
];

interface WapitiEntry {
  kind: "vulnerabilidade" | "anomalia";
  category: string;
  method: string;
  path: string;
  info: string;
  parameter: string;
}

/** The findings in wapiti's JSON report (vulnerabilities and anomalies), split into real and expected. */
export function wapitiFindings(report: unknown): { findings: WapitiEntry[]; expected: Array<WapitiEntry & { reason: string }> } {
  const data = report as { vulnerabilities?: Record<string, unknown[]>; anomalies?: Record<string, unknown[]> };
  const findings: WapitiEntry[] = [];
  const expected: Array<WapitiEntry & { reason: string }> = [];
  for (const [kind, groups] of [
    ["vulnerabilidade", data.vulnerabilities ?? {}],
    ["anomalia", data.anomalies ?? {}],
  ] as const) {
    for (const [category, entries] of Object.entries(groups)) {
      for (const raw of entries as Array<Record<string, string>>) {
        const entry: WapitiEntry = {
          kind,
          category,
          method: raw.method ?? "",
          path: raw.path ?? "",
          info: raw.info ?? "",
          parameter: raw.parameter ?? "",
        };
        const known = kind === "vulnerabilidade" ? WAPITI_EXPECTED.find((rule) => rule.info.test(entry.info)) : undefined;
        if (known) expected.push({ ...entry, reason: known.reason });
        else findings.push(entry);
      }
    }
  }
  return { findings, expected };
}

async function runWapiti(base: string, label: string, cookie: string | null, workDir: string, maxSeconds: number) {
  assertLoopback(base);
  const dir = path.join(workDir, `wapiti-${label}`);
  fs.mkdirSync(dir, { recursive: true });
  const report = path.join(dir, "report.json");
  const args = [
    "-u",
    `${base}/`,
    "--scope",
    "folder",
    "-m",
    WAPITI_MODULES.join(","),
    "--flush-session",
    "--store-session",
    path.join(dir, "session"),
    "--store-config",
    path.join(dir, "config"),
    // Its SSRF/XXE endpoint (a public server by default) pointed at the target itself; the modules using it are off.
    "--external-endpoint",
    `${base}/`,
    "--internal-endpoint",
    `${base}/`,
    "--no-bugreport",
    "--max-scan-time",
    String(maxSeconds),
    "--max-attack-time",
    String(Math.max(30, Math.floor(maxSeconds / 6))),
    "-d",
    "4",
    "--max-links-per-page",
    "40",
    "--max-files-per-dir",
    "60",
    "-t",
    "15",
    "-H",
    "Accept-Encoding: identity",
    "-f",
    "json",
    "-o",
    report,
    "-v",
    "1",
  ];
  if (cookie)
    args.push(
      "-H",
      `Cookie: ${cookie}`,
      "-s",
      `${base}/news-list`,
      "-s",
      `${base}/add-news`,
      "-s",
      `${base}/SponsorManager`,
      "-s",
      `${base}/admin/security`,
    );
  else args.push("-s", `${base}/admin/login`, "-s", `${base}/admin/login?view=register`, "-s", `${base}/admin/reset-password?token=abc123`);
  process.stdout.write(`  wapiti (${label}): `);
  const result = await run("wapiti", args, { logFile: path.join(dir, "wapiti.log"), timeoutMs: (maxSeconds + 120) * 1000 });
  const problems: string[] = [];
  let parsed: ReturnType<typeof wapitiFindings> = { findings: [], expected: [] };
  if (result.timedOut) problems.push(`wapiti (${label}) não terminou em ${maxSeconds + 120} s`);
  if (!fs.existsSync(report))
    problems.push(`wapiti (${label}) não escreveu o relatório (código ${result.code}): ${result.output.trim().split("\n").slice(-5).join(" / ")}`);
  else parsed = wapitiFindings(JSON.parse(fs.readFileSync(report, "utf8")));
  const crawled = /found (\d+) URLs and forms/i.exec(result.output)?.[1];
  // A module stopped by --max-attack-time did not try everything: said, not failed (the time is bounded on purpose).
  const cut = [...result.output.matchAll(/Max attack time was reached for module (\w+)/g)].map((match) => match[1]);
  console.log(
    `${seconds(result.ms)}${crawled ? `, ${crawled} URLs e formulários` : ""}, ${parsed.findings.length} achado(s), ${parsed.expected.length} esperado(s)` +
      (cut.length ? `; interrompidos pelo limite de tempo: ${cut.join(", ")}` : ""),
  );
  return { label, ms: result.ms, problems, ...parsed, report };
}

// ---------------------------------------------------------------------------------------------------------------

/** 5xx answers and errors in the server's log (JSON lines): each one is a finding. */
function serverErrors(logFile: string): string[] {
  return fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => /"status":5\d\d/.test(line) || /"statusCode":5\d\d/.test(line) || /"level":(50|60)/.test(line))
    .map((line) => line.slice(0, 500));
}

async function main() {
  const argv = process.argv.slice(2);
  const options = readOptions(argv);
  const started = Date.now();
  if (process.env[ISOLATED_ENV] !== "1") {
    ensureTools();
    buildIfNeeded();
    const code = runIsolated(argv);
    if (code !== null) {
      console.log(`Tempo total: ${seconds(Date.now() - started)}`);
      process.exit(code);
    }
  } else {
    const interfaces = Object.keys(os.networkInterfaces());
    console.log(`Rede isolada (namespace próprio): interfaces ${interfaces.join(", ")}`);
    if (interfaces.some((name) => name !== "lo")) throw new Error(`Namespace de rede com interfaces além de lo: ${interfaces.join(", ")}`);
  }
  const deadline = started + options.minutes * 60_000;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-security-"));
  const dataDir = path.join(workDir, "data");
  const logFile = path.join(workDir, "server.log");
  console.log(`Diretório de trabalho (relatórios, log do servidor): ${workDir}`);
  const ids = await seed(dataDir);
  const server = await startAppServer({
    dataDir,
    pageCache: true,
    logFile,
    env: {
      // The scanners send thousands of requests: throttling would answer them all with 429 and hide the code.
      LOGIN_RATE_LIMIT: "1000",
      LOGIN_RATE_WINDOW_SECONDS: "1",
      UPLOADS_PER_ADMIN: "50",
      UPLOADS_TOTAL: "200",
    },
  });
  const failures: string[] = [];
  const timings: string[] = [];
  try {
    assertLoopback(server.url);
    // SITE_URL is http://localhost:<port>; the scanners talk to 127.0.0.1, the same server.
    const cookie = await signInAdmin(server.url, ids.admin.email, ids.admin.password);
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const sitemapFile = /\/sitemaps\/([^<\s]+)/.exec(index)?.[1] ?? "news-1.xml";
    console.log(`Servidor em ${server.url} (pid ${server.pid}), admin conectado; limite ${options.minutes} min.`);

    const targets = sqlmapTargets(ids, sitemapFile).filter(
      (target) => !options.only || options.only.some((part) => target.name.toLowerCase().includes(part)),
    );
    console.log(`\nsqlmap: ${targets.length} alvos, --level=${options.level} --risk=${options.risk}`);
    const sqlStarted = Date.now();
    // Wapiti gets at least a third of what is left.
    const sqlDeadline = Date.now() + ((deadline - Date.now()) * 2) / 3;
    const sql = await runSqlmap(server.url, targets, cookie, workDir, options, sqlDeadline);
    timings.push(`sqlmap: ${seconds(Date.now() - sqlStarted)}`);
    for (const result of sql) {
      const where = `${result.target.method} ${result.target.path} (${result.target.name})`;
      if (result.timedOut) failures.push(`sqlmap: ${where}: não terminou no tempo`);
      for (const finding of result.findings) failures.push(`sqlmap: ${where}: ${finding}`);
    }

    if (options.only) console.log("\n--only: sem wapiti.");
    // The session may have been ended by a scanner (e.g. a 2FA change): sign in again for wapiti.
    const freshCookie = await signInAdmin(server.url, ids.admin.email, ids.admin.password);
    const wapitiStarted = Date.now();
    const perRun = Math.max(60, Math.floor((deadline - Date.now()) / 1000 / 2) - 120);
    console.log(`\nwapiti: módulos ${WAPITI_MODULES.join(", ")}; até ${perRun} s por varredura`);
    for (const [label, session] of options.only
      ? []
      : ([
          ["leitor", null],
          ["admin", freshCookie],
        ] as const)) {
      const result = await runWapiti(server.url, label, session, workDir, perRun);
      failures.push(...result.problems);
      for (const finding of result.findings) {
        failures.push(
          `wapiti (${label}): ${finding.kind} ${finding.category}: ${finding.method} ${finding.path}${finding.parameter ? ` [${finding.parameter}]` : ""}: ${finding.info}`,
        );
      }
      for (const known of result.expected) console.log(`    esperado: ${known.category}: ${known.info} (${known.reason})`);
    }
    timings.push(`wapiti: ${seconds(Date.now() - wapitiStarted)}`);
  } finally {
    await server.stop();
  }
  for (const line of serverErrors(logFile)) failures.push(`servidor: ${line}`);

  console.log(`\nTempos: ${timings.join(", ")}, total ${seconds(Date.now() - started)}`);
  console.log(`Relatórios e logs: ${workDir}`);
  if (failures.length) {
    console.log(`\nFALHOU: ${failures.length} achado(s):`);
    // The same finding on many URLs (e.g. one per news id) is shown a few times, then counted.
    const shown = new Map<string, number>();
    for (const failure of failures) {
      const kind = failure.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|\/[^\s:]*/gi, "…").slice(0, 120);
      const count = (shown.get(kind) ?? 0) + 1;
      shown.set(kind, count);
      if (count <= 3) console.log(`  - ${failure}`);
    }
    for (const [kind, count] of shown) if (count > 3) console.log(`  … e mais ${count - 3} como: ${kind}`);
    console.log(`Todos os achados: relatórios em ${workDir}`);
    process.exit(1);
  }
  console.log("\nOK: nenhum achado.");
}

if (import.meta.filename === process.argv[1] || path.resolve(process.argv[1] ?? "") === import.meta.filename) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
