import type { Locator, Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { breakNewsTable, expect, openPage, STANDARD, t, test } from "./support/fixtures.ts";

const panel = (page: Page) => page.getByRole("tabpanel");
const recentTab = (page: Page) => page.getByRole("tab", { name: t.newsList.tabRecent });
const highlightsTab = (page: Page) => page.getByRole("tab", { name: t.newsList.tabHighlights });

async function cardTitles(cards: Locator): Promise<string[]> {
  return cards.evaluateAll((elements) => elements.map((element) => element.querySelector("h2, h3")?.textContent ?? ""));
}

test.describe("lista de notícias", () => {
  test("Recentes lista as notícias da mais nova à mais antiga; com menos de uma página, sem link para mais", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/news-list");
    await expect(page.getByRole("heading", { level: 1, name: t.newsList.title })).toBeVisible();
    await expect(recentTab(page)).toHaveAttribute("aria-selected", "true");
    const cards = panel(page).getByTestId("news-card");
    expect(standardSite.titlesNewestFirst.length).toBeGreaterThan(10);
    await expect(cards).toHaveCount(standardSite.titlesNewestFirst.length);
    expect(await cardTitles(cards)).toEqual(standardSite.titlesNewestFirst);
    // Each card shows a subtitle and its media.
    await expect(cards.first()).toContainText(STANDARD.dated.subtitle);
    await expect(cards.first().locator("img")).toHaveCount(1);
    await expect(cards.filter({ hasText: STANDARD.video.title }).locator("video")).toHaveCount(1);
    // Everything fits in the first page (24): no link to more, and no end-of-list note either.
    await expect(page.getByRole("link", { name: t.newsList.more })).toHaveCount(0);
    await expect(page.getByText(t.newsList.end)).toHaveCount(0);
  });

  test("Destaques mostra só as notícias em destaque", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/news-list?tab=1");
    const cards = panel(page).getByTestId("news-card");
    await expect(cards).toHaveCount(standardSite.highlightedTitles.length);
    expect(await cardTitles(cards)).toEqual(standardSite.highlightedTitles);
    await expect(cards.getByText(t.newsList.highlightBadge, { exact: true })).toHaveCount(standardSite.highlightedTitles.length);
  });

  test("abrir /news-list?tab=1 seleciona Destaques", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/news-list?tab=1");
    await expect(page.getByRole("tab", { name: "Destaques" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: "Recentes" })).toHaveAttribute("aria-selected", "false");
    await expect(panel(page)).toHaveAttribute("aria-labelledby", (await highlightsTab(page).getAttribute("id"))!);
  });

  test("clicar nas abas muda a URL para ?tab=1 e de volta", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/news-list");
    const cards = panel(page).getByTestId("news-card");
    await expect(cards).toHaveCount(standardSite.titlesNewestFirst.length);

    await highlightsTab(page).click();
    await expect(page).toHaveURL(/\/news-list\?tab=1$/);
    await expect(highlightsTab(page)).toHaveAttribute("aria-selected", "true");
    await expect(cards).toHaveCount(standardSite.highlightedTitles.length);

    await recentTab(page).click();
    await expect(page).toHaveURL(/\/news-list\??$/);
    await expect(recentTab(page)).toHaveAttribute("aria-selected", "true");
    await expect(cards).toHaveCount(standardSite.titlesNewestFirst.length);

    // Browser history follows the tabs.
    await page.goBack();
    await expect(page).toHaveURL(/\/news-list\?tab=1$/);
    await expect(highlightsTab(page)).toHaveAttribute("aria-selected", "true");
  });

  test("teclado: seta para a direita passa para a outra aba", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/news-list");
    await expect(recentTab(page)).toHaveAttribute("tabindex", "0");
    await expect(highlightsTab(page)).toHaveAttribute("tabindex", "-1");
    await recentTab(page).focus();
    await page.keyboard.press("ArrowRight");
    await expect(highlightsTab(page)).toHaveAttribute("aria-selected", "true");
    await expect(highlightsTab(page)).toBeFocused();
    await expect(page).toHaveURL(/\?tab=1$/);
    await expect(panel(page).getByTestId("news-card")).toHaveCount(standardSite.highlightedTitles.length);

    await page.keyboard.press("ArrowRight");
    await expect(recentTab(page)).toHaveAttribute("aria-selected", "true");
    await expect(recentTab(page)).toBeFocused();
  });

  test("clicar num card abre o artigo", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/news-list");
    const card = panel(page).getByTestId("news-card").filter({ hasText: STANDARD.markup.title });
    await card.click();
    await expect(page).toHaveURL(new RegExp(`^${standardSite.url}/article/${standardSite.ids.markup}/[a-z0-9-]+$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(STANDARD.markup.title);
  });
});

test.describe("lista vazia", () => {
  test("Recentes e Destaques mostram o estado vazio com a dica de cada aba", async ({ page, emptySite }) => {
    await openPage(page, emptySite, "/news-list");
    await expect(panel(page).getByText("Nenhuma notícia encontrada")).toBeVisible();
    await expect(panel(page).getByText("Adicione sua primeira notícia para começar!")).toBeVisible();
    await expect(panel(page).getByText("Nenhuma notícia em destaque.")).toHaveCount(0);
    await expect(panel(page).getByTestId("news-card")).toHaveCount(0);

    await highlightsTab(page).click();
    await expect(page).toHaveURL(/\?tab=1$/);
    await expect(panel(page).getByText(t.newsList.empty)).toBeVisible();
    await expect(panel(page).getByText("Nenhuma notícia em destaque.")).toBeVisible();
    await expect(panel(page).getByText(t.newsList.emptyHintRecent)).toHaveCount(0);
  });

  test("Destaques vazio quando há notícias mas nenhuma em destaque", async ({ page, launchSite }) => {
    const site = await launchSite({ setup: (services) => createNews(services, { title: "Sem destaque algum" }).then(() => {}) });
    await openPage(page, site, "/news-list?tab=1");
    await expect(panel(page).getByText(t.newsList.empty)).toBeVisible();
    await expect(panel(page).getByText(t.newsList.emptyHintHighlights)).toBeVisible();
    await recentTab(page).click();
    await expect(panel(page).getByTestId("news-card")).toHaveText([/Sem destaque algum/]);
  });
});

test.describe("lista com banco de dados com falha", () => {
  test("mostra a mensagem de erro com status 500", async ({ page, launchSite }) => {
    const site = await launchSite();
    await breakNewsTable(site);
    const response = await openPage(page, site, "/news-list");
    expect(response.status()).toBe(500);
    await expect(page.getByRole("alert")).toHaveText("Falha ao carregar as notícias. Por favor, tente novamente.");
    await expect(page.getByText(t.newsList.loadError)).toBeVisible();
    await expect(page.getByText(t.newsList.empty)).toHaveCount(0);
    // The layout still renders around the error.
    await expect(page.getByRole("tab", { name: t.newsList.tabRecent })).toBeVisible();
    await expect(page.locator("footer").last()).toBeVisible();
  });
});
