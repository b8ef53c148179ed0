/**
 * Live updates (Server-Sent Events at /events): anonymous readers' pages follow what the newsroom does in another
 * browser context (news created, edited, deleted; sponsors added and removed) without reloading. A page is known
 * not to have reloaded because a marker set on its `window` survives.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import {
  createNewsThroughApi,
  expect,
  expectNoReload,
  expectStatus,
  markPage,
  openPage,
  signInAsAdmin,
  t,
  test as base,
} from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

interface LiveSite extends RunningSite {
  articleId: string;
}

const ARTICLE = { title: "Time da casa vira o jogo no segundo tempo", subtitle: "Virada histórica no estádio lotado." };

const test = base.extend<{ site: LiveSite; admin: BrowserContext; reader: BrowserContext }>({
  site: async ({ launchSite }, use) => {
    let articleId = "";
    const site = await launchSite({
      // With the page cache on (as in production): a change must still reach every open page.
      env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1" },
      async setup(services) {
        articleId = await createNews(services, { ...ARTICLE, createdAt: "2026-01-10T12:00:00.000Z" });
        await createNews(services, { title: "Notícia antiga de janeiro", createdAt: "2026-01-05T12:00:00.000Z", media: null });
      },
    });
    await use({ ...site, articleId });
  },
  admin: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site);
    await use(context);
    await closeAll(context);
  },
  reader: async ({ browser }, use) => {
    const context = await browser.newContext();
    await use(context);
    await closeAll(context);
  },
});

/** Leaves every page (closing its live-updates connection) before the site stops, then closes the context. */
async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

/** Opens `path` in a new page of `context`, waits for hydration and for its live-updates stream, and marks it. */
async function openLive(context: BrowserContext, site: RunningSite, path: string): Promise<Page> {
  const page = await context.newPage();
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
  await openPage(page, site, path);
  const response = await stream;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/event-stream/);
  await markPage(page);
  return page;
}

const recent = (page: Page) => page.getByRole("region", { name: t.home.recentTitle });
/** A news card by its exact title (by text, not by role). */
const cardOf = (page: Page, title: string) => page.getByTestId("news-card").filter({ has: page.locator("h2, h3").getByText(title, { exact: true }) });
const footerSponsors = (page: Page) => page.getByRole("region", { name: t.footer.sponsorsTitle }).getByRole("listitem");

test("GET /events responde text/event-stream, sem cache nem compressão, e entrega os eventos", async ({ site, admin }) => {
  const controller = new AbortController();
  const response = await fetch(`${site.url}/events`, { signal: controller.signal, headers: { "accept-encoding": "gzip, br" } });
  try {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-encoding")).toBeNull();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = decoder.decode((await reader.read()).value);
    expect(received).toContain("retry: 3000");

    // A change made by the newsroom arrives as a named event with the story's public addresses (what an open page
    // compares with its own), and no content of the news itself.
    const id = await createNewsThroughApi(admin, site, { title: "Evento de teste" });
    const deadline = Date.now() + 5_000;
    while (!/event: newsUpdated\ndata: .*\n\n/.test(received) && Date.now() < deadline) received += decoder.decode((await reader.read()).value);
    const data = JSON.parse(/event: newsUpdated\ndata: (.*)\n\n/.exec(received)![1]!) as { paths: string[] };
    expect(data).toEqual({ paths: expect.arrayContaining([`/article/${id}`, `/article/${id}/evento-de-teste`]) });
    expect(data.paths.every((path) => path.startsWith("/"))).toBe(true);
    expect(received).not.toContain("Evento de teste");
  } finally {
    controller.abort();
  }
});

test("as páginas públicas não deixam o navegador responder com uma cópia velha (stale-while-revalidate)", async ({ site, request }) => {
  // A browser that may answer `<path>.data` from a stale copy would show every live update one change late.
  for (const path of ["/", "/_.data", "/news-list", "/news-list.data", `/article/${site.articleId}`, `/article/${site.articleId}.data`]) {
    const response = await request.get(site.url + path);
    expect(response.status(), path).toBe(200);
    const cacheControl = response.headers()["cache-control"] ?? "";
    expect(cacheControl, path).toMatch(/max-age=0/);
    expect(cacheControl, path).not.toMatch(/stale-while-revalidate/);
  }
});

