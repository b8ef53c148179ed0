import { expect, STANDARD, t, test } from "./support/fixtures.ts";

// Without JavaScript every public page must still be complete: it is rendered on the server.
test.use({ javaScriptEnabled: false });

test.describe("sem JavaScript", () => {
  test("a home mostra as notícias", async ({ page, standardSite }) => {
    const response = await page.goto(`${standardSite.url}/`);
    expect(response?.status()).toBe(200);
    // Never hydrated: the markup comes from the server alone.
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    const recent = page.getByRole("region", { name: t.home.recentTitle });
    await expect(recent.getByTestId("news-card")).toHaveCount(3);
    await expect(recent.getByRole("heading", { name: STANDARD.dated.title })).toBeVisible();
    await expect(recent.getByRole("heading", { name: STANDARD.generic.title })).toBeVisible();
    await expect(recent.getByRole("heading", { name: STANDARD.markup.title })).toBeVisible();
    await expect(page.getByTestId("placeholder-card")).toHaveCount(0);
  });

  test("o artigo mostra título, subtítulo e conteúdo completo", async ({ page, standardSite }) => {
    await page.goto(`${standardSite.url}/article/${standardSite.ids.dated}`);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(STANDARD.dated.title);
    await expect(page.getByText(STANDARD.dated.subtitle)).toBeVisible();
    const content = page.getByTestId("article-content");
    await expect(content).toBeVisible();
    expect(await content.innerText()).toBe(STANDARD.dated.fullContent);
    // The image is in the server HTML too.
    await expect(page.locator("article figure img")).toHaveAttribute("src", /^\/media\//);
  });

  test("a lista de notícias mostra os cards e as abas funcionam como links", async ({ page, standardSite }) => {
    await page.goto(`${standardSite.url}/news-list`);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    const cards = page.getByRole("tabpanel").getByTestId("news-card");
    await expect(cards).toHaveCount(standardSite.titlesNewestFirst.length);
    await expect(cards.first()).toContainText(standardSite.titlesNewestFirst[0]!);

    await page.getByRole("tab", { name: t.newsList.tabHighlights }).click();
    await expect(page).toHaveURL(/\/news-list\?tab=1$/);
    await expect(cards).toHaveCount(standardSite.highlightedTitles.length);
  });
});
