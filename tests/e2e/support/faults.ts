/**
 * Helpers of the fault tests (crash-consistency, disk-full, postgres-restart): raw multipart requests the test
 * controls byte by byte, sign-in over HTTP, and a consistency check of a site's data against its media folder.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { expect } from "@playwright/test";
import { siteQuery } from "#tests/factories/site-database.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
export const SESSION_COOKIE_NAME = "eef.session_token";

/** Signs in through the login form over HTTP; returns the Cookie header to send. */
export async function signInCookie(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "login", email, password }).toString(),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  expect(cookie, `login: ${response.status}`).toContain(SESSION_COOKIE_NAME);
  return cookie;
}

export interface MultipartBody {
  contentType: string;
  /** The text fields and the file part's headers. */
  head: Buffer;
  file: Buffer;
  /** The closing boundary. */
  tail: Buffer;
  length: number;
}

/** A multipart/form-data body with text fields and one file, in pieces the test can send when it likes. */
export function multipartBody(fields: Record<string, string>, file: { field: string; name: string; type: string; data: Buffer }): MultipartBody {
  const boundary = `----eeffault${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("") +
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head,
    file: file.data,
    tail,
    length: head.length + file.data.length + tail.length,
  };
}

export type Outcome = { status: number; body: string } | { error: string };

export interface RawRequest {
  request: http.ClientRequest;
  /** The answer, or the connection error (a killed server resets it). Never rejects. */
  outcome: Promise<Outcome>;
  /** Whether an answer (status line) has arrived. */
  answered(): boolean;
}

/** Opens a request whose body the test writes itself (`request.write`, `request.end`). */
export function rawRequest(url: string, method: string, headers: Record<string, string>): RawRequest {
  let answered = false;
  const request = http.request(url, { method, headers, agent: false });
  const outcome = new Promise<Outcome>((resolve) => {
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", (error) => resolve({ error: error.message }));
    });
    request.on("error", (error) => resolve({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
  });
  return { request, outcome, answered: () => answered };
}

/** Polls `condition` every millisecond or so (a tight loop: the moment matters) until it holds or `timeoutMs` passes. */
export async function whenTrue(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Esperou ${timeoutMs} ms por: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Files under `dir`, as paths relative to it with "/" separators. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/** The store's objects (DATA_DIR/media without its temporary folder). */
export function storedObjects(dataDir: string): string[] {
  return filesUnder(path.join(dataDir, "media")).filter((key) => !key.startsWith(".tmp/"));
}

/** Temporary files: interrupted uploads (tmp/uploads) and interrupted store writes (media/.tmp). */
export function temporaryFiles(dataDir: string): string[] {
  return [
    ...filesUnder(path.join(dataDir, "tmp", "uploads")).map((name) => `tmp/uploads/${name}`),
    ...filesUnder(path.join(dataDir, "media", ".tmp")).map((name) => `media/.tmp/${name}`),
  ];
}

interface MediaRecord {
  id: string;
  key: string;
  variants: string;
  kind: string;
  store: string;
}

function keysOf(row: MediaRecord): string[] {
  const variants = JSON.parse(row.variants || "[]") as Array<{ key: string }>;
  return [...new Set([row.key, ...variants.map((variant) => variant.key)])];
}

export interface Snapshot {
  news: Array<{ id: string; media_id: string | null }>;
  sponsors: Array<{ id: string; media_id: string }>;
  media: MediaRecord[];
  /** Every key the media records point to. */
  referencedKeys: string[];
}

export async function snapshot(site: Pick<RunningSite, "dbFile" | "databaseUrl">): Promise<Snapshot> {
  const news = await siteQuery<{ id: string; media_id: string | null }>(site, "SELECT id, media_id FROM news");
  const sponsors = await siteQuery<{ id: string; media_id: string }>(site, "SELECT id, media_id FROM sponsors");
  const media = await siteQuery<MediaRecord>(site, "SELECT id, key, variants, kind, store FROM media");
  return { news, sponsors, media, referencedKeys: media.filter((row) => row.store === "local").flatMap(keysOf) };
}

const wholeObjects = new Set<string>();

/**
 * What a crash must never leave: a news item or sponsor pointing at a missing media record, a record pointing at a
 * missing file, a stored object that is not whole (every object on disk is decoded to the end, and served with
 * its full size), a temporary file served. And the public pages and API still answer 200, each news item too.
 */
export async function expectConsistent(site: RunningSite): Promise<Snapshot> {
  const data = await snapshot(site);
  const mediaIds = new Set(data.media.map((row) => row.id));
  for (const item of data.news) if (item.media_id) expect(mediaIds.has(item.media_id), `mídia da notícia ${item.id}`).toBe(true);
  for (const sponsor of data.sponsors) expect(mediaIds.has(sponsor.media_id), `mídia do patrocinador ${sponsor.id}`).toBe(true);

  const objects = storedObjects(site.dataDir);
  const onDisk = new Set(objects);
  for (const key of data.referencedKeys) expect(onDisk.has(key), `arquivo ${key} de um registro de mídia`).toBe(true);
  for (const key of objects) {
    const file = path.join(site.dataDir, "media", key);
    const bytes = fs.readFileSync(file);
    // Keys are content-addressed and never rewritten: an object already checked whole (same path and size) is not
    // decoded again.
    const checked = `${file}:${bytes.length}`;
    if (/\.(jpe?g|png|webp|gif|avif)$/.test(key) && !wholeObjects.has(checked)) {
      // Decoding the whole picture fails on a truncated file.
      await expect(sharp(bytes, { failOn: "truncated" }).stats(), `${key} inteiro`).resolves.toBeTruthy();
      wholeObjects.add(checked);
    }
    const served = await fetch(`${site.url}/media/${key}`);
    expect(served.status, key).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes), `${key} servido inteiro`).toBe(true);
  }
  for (const temp of temporaryFiles(site.dataDir).filter((name) => name.startsWith("media/.tmp/"))) {
    expect((await fetch(`${site.url}/media/${temp.slice("media/".length)}`)).status, temp).toBe(404);
  }

  for (const page of ["/", "/news-list", "/api/news", "/api/sponsors", "/readyz"]) {
    expect((await fetch(`${site.url}${page}`)).status, page).toBe(200);
  }
  for (const item of data.news) {
    expect((await fetch(`${site.url}/api/news/${item.id}`)).status, `/api/news/${item.id}`).toBe(200);
    expect((await fetch(`${site.url}/article/${item.id}`)).status, `/article/${item.id}`).toBe(200);
  }
  return data;
}

/**
 * Makes what the media sweep weighs by age a minute old: the media records (created_at), the store's objects and the
 * temporary files (their modification times). Past the 1 s grace `runSweep` gives, as if the test had waited a second
 * more: the sweep still decides by age, on the same rule.
 */
export async function ageForSweep(site: Pick<RunningSite, "dataDir" | "dbFile" | "databaseUrl">): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await siteQuery(site, "UPDATE media SET created_at = ? WHERE created_at > ?", past.toISOString(), past.toISOString());
  for (const dir of [path.join(site.dataDir, "media"), path.join(site.dataDir, "tmp", "uploads")]) {
    for (const name of filesUnder(dir)) fs.utimesSync(path.join(dir, name), past, past);
  }
}

/** Runs the real `npm run media:sweep` (scripts/media-sweep.ts) on the site's data, grace shortened to 1 s. */
export function runSweep(site: Pick<RunningSite, "dataDir" | "databaseUrl">, env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, ["scripts/media-sweep.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: site.dataDir,
      ...(site.databaseUrl ? { DATABASE_URL: site.databaseUrl } : {}),
      MEDIA_SWEEP_GRACE_SECONDS: "1",
      LOG_LEVEL: "warn",
      ...env,
    },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  return result.stdout;
}
