import type { Locator, Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { createNewsThroughApi, expect, openPage, signInAsAdmin, t, test, waitForHydration } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

// Sixty news, one a minute (newest is "Notícia paginada 60"), every other one highlighted: two and a half pages of
// the list (24 a page) on Recentes, one and a quarter on Destaques.
const COUNT = 60;
const PAGE = 24;
const BASE = Date.parse("2026-10-01T12:00:00.000Z");
const title = (n: number) => `Notícia paginada ${String(n).padStart(2, "0")}`;
const NEWEST_FIRST = Array.from({ length: COUNT }, (_, index) => title(COUNT - index));
const HIGHLIGHTS_NEWEST_FIRST = NEWEST_FIRST.filter((_, index) => (COUNT - index) % 2 === 0);

let site: RunningSite;

// One site for the file; its tests run in order in one worker (the live-update test adds a news item last).
test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  site = await startSite({
    async setup(services) {
      for (let n = 1; n <= COUNT; n++) {
        await createNews(services, {
          title: title(n),
          subtitle: `Resumo ${n}.`,
          media: null,
          isHighlighted: n % 2 === 0,
          createdAt: new Date(BASE + n * 60_000).toISOString(),
        });
      }
    },
  });
});

test.afterAll(async () => {
  await site?.stop();
});

const cards = (page: Page) => page.getByRole("tabpanel").getByTestId("news-card");
const moreLink = (page: Page) => page.getByRole("link", { name: t.newsList.more });

async function titlesOf(list: Locator): Promise<string[]> {
  return list.evaluateAll((elements) => elements.map((element) => element.querySelector("h2")?.textContent ?? ""));
}

