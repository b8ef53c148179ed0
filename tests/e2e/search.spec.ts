import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

// Thirty news with "gol" in the title (one page of 24 and six more), one about São Paulo, and one whose title is
// markup-looking text.
const GOALS = 30;
const BASE = Date.parse("2026-10-01T12:00:00.000Z");
const goalTitle = (n: number) => `Gol ${String(n).padStart(2, "0")} da rodada`;
const XSS = "<img src=x onerror=alert(1)>";

let site: RunningSite;

test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  site = await startSite({
    async setup(services) {
      for (let n = 1; n <= GOALS; n++) {
        await createNews(services, {
          title: goalTitle(n),
          subtitle: `Resumo do lance ${n}.`,
          media: null,
          createdAt: new Date(BASE + n * 60_000).toISOString(),
        });
      }
      await createNews(services, {
        title: "São Paulo anuncia reforço para a temporada",
        subtitle: "Meia chega ao Morumbi",
        media: null,
        createdAt: new Date(BASE + 100 * 60_000).toISOString(),
      });
      await createNews(services, {
        title: `Torcida mostra ${XSS} em faixa`,
        subtitle: "<b>Protesto</b> bem-humorado",
        media: null,
        createdAt: new Date(BASE + 101 * 60_000).toISOString(),
      });
    },
  });
});

test.afterAll(async () => {
  await site?.stop();
});

const headerField = (page: Page) => page.getByRole("banner").getByRole("searchbox", { name: t.search.fieldLabel });
const cards = (page: Page) => page.getByRole("main").getByTestId("news-card");
const moreLink = (page: Page) => page.getByRole("link", { name: t.search.more });

test.describe("busca", () => {
  test("o campo do cabeçalho busca, destaca as palavras encontradas e carrega mais resultados", async ({ page }) => {
    await openPage(page, site, "/");
    await headerField(page).fill("gols");
    await headerField(page).press("Enter");
    await expect(page).toHaveURL(/\/busca\?q=gols$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.search.resultsTitle("gols"));
    await expect(cards(page)).toHaveCount(24);
    // "gols" found "Gol": the word is marked in every title.
    await expect(cards(page).first().locator("h2 mark")).toHaveText("Gol");
    await expect(page.locator("main h2 mark")).toHaveCount(24);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, follow");
    // Same rank: newest first.
    await expect(cards(page).first().locator("h2")).toHaveText(goalTitle(GOALS));

    await expect(moreLink(page)).toHaveAttribute("href", "/busca?q=gols&pagina=2");
    await moreLink(page).click();
    await expect(cards(page)).toHaveCount(GOALS);
    await expect(cards(page).last().locator("h2")).toHaveText(goalTitle(1));
    await expect(moreLink(page)).toHaveCount(0);
    await expect(page.getByText(t.search.end)).toBeVisible();
    // The page was extended in place, not replaced.
    await expect(page).toHaveURL(/\/busca\?q=gols$/);
  });

  test("num celular, o campo se abre ao tocar e encontra São Paulo sem acentos", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    try {
      await openPage(page, site, "/");
      const field = headerField(page);
      const folded = await field.boundingBox();
      expect(folded!.width).toBeLessThanOrEqual(48);
      await field.click();
      // Focused, it spreads over the header.
      await expect.poll(async () => (await field.boundingBox())!.width).toBeGreaterThan(250);
      await page.keyboard.type("sao paulo");
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/busca\?q=sao\+paulo$/);
      await expect(cards(page)).toHaveCount(1);
      await expect(cards(page).locator("h2 mark")).toHaveText(["São", "Paulo"]);
      // No horizontal scrolling on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    } finally {
      await context.close();
    }
  });

  test("markup na busca e no texto aparece como texto, nunca como HTML", async ({ page }) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openPage(page, site, `/busca?q=${encodeURIComponent(XSS)}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.search.resultsTitle(XSS));
    await expect(cards(page)).toHaveCount(1);
    const title = cards(page).locator("h2");
    await expect(title).toHaveText(`Torcida mostra ${XSS} em faixa`);
    await expect(title.locator("mark")).toHaveText(["img", "src", "x", "onerror", "alert", "1"]);
    await expect(title.locator("img")).toHaveCount(0);
    await expect(page.locator("main img[src='x'], main b")).toHaveCount(0);
    await expect(cards(page).locator("p").first()).toHaveText("<b>Protesto</b> bem-humorado");
    expect(dialogs).toEqual([]);
  });

  test("busca vazia e sem resultados têm seus próprios textos", async ({ page }) => {
    await openPage(page, site, "/busca");
    await expect(page.getByText(t.search.emptyQuery)).toBeVisible();
    await expect(page.getByText(t.search.emptyQueryHint)).toBeVisible();
    await expect(cards(page)).toHaveCount(0);

    await openPage(page, site, `/busca?q=${encodeURIComponent("críquete")}`);
    await expect(page.getByText(t.search.noResults("críquete"))).toBeVisible();
    await expect(page.getByText(t.search.noResultsHint)).toBeVisible();

    // Only operators and stop words: nothing searchable, no error.
    const response = await page.goto(`${site.url}/busca?q=${encodeURIComponent('"* AND ( - : de')}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByText(t.search.noResults('"* AND ( - : de'))).toBeVisible();

    const bad = await page.goto(`${site.url}/busca?q=gol&pagina=abc`);
    expect(bad?.status()).toBe(400);
    await expect(page.getByRole("alert")).toContainText(t.search.invalidPage);
  });

  test("sem JavaScript, o campo do cabeçalho busca e Mais resultados abre a página seguinte", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/`);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
      await headerField(page).fill("gol");
      await headerField(page).press("Enter");
      await expect(page).toHaveURL(/\/busca\?q=gol$/);
      await expect(cards(page)).toHaveCount(24);
      await expect(page.locator("main h2 mark").first()).toHaveText("Gol");

      await moreLink(page).click();
      await expect(page).toHaveURL(/\/busca\?q=gol&pagina=2$/);
      await expect(cards(page)).toHaveCount(GOALS - 24);
      await expect(cards(page).last().locator("h2")).toHaveText(goalTitle(1));
      await expect(moreLink(page)).toHaveCount(0);
      await expect(page.getByText(t.search.end)).toBeVisible();
    } finally {
      await context.close();
    }
  });
});
