/**
 * "Mais lidas" on the real server: the article page's beacon counts one read per view (also when the page comes from
 * the page cache), bots and requests without the beacon's marker are not counted, the block lists the most-read news
 * of the last 24 hours in order (on the home, and under an article without it), and the admin list shows each item's
 * reads of the last 7 days.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { hourOf } from "#app/.server/news/reads/reads.service.server.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, siteQuery, signInAsAdmin, t, test } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const HOUR = 3_600_000;
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

async function readsOf(site: RunningSite, newsId: string): Promise<number> {
  const [row] = await siteQuery<{ n: number | string | null }>(site, "select sum(reads) as n from news_reads where news_id = ?", newsId);
  return Number(row?.n ?? 0);
}

/** Inserts `reads` reads of `newsId` in the hour `hoursAgo` hours before now (setup, before the server starts). */
async function insertReads(services: AppServices, newsId: string, hoursAgo: number, reads: number) {
  await services.database.db
    .insertInto("news_reads")
    .values({ news_id: newsId, hour: hourOf(Date.now() - hoursAgo * HOUR), reads })
    .execute();
}

/** Opens an article as a reader and waits for its read beacon's answer; returns how the page itself was served. */
async function readArticle(page: Page, site: RunningSite, newsId: string): Promise<string | undefined> {
  const beacon = page.waitForResponse((response) => response.url().endsWith("/api/reads") && response.request().method() === "POST");
  const response = await openPage(page, site, `/article/${newsId}`);
  expect((await beacon).status()).toBe(204);
  return response.headers()["x-page-cache"];
}

const mostReadTitles = (page: Page) => page.getByTestId("most-read").getByRole("listitem").allTextContents();

test("ler um artigo conta uma leitura por visualização, também com a página vinda do cache; robôs e pedidos sem a marca do beacon não contam", async ({
  launchSite,
  browser,
  playwright,
}) => {
  let read = "";
  let other = "";
  const site = await launchSite({
    env: { PAGE_CACHE: "1" },
    async setup(services) {
      read = await createNews(services, { title: "Goleada no clássico de domingo", media: null });
      other = await createNews(services, { title: "Virada histórica nos acréscimos", media: null });
    },
  });
  const reader = await browser.newPage();
  const beacons: string[] = [];
  const violations: string[] = [];
  reader.on("request", (request) => {
    if (request.url().endsWith("/api/reads")) beacons.push(request.postData() ?? "");
  });
  reader.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });

  expect(await readArticle(reader, site, read)).toBe("miss");
  expect(beacons).toEqual([JSON.stringify({ id: read })]);
  // Written within a couple of seconds, and exactly once (not by the render and again by the beacon).
  await expect.poll(() => readsOf(site, read)).toBe(1);

  // The same page again, now from the page cache: the beacon still counts the view.
  expect(await readArticle(reader, site, read)).toBe("hit");
  await expect.poll(() => readsOf(site, read)).toBe(2);
  expect(beacons).toHaveLength(2);
  expect(violations).toEqual([]);

  // A crawler runs the page's script too: its beacon is answered and ignored.
  const bot = await browser.newPage({ userAgent: GOOGLEBOT });
  await readArticle(bot, site, read);
  await bot.close();
  // A request without the beacon's header (a script posting ids) is not a read either.
  const script = await playwright.request.newContext({ extraHTTPHeaders: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0" } });
  const forged = await script.post(`${site.url}/api/reads`, { data: { id: read }, headers: { Origin: site.url } });
  expect(forged.status()).toBe(204);
  await script.dispose();

  // A real read of another article after them: once it is written, anything counted before it would be too.
  await readArticle(reader, site, other);
  await expect.poll(() => readsOf(site, other)).toBe(1);
  expect(await readsOf(site, read)).toBe(2);
  await reader.close();
});

