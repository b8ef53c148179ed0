/**
 * Shared Playwright fixtures for the end-to-end suite.
 *
 * - `standardSite` (worker scope): one production server per worker, filled with a known data set
 *   (STANDARD below). Tests that only read share it.
 * - `emptySite` (worker scope): a server on an empty database (no news, no sponsors).
 * - `demoSite` (worker scope): the quick-start demo content (SEED_DEMO=1, from the committed demo/media files).
 * - `launchSite` (test scope): starts extra sites for one test (failing database, env, deleted media…);
 *   every site it started is stopped when the test ends, pass or fail.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type APIResponse, test as base, type BrowserContext, expect, type Page, type Response } from "@playwright/test";
import sharp from "sharp";
import type { AppServices } from "../../../app/.server/app.server.ts";
import { ffmpegPath } from "../../../app/.server/media/ffmpeg.server.ts";
import { t as messages } from "../../../app/i18n/pt-BR.ts";
import { createAdmin, type TestAccount } from "../../factories/auth.ts";
import { createNews, createSponsor, type NewsInput } from "../../factories/news.ts";
import { createTestServices } from "../../factories/services.ts";
import { siteQuery } from "./site-database.ts";
import { type RunningSite, type SiteOptions, startSite } from "./site.ts";

export { expect } from "@playwright/test";
export { t } from "../../../app/i18n/pt-BR.ts";
export { siteQuery, TEST_DATABASE } from "./site-database.ts";

// ------------------------------------------------------------------------------------------ helpers

/** Waits until React has hydrated the page (the root sets `data-hydrated` on <html>). */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** Opens `path` on `site`, waits for hydration and returns the navigation response. */
export async function openPage(page: Page, site: RunningSite, path: string): Promise<Response> {
  const response = await page.goto(site.url + path);
  if (!response) throw new Error(`Sem resposta para ${path}`);
  await waitForHydration(page);
  return response;
}

/**
 * Drops the `news` table behind the running server's back, so every news query fails from now on (on PostgreSQL
 * with CASCADE, which also drops the foreign keys that point at it).
 */
export async function breakNewsTable(site: RunningSite): Promise<void> {
  if (site.databaseUrl) {
    await siteQuery(site, "DROP TABLE news CASCADE");
    return;
  }
  const db = new DatabaseSync(site.dbFile, { timeout: 5000 });
  try {
    db.exec("PRAGMA foreign_keys = OFF");
    db.exec("DROP TABLE news");
  } finally {
    db.close();
  }
}

/** The media keys (paths under DATA_DIR/media) of a news item's image: main file and every variant. */
export async function mediaKeysOf(site: RunningSite, newsId: string): Promise<string[]> {
  const [row] = await siteQuery<{ key: string; variants: string }>(
    site,
    "SELECT media.key AS key, media.variants AS variants FROM news JOIN media ON media.id = news.media_id WHERE news.id = ?",
    newsId,
  );
  if (!row) throw new Error(`Notícia ${newsId} sem mídia`);
  const variants = JSON.parse(row.variants) as Array<{ key: string }>;
  return [...new Set([row.key, ...variants.map((variant) => variant.key)])];
}

// ------------------------------------------------------------------------------------ auth helpers

/** The session cookie's name (Better Auth, cookie prefix "eef"; "__Secure-" in front behind HTTPS). */
export const SESSION_COOKIE = "eef.session_token";

/**
 * Runs `fn` with the app's services opened on a running site's database (same DATA_DIR, same auth secret), e.g. to
 * grant admin rights with runAdminCli while the server runs.
 */
export async function withSiteServices<T>(
  site: RunningSite,
  fn: (services: AppServices) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const services = await createTestServices(site.dataDir, { ...(site.databaseUrl ? { DATABASE_URL: site.databaseUrl } : {}), ...env });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/**
 * Runs SQL on a running site's database behind the server's back (e.g. removing an admins row only). Portable SQL
 * only (SQLite and PostgreSQL): see site-database.ts.
 */
export async function runSql(site: RunningSite, statement: string, ...params: Array<string | number | null>): Promise<void> {
  await siteQuery(site, statement, ...params);
}

/** Fills and submits the e-mail + password form of /admin/login (the page must show the login view). */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const form = page.locator("form").filter({ has: page.locator('input[name="intent"][value="login"]') });
  await form.getByLabel(messages.auth.email, { exact: true }).fill(email);
  await form.getByLabel(messages.auth.password, { exact: true }).fill(password);
  await form.getByRole("button", { name: messages.auth.signIn, exact: true }).click();
}

