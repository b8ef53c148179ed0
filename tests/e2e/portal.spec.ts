import type { Page } from "@playwright/test";
import { createNews } from "../factories/news.ts";
import { expect, openPage, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "./support/site.ts";

/**
 * The front page as a sports portal: blocks without repeats, a block per top section, times on the cards, one h1;
 * the section menu; the header's back button; long search words; the public sign-in page.
 */

const HOUR = 3_600_000;
/** Categories by volume: Futebol 6, Vôlei 4, Basquete 3, Tênis 2, Natação 1; a draft-only one that must never show. */
const PLAN = [
  ...Array.from({ length: 6 }, () => "Futebol"),
  ...Array.from({ length: 4 }, () => "Vôlei"),
  ...Array.from({ length: 3 }, () => "Basquete"),
  ...Array.from({ length: 2 }, () => "Tênis"),
  "Natação",
];
const DRAFT_CATEGORY = "Esgrima Secreta";

let site: RunningSite;
const ids: string[] = [];
let newestAt = 0;

/** The calendar day on the site's clock (TIME_ZONE's default). */
const dayInSite = (at: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(at);

test.beforeAll(async () => {
  // The newest story a few minutes ago (a relative time), the others one day apart (dates).
  const now = Date.now();
  newestAt = now - 5 * 60_000;
  site = await startSite({
    async setup(services) {
      for (const [index, category] of PLAN.entries()) {
        const age = index === PLAN.length - 1 ? 5 * 60_000 : (PLAN.length - index) * 24 * HOUR;
        ids.push(
          await createNews(services, {
            media: null,
            category,
            title: `${category}: notícia ${index}`,
            isHighlighted: index % 5 === 0,
            createdAt: new Date(now - age),
          }),
        );
      }
      const draft = await createNews(services, { media: null, category: DRAFT_CATEGORY, title: "Rascunho embargado" });
      await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", draft).execute();
    },
  });
});
test.afterAll(async () => {
  await site?.stop();
});

async function cardIdsOf(page: Page): Promise<string[]> {
  return page
    .getByRole("main")
    .getByTestId("news-card")
    .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-news-id") ?? ""));
}

test.describe("home", () => {
  test("nenhuma notícia aparece duas vezes; um bloco por seção principal (até 4), depois 'Mais lidas'", async ({ page }) => {
    await openPage(page, site, "/");
    const shown = await cardIdsOf(page);
    expect(shown.length).toBeGreaterThan(6);
    expect(new Set(shown).size).toBe(shown.length);
    const sections = page.getByTestId("home-section");
    // The top four by volume are Futebol, Vôlei, Basquete and Tênis; both Tênis stories are among the newest three,
    // already shown: its block is left out rather than repeat them.
    await expect(sections.locator("h2")).toHaveText(["Futebol", "Vôlei", "Basquete"]);
    await expect(sections.first().getByRole("link", { name: t.home.sectionMore("Futebol") })).toHaveAttribute("href", "/categoria/futebol");
    await expect(page.getByText(DRAFT_CATEGORY)).toHaveCount(0);
  });

  test("um h1 (o nome do site) e os dois espaços de publicidade com nomes diferentes", async ({ page }) => {
    await openPage(page, site, "/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Esporte em Foco");
    await expect(page.getByRole("complementary", { name: t.home.adLabelTop })).toHaveCount(1);
    await expect(page.getByRole("complementary", { name: t.home.adLabelBottom })).toHaveCount(1);
  });

  test("cada card mostra quando foi publicado, em <time datetime>: relativo hoje, a data nos outros dias", async ({ page }) => {
    await openPage(page, site, "/");
    const cards = page.getByRole("main").getByTestId("news-card");
    const count = await cards.count();
    for (let i = 0; i < count; i++) {
      const time = cards.nth(i).locator("time");
      await expect(time).toHaveCount(1);
      await expect(time).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    }
    const newest = page.locator(`[data-news-id="${ids.at(-1)}"] time`);
    // Five minutes ago is today unless the test runs in the first minutes after midnight on the site's clock.
    const today = dayInSite(newestAt) === dayInSite(Date.now());
    await expect(newest).toHaveText(today ? /^há \d+ min$/ : /^\d{2}\/\d{2}\/\d{4}$/);
    const older = page.locator(`[data-news-id="${ids[0]}"] time`).first();
    await expect(older).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  });
});