test("Mais lidas: as mais lidas das últimas 24 h em ordem, na home e sob o artigo (sem ele mesmo)", async ({ launchSite, page }) => {
  const ids: string[] = [];
  const titles = [
    "Notícia pouco lida",
    "Campeã de leituras",
    "Segunda mais lida",
    "Terceira mais lida",
    "Quarta mais lida",
    "Quinta mais lida",
    "Sexta mais lida",
  ];
  const site = await launchSite({
    async setup(services) {
      for (const title of titles) ids.push(await createNews(services, { title, media: null }));
      // The first one was read a lot, but two days ago: outside the window.
      await insertReads(services, ids[0]!, 48, 500);
      await insertReads(services, ids[1]!, 0, 30);
      await insertReads(services, ids[1]!, 20, 20);
      await insertReads(services, ids[2]!, 1, 40);
      await insertReads(services, ids[3]!, 0, 30);
      await insertReads(services, ids[4]!, 2, 20);
      await insertReads(services, ids[5]!, 0, 10);
      await insertReads(services, ids[6]!, 3, 5);
    },
  });

  await openPage(page, site, "/");
  const block = page.getByTestId("most-read");
  await expect(block.getByRole("heading", { name: t.mostRead.title })).toBeVisible();
  expect(await mostReadTitles(page)).toEqual(titles.slice(1, 6));
  const axe = await new AxeBuilder({ page }).include('[data-testid="most-read"]').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  expect(axe.passes.length).toBeGreaterThan(0);
  // Each line is a link to its article.
  await block.getByRole("link", { name: titles[2] }).click();
  await expect(page.getByRole("heading", { level: 1, name: titles[2] })).toBeVisible();
  // Under an article: the others, in order, with the sixth taking its place.
  await expect(page.getByTestId("most-read").getByRole("listitem")).toHaveCount(5);
  expect(await mostReadTitles(page)).toEqual([titles[1], titles[3], titles[4], titles[5], titles[6]]);
});

test("Mais lidas não aparece quando ninguém leu nada nas últimas 24 h", async ({ launchSite, page }) => {
  let id = "";
  const site = await launchSite({
    async setup(services) {
      id = await createNews(services, { title: "Lida só na semana passada", media: null });
      await insertReads(services, id, 30, 12);
    },
  });
  await openPage(page, site, "/");
  await expect(page.getByRole("heading", { name: t.home.highlightsTitle })).toBeVisible();
  await expect(page.getByTestId("most-read")).toHaveCount(0);
  await openPage(page, site, `/article/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Lida só na semana passada" })).toBeVisible();
  await expect(page.getByTestId("most-read")).toHaveCount(0);
});

test("a lista de notícias do administrador mostra as leituras dos últimos 7 dias de cada notícia", async ({ launchSite, page, browser }) => {
  const ids: Record<string, string> = {};
  const site = await launchSite({
    async setup(services) {
      ids.week = await createNews(services, { title: "Lida na semana", media: null, createdAt: new Date(Date.now() - 3 * HOUR).toISOString() });
      ids.once = await createNews(services, { title: "Lida uma vez", media: null, createdAt: new Date(Date.now() - 2 * HOUR).toISOString() });
      ids.none = await createNews(services, { title: "Nunca lida", media: null, createdAt: new Date(Date.now() - HOUR).toISOString() });
      await insertReads(services, ids.week, 0, 1200);
      await insertReads(services, ids.week, 6 * 24, 34); // six days ago: inside
      await insertReads(services, ids.week, 8 * 24, 900); // eight days ago: outside
      await insertReads(services, ids.once, 1, 1);
      await insertReads(services, ids.none, 8 * 24, 50);
    },
  });
  await signInAsAdmin(page, site);
  await openPage(page, site, "/news-list");
  const card = (id: string) => page.locator(`[data-testid="news-card"][data-news-id="${id}"]`);
  await expect(card(ids.week!).getByTestId("reads-7d")).toHaveText(t.mostRead.readsLastWeek(1234));
  await expect(card(ids.week!).getByTestId("reads-7d")).toHaveText("1.234 leituras nos últimos 7 dias");
  await expect(card(ids.once!).getByTestId("reads-7d")).toHaveText("1 leitura nos últimos 7 dias");
  await expect(card(ids.none!).getByTestId("reads-7d")).toHaveText("0 leituras nos últimos 7 dias");

  // The next pages of the list (GET /api/news) bring their counts to the admin, and only to the admin.
  const api = await page.request.get(`${site.url}/api/news?limit=2`);
  expect(api.headers()["cache-control"]).toBe("private, no-store");
  const apiBody = (await api.json()) as { news: Array<{ id: string }>; reads?: Record<string, number> };
  expect(apiBody.reads).toEqual({ [ids.none!]: 0, [ids.once!]: 1 });

  // Readers never see the counts.
  const reader = await browser.newPage();
  const readerApi = (await (await reader.request.get(`${site.url}/api/news?limit=2`)).json()) as { reads?: unknown };
  expect(readerApi.reads).toBeUndefined();
  await openPage(reader, site, "/news-list");
  await expect(reader.getByTestId("news-card")).toHaveCount(3);
  await expect(reader.getByTestId("reads-7d")).toHaveCount(0);
  await reader.close();
});