/** Opens /admin/login (with an optional query), waits for hydration and signs in. */
export async function signInThroughPage(page: Page, site: RunningSite, email: string, password: string, query = ""): Promise<void> {
  await openPage(page, site, `/admin/login${query}`);
  await submitLogin(page, email, password);
}

/** One admin account per running site (keyed by its data directory), created on first use. */
const siteAdmins = new Map<string, Promise<TestAccount>>();

/** The admin account of `site`: created (through Better Auth, as registration does) the first time it is asked for. */
export function adminOf(site: RunningSite): Promise<TestAccount> {
  let admin = siteAdmins.get(site.dataDir);
  if (!admin) {
    admin = withSiteServices(site, (services) => createAdmin(services, { password: "Senha-admin-1" }));
    siteAdmins.set(site.dataDir, admin);
    admin.catch(() => siteAdmins.delete(site.dataDir));
  }
  return admin;
}

/**
 * Signs `target` (a page's browser context, or a context) in as `site`'s admin (see `adminOf`), by posting the login
 * form over HTTP with the context's own request client: the session cookie lands in the browser's cookie jar, so
 * every page of that context (and `context.request`) is signed in. Fast: no login page is drawn.
 * Each call is one login attempt for the per-IP limit (LOGIN_RATE_LIMIT, 10 by default): sites that sign in often
 * should raise it.
 */
export async function signInAsAdmin(target: Page | BrowserContext, site: RunningSite, account?: TestAccount): Promise<TestAccount> {
  const admin = account ?? (await adminOf(site));
  const context = "context" in target ? target.context() : target;
  const response = await context.request.post(`${site.url}/admin/login`, {
    form: { intent: "login", email: admin.email, password: admin.password, redirectTo: "/news-list" },
    headers: { origin: site.url },
    maxRedirects: 0,
  });
  expect(response.status(), `login do administrador: ${(await response.text()).slice(0, 300)}`).toBe(302);
  expect(
    (await context.cookies(site.url)).some((cookie) => cookie.name === SESSION_COOKIE),
    "cookie de sessão",
  ).toBe(true);
  return admin;
}

// ------------------------------------------------------------------------------------ admin helpers

/**
 * A JPEG of random noise at quality 95. Noise does not compress, so the file is about one byte per pixel
 * (1200×900 ≈ 1.1 MB): big enough for an upload whose progress can be watched.
 */
export async function makeNoisyJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

let mp4: Buffer | null = null;

/** The app's own ffmpeg (@ffmpeg-installer/ffmpeg), the one the server makes posters with. */
function ffmpeg(): string {
  const binary = ffmpegPath();
  if (!binary) throw new Error("@ffmpeg-installer/ffmpeg não tem binário para esta plataforma");
  return binary;
}

/** A real 1-second H.264 MP4 (ffmpeg's test pattern, 320×240), made once per worker. */
export function makeMp4(): Buffer {
  if (mp4) return mp4;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-mp4-"));
  try {
    const file = path.join(dir, "video.mp4");
    execFileSync(
      ffmpeg(),
      ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=1", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-y", file],
      { stdio: "pipe" },
    );
    mp4 = fs.readFileSync(file);
    return mp4;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Slows this page's uploads to `bytesPerSecond` with Chromium's own network emulation (DevTools protocol), so a
 * real upload's progress can be watched. Nothing is mocked: the bytes still go to the real server. Returns a
 * function that lifts the limit.
 */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return async () => {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  };
}

/**
 * A file of `bytes` zero bytes at `dir/name`, for setInputFiles by path: a local browser reads it from disk, so
 * even 10 MB costs nothing to hand over (a Buffer would travel through the protocol). The browser derives the
 * file's type from the extension (.jpg → image/jpeg, .png → image/png).
 */
export function sizedFile(dir: string, name: string, bytes: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const handle = fs.openSync(file, "w");
  try {
    fs.ftruncateSync(handle, bytes);
  } finally {
    fs.closeSync(handle);
  }
  return file;
}

/**
 * Records, on this page, the name, type and size of every file picked in any file input, at the moment it is
 * picked (the page may clear the input right after, as it does for a refused file). Read with `lastPickedFile`.
 */