test("notícias criadas, editadas e excluídas pela redação aparecem para os leitores sem recarregar", async ({ site, admin, reader }) => {
  test.slow();
  const home = await openLive(reader, site, "/");
  const list = await openLive(reader, site, "/news-list");
  const article = await openLive(reader, site, `/article/${site.articleId}`);
  await expect(cardOf(list, ARTICLE.title)).toBeVisible();
  await expect(article.getByRole("heading", { level: 1 })).toHaveText(ARTICLE.title);

  // Created through the form, in the admin's browser.
  const created = "Reforço anunciado ao vivo";
  const editor = await admin.newPage();
  await openPage(editor, site, "/add-news");
  await editor.getByLabel("Título", { exact: true }).fill(created);
  await editor.getByLabel("Subtítulo", { exact: true }).fill("Contratação confirmada.");
  await editor.getByLabel("Conteúdo completo", { exact: true }).fill("Detalhes da contratação.");
  await editor.getByLabel("Categoria", { exact: true }).fill("Futebol");
  await editor.getByRole("button", { name: t.newsForm.submitCreate }).click();
  await expect(editor.getByTestId("banner-success")).toHaveText("Notícia adicionada com sucesso sem mídia");

  await expect(recent(home).getByRole("heading", { name: created, exact: true })).toBeVisible();
  await expect(cardOf(list, created)).toBeVisible();
  await expect(list.getByRole("tabpanel").getByTestId("news-card").first()).toContainText(created);
  const createdId = (await cardOf(list, created).getAttribute("data-news-id"))!;

  // Edited through the JSON API: the open article follows, and so do the lists.
  const edited = "Time da casa vira o jogo e assume a liderança";
  const put = await admin.request.put(`${site.url}/api/news/${site.articleId}`, {
    data: {
      title: edited,
      subtitle: "Subtítulo revisto.",
      fullContent: "Texto revisto.\nCom duas linhas.",
      category: "Futebol",
      isHighlighted: true,
    },
    headers: { origin: site.url },
  });
  await expectStatus(put, 200, "PUT /api/news/:id");
  await expect(article.getByRole("heading", { level: 1 })).toHaveText(edited);
  await expect(article.getByText("Subtítulo revisto.", { exact: true })).toBeVisible();
  expect(await article.getByTestId("article-content").innerText()).toBe("Texto revisto.\nCom duas linhas.");
  await expect(cardOf(list, edited)).toBeVisible();
  await expect(cardOf(list, ARTICLE.title)).toHaveCount(0);
  // On the home once, in whichever block comes first (the newest three, or the highlights): never repeated.
  await expect(home.getByRole("main").getByRole("heading", { name: edited, exact: true })).toHaveCount(1);

  // Deleted through the JSON API.
  const removed = await admin.request.delete(`${site.url}/api/news/${createdId}`, { headers: { origin: site.url } });
  await expectStatus(removed, 204, "DELETE /api/news/:id");
  await expect(cardOf(list, created)).toHaveCount(0);
  await expect(recent(home).getByRole("heading", { name: created, exact: true })).toHaveCount(0);
  await expect(recent(home).getByRole("heading", { name: edited, exact: true })).toBeVisible();

  // The article being read is deleted: its page says so.
  const gone = await admin.request.delete(`${site.url}/api/news/${site.articleId}`, { headers: { origin: site.url } });
  await expectStatus(gone, 204, "DELETE /api/news/:id");
  await expect(article.getByText(t.article.notFound).first()).toBeVisible();
  await expect(cardOf(list, edited)).toHaveCount(0);

  for (const page of [home, list, article]) await expectNoReload(page);
});

test("patrocinadores adicionados e removidos aparecem no rodapé dos leitores sem recarregar", async ({ site, admin, reader }) => {
  const home = await openLive(reader, site, "/");
  const list = await openLive(reader, site, "/news-list");
  await expect(home.getByText(t.footer.noSponsors, { exact: true })).toBeVisible();

  // Added through the sponsor manager, in the admin's browser.
  const manager = await admin.newPage();
  await openPage(manager, site, "/SponsorManager");
  await manager
    .locator('input[type="file"][name="image"]')
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await makeTestImage(300, 300, "png") });
  await manager.getByLabel(t.sponsors.nameLabel, { exact: true }).fill("Mercado Central");
  await manager.getByRole("button", { name: t.sponsors.add }).click();
  await expect(manager.getByTestId("sponsor-item")).toHaveCount(1);

  for (const page of [home, list]) {
    await expect(footerSponsors(page)).toHaveCount(1);
    await expect(footerSponsors(page).getByRole("img", { name: "Mercado Central" })).toBeVisible();
    await expect(page.getByText(t.footer.noSponsors)).toHaveCount(0);
  }

  // A second one through the JSON API, then both removed.
  const added = await admin.request.post(`${site.url}/api/sponsors`, {
    multipart: { name: "Padaria Sol", image: { name: "outro.png", mimeType: "image/png", buffer: await makeTestImage(300, 300, "png") } },
    headers: { origin: site.url },
  });
  await expectStatus(added, 201, "POST /api/sponsors");
  const secondId = ((await added.json()) as { id: string }).id;
  await expect(footerSponsors(home)).toHaveCount(2);
  await expectStatus(
    await admin.request.delete(`${site.url}/api/sponsors/${secondId}`, { headers: { origin: site.url } }),
    204,
    "DELETE /api/sponsors/:id",
  );
  await expect(footerSponsors(home)).toHaveCount(1);
  await manager
    .getByTestId("sponsor-item")
    .first()
    .getByRole("button", { name: t.sponsors.delete("Mercado Central") })
    .click();
  await manager.getByRole("alertdialog").getByRole("button", { name: t.sponsors.deleteConfirm }).click();
  await expect(manager.getByTestId("sponsor-item")).toHaveCount(0);
  for (const page of [home, list]) {
    await expect(footerSponsors(page)).toHaveCount(0);
    await expect(page.getByText(t.footer.noSponsors, { exact: true })).toBeVisible();
    await expectNoReload(page);
  }
});