test.describe("lista paginada", () => {
  test("mostra 24 notícias e carrega as seguintes ao rolar, até o fim, sem repetir nem pular", async ({ page }) => {
    await openPage(page, site, "/news-list");
    await expect(cards(page)).toHaveCount(PAGE);
    expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST.slice(0, PAGE));
    // The server HTML carries a plain link to the next page (crawlers and readers without JavaScript follow it).
    await expect(moreLink(page)).toHaveAttribute("href", /^\?cursor=[\w-]+$/);

    await moreLink(page).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(2 * PAGE);
    await moreLink(page).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(COUNT);
    expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST);
    await expect(moreLink(page)).toHaveCount(0);
    await expect(page.getByText(t.newsList.end)).toBeVisible();
    // Appending never navigated.
    await expect(page).toHaveURL(`${site.url}/news-list`);
  });

  test("o link Mais notícias, com o teclado, acrescenta a página seguinte e leva o foco ao primeiro card novo", async ({ page }) => {
    // Without IntersectionObserver nothing loads by scrolling (as in a browser without it): only the press does, so
    // the page that arrives is the one asked for. Loading by scrolling is covered by the first test.
    await page.addInitScript(() => {
      Reflect.deleteProperty(window, "IntersectionObserver");
    });
    await openPage(page, site, "/news-list");
    await expect(cards(page)).toHaveCount(PAGE);
    await moreLink(page).focus();
    await page.keyboard.press("Enter");
    await expect(cards(page)).toHaveCount(2 * PAGE, { timeout: 15_000 });
    await expect(cards(page).nth(PAGE).getByRole("link").first()).toBeFocused();
    // And again: the next page, focus on its first card; at the end the link is gone.
    await moreLink(page).focus();
    await page.keyboard.press("Enter");
    await expect(cards(page)).toHaveCount(COUNT, { timeout: 15_000 });
    await expect(
      cards(page)
        .nth(2 * PAGE)
        .getByRole("link")
        .first(),
    ).toBeFocused();
    await expect(moreLink(page)).toHaveCount(0);
  });

  test("de volta de um artigo (o voltar do Android), a lista tem as mesmas notícias e o card de onde se saiu na tela", async ({ page }) => {
    // Pages load only when asked (no IntersectionObserver): the count below is exactly what the reader had loaded.
    await page.addInitScript(() => {
      Reflect.deleteProperty(window, "IntersectionObserver");
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await openPage(page, site, "/news-list");
    await moreLink(page).click();
    await expect(cards(page)).toHaveCount(2 * PAGE, { timeout: 15_000 });
    // A card of the second page, well down the list.
    const target = cards(page).filter({ hasText: NEWEST_FIRST[PAGE + 10]! });
    await target.scrollIntoViewIfNeeded();
    await target.getByRole("link", { name: NEWEST_FIRST[PAGE + 10]! }).click();
    await expect(page).toHaveURL(/\/article\//);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(NEWEST_FIRST[PAGE + 10]!);

    await page.goBack();
    await expect(page).toHaveURL(/\/news-list$/);
    await expect(cards(page)).toHaveCount(2 * PAGE);
    expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST.slice(0, 2 * PAGE));
    await expect(target).toBeInViewport();
    // The list goes on from where it was: the next page is the third.
    await moreLink(page).click();
    await expect(cards(page)).toHaveCount(COUNT, { timeout: 15_000 });
    expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST);

    // A new visit to the list (not back) starts from its first page.
    await openPage(page, site, "/news-list");
    await expect(cards(page)).toHaveCount(PAGE);
  });

  test("Destaques pagina só os destaques", async ({ page }) => {
    await openPage(page, site, "/news-list?tab=1");
    await expect(cards(page)).toHaveCount(PAGE);
    await expect(moreLink(page)).toHaveAttribute("href", /^\?tab=1&cursor=[\w-]+$/);
    await moreLink(page).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(HIGHLIGHTS_NEWEST_FIRST.length);
    expect(await titlesOf(cards(page))).toEqual(HIGHLIGHTS_NEWEST_FIRST);
    await expect(moreLink(page)).toHaveCount(0);

    // Back to Recentes: a list of its own, from the top.
    await page.getByRole("tab", { name: t.newsList.tabRecent }).click();
    await expect(page).toHaveURL(/\/news-list\??$/);
    await expect(cards(page)).toHaveCount(PAGE);
    expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST.slice(0, PAGE));
  });

  test("sem JavaScript, Mais notícias abre a página seguinte (fora do índice dos buscadores), até o fim", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/news-list`);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
      await expect(cards(page)).toHaveCount(PAGE);
      await expect(page.locator('meta[name="robots"]')).toHaveCount(0);

      // Each click is a full page load: wait for the new page (its first card) before reading it.
      await moreLink(page).click();
      await expect(page).toHaveURL(/\/news-list\?cursor=/);
      await expect(cards(page).first()).toContainText(NEWEST_FIRST[PAGE]!);
      await expect(cards(page)).toHaveCount(PAGE);
      expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST.slice(PAGE, 2 * PAGE));
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, follow");

      await moreLink(page).click();
      await expect(cards(page).first()).toContainText(NEWEST_FIRST[2 * PAGE]!);
      await expect(cards(page)).toHaveCount(COUNT - 2 * PAGE);
      expect(await titlesOf(cards(page))).toEqual(NEWEST_FIRST.slice(2 * PAGE));
      await expect(moreLink(page)).toHaveCount(0);
      await expect(page.getByText(t.newsList.end)).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("um cursor inventado na URL responde 400 com uma mensagem e um link para o início", async ({ page }) => {
    const response = await page.goto(`${site.url}/news-list?cursor=inventado`);
    expect(response?.status()).toBe(400);
    await waitForHydration(page);
    await expect(page.getByRole("alert")).toContainText(t.newsList.invalidCursor);
    await page.getByRole("alert").getByRole("link").click();
    await expect(cards(page)).toHaveCount(PAGE);
  });

  test("GET /api/news pagina com cursor: 50 por padrão, no máximo 100, erros claros", async ({ request }) => {
    const first = await request.get(`${site.url}/api/news`);
    expect(first.status()).toBe(200);
    const firstBody = (await first.json()) as { news: Array<{ title: string }>; nextCursor: string | null };
    expect(firstBody.news.map((item) => item.title)).toEqual(NEWEST_FIRST.slice(0, 50));
    expect(firstBody.nextCursor).toEqual(expect.any(String));

    const rest = (await (await request.get(`${site.url}/api/news?limit=100&cursor=${firstBody.nextCursor}`)).json()) as typeof firstBody;
    expect(rest.news.map((item) => item.title)).toEqual(NEWEST_FIRST.slice(50));
    expect(rest.nextCursor).toBeNull();

    const highlights = (await (await request.get(`${site.url}/api/news?highlighted=1&limit=100`)).json()) as typeof firstBody;
    expect(highlights.news.map((item) => item.title)).toEqual(HIGHLIGHTS_NEWEST_FIRST);

    for (const limit of ["0", "101", "abc", "-5", "1e2", ""]) {
      const response = await request.get(`${site.url}/api/news?limit=${limit}`);
      expect(response.status(), `limit=${limit}`).toBe(400);
      expect(await response.json()).toEqual({ error: { code: "invalid_limit", message: t.newsList.invalidLimit } });
    }
    const badCursor = await request.get(`${site.url}/api/news?cursor=nao-e-um-cursor`);
    expect(badCursor.status()).toBe(400);
    expect(await badCursor.json()).toEqual({ error: { code: "invalid_cursor", message: t.newsList.invalidCursor } });
  });

  // Last: it adds a news item.
  test("uma notícia nova chega ao topo por atualização ao vivo sem apagar as páginas já carregadas", async ({ page, browser }) => {
    await openPage(page, site, "/news-list");
    await moreLink(page).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(2 * PAGE);

    const admin = await browser.newContext();
    try {
      await signInAsAdmin(admin, site);
      await createNewsThroughApi(admin, site, { title: "Notícia urgente do clássico" });
    } finally {
      await admin.close();
    }
    await expect(cards(page).first()).toContainText("Notícia urgente do clássico");
    // Nothing the reader had loaded went missing, nothing repeats; the next page still starts where it did.
    await expect(cards(page)).toHaveCount(2 * PAGE + 1);
    expect(await titlesOf(cards(page))).toEqual(["Notícia urgente do clássico", ...NEWEST_FIRST.slice(0, 2 * PAGE)]);
    await moreLink(page).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(COUNT + 1);
    expect(new Set(await titlesOf(cards(page))).size).toBe(COUNT + 1);
  });
});