export async function watchPickedFiles(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.addEventListener(
      "change",
      (event) => {
        const file = (event.target as HTMLInputElement).files?.[0];
        (window as unknown as { __picked: unknown }).__picked = file ? { name: file.name, type: file.type, size: file.size } : null;
      },
      true,
    );
  });
}

export function lastPickedFile(page: Page): Promise<{ name: string; type: string; size: number } | null> {
  return page.evaluate(() => (window as unknown as { __picked?: { name: string; type: string; size: number } | null }).__picked ?? null);
}

/** Headers for a write to the JSON API: the Origin the CSRF guard asks for when a session cookie is sent. */
export function apiHeaders(site: RunningSite): Record<string, string> {
  return { origin: site.url };
}

export interface ApiNewsFields {
  title: string;
  subtitle?: string;
  fullContent?: string;
  category?: string;
  author?: string;
  isHighlighted?: boolean;
  /** Default with an image: "Imagem de {title}" (a new image needs a description). */
  mediaDescription?: string;
  mediaCaption?: string;
  mediaCredit?: string;
}

/**
 * Creates a news item through the JSON API (POST /api/news, multipart) as the admin signed in on `context`.
 * Returns its id.
 */
export async function createNewsThroughApi(
  context: BrowserContext,
  site: RunningSite,
  fields: ApiNewsFields,
  media?: { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    title: fields.title,
    subtitle: fields.subtitle ?? `Subtítulo de ${fields.title}`,
    fullContent: fields.fullContent ?? `Conteúdo de ${fields.title}`,
    category: fields.category ?? "Futebol",
    author: fields.author ?? "",
  };
  if (fields.isHighlighted) multipart.isHighlighted = "on";
  if (media) {
    multipart.media = media;
    if (media.mimeType.startsWith("image/")) multipart.mediaDescription = fields.mediaDescription ?? `Imagem de ${fields.title}`;
  }
  for (const key of ["mediaCaption", "mediaCredit"] as const) if (fields[key]) multipart[key] = fields[key];
  const response = await context.request.post(`${site.url}/api/news`, { multipart, headers: apiHeaders(site) });
  await expectStatus(response, 201, "POST /api/news");
  const body = (await response.json()) as { id: string };
  return body.id;
}

/** Asserts an HTTP status, showing the start of the body when it differs. */
export async function expectStatus(response: APIResponse, status: number, what: string): Promise<void> {
  if (response.status() !== status) expect(response.status(), `${what}: ${(await response.text()).slice(0, 400)}`).toBe(status);
}

