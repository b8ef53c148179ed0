/**
 * Search that forgives, in the browser: a misspelled club is found with "Você quis dizer …", a section's name finds its
 * stories and offers its page, and a search that finds nothing keeps the query in the box and offers the sections
 * and the most-read stories. The typo matching is the database's own (pg_trgm on PostgreSQL, FTS5's trigram
 * tokenizer on SQLite): this spec runs on both (playwright.config.ts).
 */
import type { Page } from "@playwright/test";
import { hourOf } from "#app/.server/news/reads/reads.service.server.ts";
import { createNews } from "#tests/factories/news.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";
import { expect, openPage, t, test } from "./support/fixtures.ts";

const BASE = Date.parse("2026-10-01T12:00:00.000Z");
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

let site: RunningSite;

test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  site = await startSite({
    async setup(services) {
      const stories = [
        { title: "Flamengo vence o clássico no Maracanã", category: "Futebol" },
        { title: "Flamengo anuncia reforço para a zaga", category: "Futebol" },
        { title: "Palmeiras empata fora de casa", category: "Futebol" },
        { title: "Brasileiro nocauteia no primeiro round", category: "MMA" },
        { title: "Cinturão em jogo no sábado", category: "MMA" },
      ];
      for (const [index, story] of stories.entries()) {
        const id = await createNews(services, { ...story, subtitle: "Resumo.", fullContent: "Texto.", media: null, createdAt: at(index) });
        // Read in the last hour: "Mais lidas" has them.
        await services.database.db
          .insertInto("news_reads")
          .values({ news_id: id, hour: hourOf(Date.now()), reads: 10 + index })
          .execute();
      }
    },
  });
});

test.afterAll(async () => {
  await site?.stop();
});

const cards = (page: Page) => page.getByRole("main").getByTestId("news-card");
const pageField = (page: Page) => page.getByRole("main").getByRole("searchbox", { name: t.search.pageFieldLabel });

test.describe("busca que perdoa", () => {
  test("“flamego” encontra o Flamengo e diz “Você quis dizer”; o link leva à busca certa", async ({ page }) => {
    await openPage(page, site, "/busca?q=flamego");
    const suggestion = page.getByTestId("search-suggestion");
    await expect(suggestion).toContainText(`${t.search.didYouMean} Flamengo?`);
    await expect(suggestion).toContainText(t.search.showingSuggestion("flamego"));
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).first().locator("mark")).toHaveText("Flamengo");

    await suggestion.getByRole("link", { name: "Flamengo" }).click();
    await expect(page).toHaveURL(/\/busca\?q=Flamengo$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.search.resultsTitle("Flamengo"));
    await expect(page.getByTestId("search-suggestion")).toHaveCount(0);
    await expect(cards(page)).toHaveCount(2);

    await openPage(page, site, "/busca?q=palmeras");
    await expect(page.getByTestId("search-suggestion")).toContainText(`${t.search.didYouMean} Palmeiras?`);
    await expect(cards(page)).toHaveCount(1);
  });

  test("o nome de uma seção encontra as notícias dela e oferece a página da seção", async ({ page }) => {
    await openPage(page, site, "/busca?q=mma");
    await expect(cards(page)).toHaveCount(2);
    await page.getByRole("link", { name: t.search.sectionPage("MMA") }).click();
    await expect(page).toHaveURL(/\/categoria\/mma$/);
  });

  test("sem resultado, a busca fica no campo e a página oferece as seções e as mais lidas", async ({ page }) => {
    await openPage(page, site, "/busca?q=xilofone");
    await expect(page.getByText(t.search.noResults("xilofone"))).toBeVisible();
    await expect(pageField(page)).toHaveValue("xilofone");
    const sections = page.getByRole("navigation", { name: t.search.browseSections });
    await expect(sections.getByRole("link")).toHaveText(["Futebol", "MMA"]);
    await expect(page.getByTestId("most-read").getByRole("listitem")).toHaveCount(5);
    await expect(page.getByTestId("most-read").getByRole("listitem").first()).toHaveText(/Cinturão em jogo/);

    // The reader corrects the query in the box.
    await pageField(page).fill("cinturao");
    await pageField(page).press("Enter");
    await expect(page).toHaveURL(/\/busca\?q=cinturao$/);
    await expect(cards(page)).toHaveCount(1);
  });

  test("sem JavaScript, a sugestão e as seções aparecem igual", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/busca?q=flamego`);
      await expect(page.getByTestId("search-suggestion")).toContainText(`${t.search.didYouMean} Flamengo?`);
      await expect(cards(page)).toHaveCount(2);
      await page.goto(`${site.url}/busca?q=xilofone`);
      await expect(pageField(page)).toHaveValue("xilofone");
      await expect(page.getByRole("navigation", { name: t.search.browseSections }).getByRole("link")).toHaveCount(2);
    } finally {
      await context.close();
    }
  });
});