/** Counts rows of a table of a running site. */
export async function countRows(site: RunningSite, table: "news" | "sponsors" | "media"): Promise<number> {
  const [row] = await siteQuery<{ n: number | string }>(site, `SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row?.n ?? 0);
}

/** Sets `window.__marker` on the page; `expectNoReload` checks it survived (no full navigation happened). */
export async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 1;
  });
}

export async function expectNoReload(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), "a página não foi recarregada").toBe(1);
}

// --------------------------------------------------------------------------------- standard data

const day = (n: number, hour = 12) => new Date(Date.UTC(2026, 0, 1 + n, hour)).toISOString();

/** Special items of the standard site, newest first. */
export const STANDARD = {
  dated: {
    title: "Final do estadual termina empatada no Maracanã",
    subtitle: "Decisão vai para os pênaltis depois de um 2 a 2 eletrizante diante de 70 mil torcedores.",
    fullContent: "Primeiro parágrafo da final.\nSegunda linha, com o placar.\n\nTerceiro parágrafo, depois de uma linha em branco.",
    category: "Futebol",
    author: "Maria Souza",
    isHighlighted: true,
    createdAt: "2026-03-01T15:00:00.000Z",
    media: "image",
  },
  generic: {
    title: "Notícia sem categoria nem autor definidos",
    subtitle: "Categoria e autor ficaram em branco no cadastro.",
    fullContent: "Texto simples.",
    category: "",
    author: "",
    createdAt: "2026-02-20T12:00:00.000Z",
    media: "image",
  },
  markup: {
    title: "Texto com marcação HTML no conteúdo",
    subtitle: "O conteúdo deve aparecer como texto, nunca como HTML.",
    fullContent: "<b>negrito</b><script>window.__xss=1</script>",
    category: "Tênis",
    author: "João Lima",
    createdAt: "2026-02-18T12:00:00.000Z",
    media: "image",
  },
  video: {
    title: "Vídeo: os gols da rodada",
    subtitle: "Todos os gols do fim de semana em um só vídeo.",
    fullContent: "Assista aos gols.",
    category: "Futebol",
    author: "Ana Ribeiro",
    createdAt: "2026-02-15T12:00:00.000Z",
    media: "video",
  },
} satisfies Record<string, NewsInput>;

const SPORTS = ["Basquete", "Vôlei", "Natação", "Atletismo"];

/** Eleven more news ("Notícia da lista 01…11", oldest 01), two of them highlighted. */
export const LIST_ITEMS: Array<NewsInput & { title: string }> = Array.from({ length: 11 }, (_, index) => ({
  title: `Notícia da lista ${String(index + 1).padStart(2, "0")}`,
  subtitle: `Resumo da notícia da lista número ${index + 1}.`,
  fullContent: `Conteúdo da notícia da lista ${index + 1}.`,
  category: SPORTS[index % SPORTS.length]!,
  author: "Carlos Mendes",
  isHighlighted: index === 3 || index === 8,
  createdAt: day(index),
  media: "image",
}));

/** Sponsors are inserted out of order; the footer must show them oldest first. */
const SPONSOR_DATES = [day(1), day(0), day(2)];

export interface StandardSite extends RunningSite {
  /** Ids of the STANDARD items by key. */
  ids: Record<keyof typeof STANDARD, string>;
  /** Ids of LIST_ITEMS, same order. */
  listIds: string[];
  /** Every title, newest first (the order of the Recentes tab). */
  titlesNewestFirst: string[];
  /** Titles of the highlighted news, newest first. */
  highlightedTitles: string[];
  /** Image URL of each sponsor, oldest first. */
  sponsorSrcs: string[];
}

async function startStandardSite(): Promise<StandardSite> {
  const ids = {} as StandardSite["ids"];
  const listIds: string[] = [];
  const sponsors: Array<{ createdAt: string; src: string }> = [];
  const site = await startSite({
    async setup(services) {
      for (const [key, input] of Object.entries(STANDARD)) {
        ids[key as keyof typeof STANDARD] = await createNews(services, input);
      }
      for (const input of LIST_ITEMS) listIds.push(await createNews(services, input));
      for (const createdAt of SPONSOR_DATES) {
        const id = await createSponsor(services, new Date(createdAt));
        const row = await services.database.db
          .selectFrom("sponsors")
          .innerJoin("media", "media.id", "sponsors.media_id")
          .select("media.key")
          .where("sponsors.id", "=", id)
          .executeTakeFirstOrThrow();
        sponsors.push({ createdAt, src: services.store.publicUrl(row.key) });
      }
    },
  });
  const all: Array<NewsInput & { title: string }> = [...Object.values(STANDARD), ...LIST_ITEMS];
  const newestFirst = [...all].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  return {
    ...site,
    ids,
    listIds,
    titlesNewestFirst: newestFirst.map((item) => item.title),
    highlightedTitles: newestFirst.filter((item) => item.isHighlighted).map((item) => item.title),
    sponsorSrcs: [...sponsors].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((sponsor) => sponsor.src),
  };
}

// -------------------------------------------------------------------------------------- fixtures

interface WorkerFixtures {
  standardSite: StandardSite;
  emptySite: RunningSite;
  /** The quick-start demo content (SEED_DEMO=1), seeded by the server at its first start. */
  demoSite: RunningSite;
}

interface TestFixtures {
  /** Starts a site for this test only; stopped automatically when the test ends. */
  launchSite: (options?: SiteOptions) => Promise<RunningSite>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  standardSite: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const site = await startStandardSite();
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    { scope: "worker", timeout: 90_000 },
  ],
  emptySite: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const site = await startSite();
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    { scope: "worker", timeout: 60_000 },
  ],
  demoSite: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const site = await startSite({ seedDemo: true });
      try {
        await use(site);
      } finally {
        await site.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
  launchSite: async ({}, use) => {
    const started: RunningSite[] = [];
    await use(async (options) => {
      const site = await startSite(options);
      started.push(site);
      return site;
    });
    await Promise.all(started.map((site) => site.stop()));
  },
});
