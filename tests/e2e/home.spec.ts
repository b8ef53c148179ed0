import type { Locator, Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { breakNewsTable, expect, openPage, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

const LONG_TITLE =
  "Técnico confirma escalação com três novidades para o clássico de domingo depois de uma semana inteira de treinos fechados, muita especulação e uma coletiva longa";
const LONG_SUBTITLE =
  "A comissão técnica passou a semana testando formações diferentes. " +
  "O meio-campo ganhou um volante a mais, o ataque terá velocidade pelos lados e a defesa manterá a linha de quatro, " +
  "segundo o treinador, que pediu paciência à torcida e prometeu um time competitivo do primeiro ao último minuto da partida.";

/** Five news, two highlighted, oldest first. */
const NEWS = [
  { key: "h1", title: "Destaque antigo: seleção convocada", isHighlighted: true },
  { key: "n2", title: "Notícia comum: tabela do returno" },
  { key: "h3", title: "Destaque recente: recorde no atletismo", isHighlighted: true },
  { key: "n4", title: LONG_TITLE, subtitle: LONG_SUBTITLE },
  { key: "n5", title: "Mais nova: vôlei vence na estreia" },
] as const;

const cardTitle = (card: Locator) => card.locator("h2, h3").first();

async function titlesOf(cards: Locator): Promise<string[]> {
  return cards.evaluateAll((elements) => elements.map((element) => element.querySelector("h2, h3")?.textContent ?? ""));
}

const recentSection = (page: Page) => page.getByRole("region", { name: t.home.recentTitle });
const highlightSection = (page: Page) => page.getByRole("region", { name: t.home.highlightsTitle });

/** A card's link: the article's id, then its title as a slug (`/article/{id}/{slug}`). */
const articleHref = (id: string) => new RegExp(`^/article/${id}/[a-z0-9-]+$`);

test.describe("home com 5 notícias (2 em destaque)", () => {
  test.describe.configure({ mode: "default" });

  let site: RunningSite;
  const ids: Record<string, string> = {};

  test.beforeAll(async () => {
    site = await startSite({
      async setup(services) {
        for (const [index, item] of NEWS.entries()) {
          ids[item.key] = await createNews(services, {
            title: item.title,
            subtitle: "subtitle" in item ? item.subtitle : `Subtítulo de ${item.title}`,
            isHighlighted: "isHighlighted" in item ? item.isHighlighted : false,
            createdAt: new Date(Date.UTC(2026, 1, 1 + index, 12)),
          });
        }
      },
    });
  });
  test.afterAll(async () => {
    await site?.stop();
  });

  test("card principal e dois laterais mostram as 3 mais novas, com link para o artigo", async ({ page }) => {
    await openPage(page, site, "/");
    const cards = recentSection(page).getByTestId("news-card");
    await expect(cards).toHaveCount(3);
    expect(await titlesOf(cards)).toEqual([NEWS[4].title, NEWS[3].title, NEWS[2].title]);
    for (const [index, key] of ["n5", "n4", "h3"].entries()) {
      await expect(cards.nth(index).getByRole("link").first()).toHaveAttribute("href", articleHref(ids[key]!));
    }
    await expect(recentSection(page).getByTestId("placeholder-card")).toHaveCount(0);

    await cards.nth(1).click();
    await expect(page).toHaveURL(new RegExp(`^${site.url}${articleHref(ids.n4!).source.slice(1)}`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(LONG_TITLE);
  });

  test("destaques: sem as já mostradas em Últimas, o destacado primeiro, completado pela mais nova restante", async ({ page }) => {
    await openPage(page, site, "/");
    // h3 (highlighted) is among the three newest, shown above: not repeated here.
    const cards = highlightSection(page).getByTestId("news-card");
    await expect(cards).toHaveCount(2);
    expect(await titlesOf(cards)).toEqual([NEWS[0].title, NEWS[1].title]);
    await expect(cards.nth(0).getByRole("link").first()).toHaveAttribute("href", articleHref(ids.h1!));
    await expect(cards.nth(1).getByRole("link").first()).toHaveAttribute("href", articleHref(ids.n2!));
    await expect(highlightSection(page).getByTestId("placeholder-card")).toHaveText([t.home.moreHighlightsSoon]);
  });

  test("dois espaços de publicidade", async ({ page }) => {
    await openPage(page, site, "/");
    const ads = page.getByTestId("ad-slot");
    await expect(ads).toHaveCount(2);
    await expect(ads.first()).toBeVisible();
    await expect(ads.last()).toBeVisible();
  });

  test("'Ver todas as notícias' leva a /news-list", async ({ page }) => {
    await openPage(page, site, "/");
    await page.getByRole("link", { name: "Ver todas as notícias" }).click();
    await expect(page).toHaveURL(`${site.url}/news-list`);
    await expect(page.getByRole("tab", { name: t.newsList.tabRecent })).toHaveAttribute("aria-selected", "true");
  });

  test("'Ver todos os destaques' leva a /news-list?tab=1 com Destaques selecionado", async ({ page }) => {
    await openPage(page, site, "/");
    await page.getByRole("link", { name: t.home.viewAllHighlights }).click();
    await expect(page).toHaveURL(`${site.url}/news-list?tab=1`);
    await expect(page.getByRole("tab", { name: t.newsList.tabHighlights })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: t.newsList.tabRecent })).toHaveAttribute("aria-selected", "false");
    await expect(page.getByRole("tabpanel").getByTestId("news-card")).toHaveCount(2);
  });

  test("título do card lateral limitado a 2 linhas e subtítulo a 3", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, site, "/");
    const side = recentSection(page).getByTestId("news-card").nth(1);
    await expect(cardTitle(side)).toHaveText(LONG_TITLE);

    const measure = (locator: Locator) =>
      locator.evaluate((element) => {
        const style = getComputedStyle(element);
        const fontSize = Number.parseFloat(style.fontSize);
        const lineHeight = style.lineHeight === "normal" ? fontSize * 1.2 : Number.parseFloat(style.lineHeight);
        return {
          clamp: style.getPropertyValue("-webkit-line-clamp"),
          lineClamp: style.getPropertyValue("line-clamp"),
          height: element.getBoundingClientRect().height,
          scrollHeight: element.scrollHeight,
          lineHeight,
        };
      });

    const title = await measure(cardTitle(side));
    expect(title.clamp).toBe("2");
    expect(["2", ""]).toContain(title.lineClamp);
    expect(title.height).toBeLessThanOrEqual(2 * title.lineHeight + 1);
    // The long title really is longer than two lines: the clamp hid something.
    expect(title.scrollHeight).toBeGreaterThan(title.height + 1);

    const subtitle = await measure(side.locator("p").first());
    expect(subtitle.clamp).toBe("3");
    expect(["3", ""]).toContain(subtitle.lineClamp);
    expect(subtitle.height).toBeLessThanOrEqual(3 * subtitle.lineHeight + 1);
    expect(subtitle.scrollHeight).toBeGreaterThan(subtitle.height + 1);

    // Every card's subtitle (main, side and grid cards) is clamped to 3 lines.
    const clamps = await page
      .getByTestId("news-card")
      .evaluateAll((cards) => cards.map((card) => getComputedStyle(card.querySelector("p")!).getPropertyValue("-webkit-line-clamp")));
    // Five stories, each shown once (3 recent, the 2 left as highlights).
    expect(clamps).toHaveLength(5);
    expect(new Set(clamps)).toEqual(new Set(["3"]));
  });
});

test.describe("home sem notícias", () => {
  test("mostra os quatro textos de espera, sem links", async ({ page, emptySite }) => {
    await openPage(page, emptySite, "/");
    const recent = recentSection(page);
    const highlights = highlightSection(page);
    await expect(recent.getByTestId("news-card")).toHaveCount(0);
    await expect(highlights.getByTestId("news-card")).toHaveCount(0);

    const recentPlaceholders = recent.getByTestId("placeholder-card");
    await expect(recentPlaceholders).toHaveCount(3);
    await expect(recentPlaceholders.nth(0)).toHaveText("Procurando notícias...");
    await expect(recentPlaceholders.nth(1)).toHaveText("Mais notícias em breve");
    await expect(recentPlaceholders.nth(2)).toHaveText(t.home.moreNewsSoon);

    const highlightPlaceholders = highlights.getByTestId("placeholder-card");
    await expect(highlightPlaceholders).toHaveCount(3);
    await expect(highlightPlaceholders.nth(0)).toHaveText("Nenhum destaque no momento");
    await expect(highlightPlaceholders.nth(1)).toHaveText("Mais destaques em breve");
    await expect(highlightPlaceholders.nth(2)).toHaveText(t.home.moreHighlightsSoon);

    const placeholders = page.getByTestId("placeholder-card");
    await expect(placeholders).toHaveCount(6);
    await expect(placeholders.locator("a")).toHaveCount(0);
    await expect(placeholders.getByRole("link")).toHaveCount(0);
    // Clicking a placeholder goes nowhere.
    await placeholders.first().click();
    await expect(page).toHaveURL(`${emptySite.url}/`);
  });
});

test.describe("home com banco de dados com falha", () => {
  test("mostra os textos de espera e nenhuma mensagem de erro", async ({ page, launchSite }) => {
    const site = await launchSite({
      setup: async (services) => {
        await createNews(services, { title: "Notícia que some com a tabela" });
      },
    });
    await openPage(page, site, "/");
    await expect(page.getByTestId("news-card").filter({ hasText: "Notícia que some com a tabela" })).toHaveCount(1);

    await breakNewsTable(site);
    // The home's blocks are kept in memory until the site hears of a change (within a second of another writer's).
    let status = 0;
    await expect
      .poll(async () => {
        status = (await openPage(page, site, "/")).status();
        return page.getByTestId("placeholder-card").count();
      })
      .toBe(6);
    expect(status).toBe(200);
    await expect(page.getByText("Notícia que some com a tabela")).toHaveCount(0);
    await expect(page.getByText(t.home.searchingNews)).toBeVisible();
    await expect(page.getByText(t.home.noHighlights)).toBeVisible();
    await expect(page.getByTestId("placeholder-card")).toHaveCount(6);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByText(t.errors.genericTitle)).toHaveCount(0);
    await expect(page.getByText(t.newsList.loadError)).toHaveCount(0);
  });
});

test.describe("home num celular de 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("depois das três primeiras, linhas compactas (miniatura, título, hora); 'Mais lidas' nas duas primeiras telas", async ({
    page,
    launchSite,
  }) => {
    // A day's desk: 16 stories with pictures in four sections, three highlighted, five read in the last hour.
    const site = await launchSite({
      async setup(services) {
        const ids: string[] = [];
        for (let index = 0; index < 16; index++) {
          const category = ["Futebol", "Vôlei", "Basquete", "Fórmula 1"][index % 4]!;
          ids.push(
            await createNews(services, {
              title: `${category}: notícia ${index + 1} do dia com um título do tamanho de sempre`,
              category,
              isHighlighted: index % 5 === 0,
            }),
          );
        }
        const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
        for (const [rank, id] of ids.slice(0, 5).entries()) {
          await services.database.db
            .insertInto("news_reads")
            .values({ news_id: id, hour, reads: 50 - rank })
            .execute();
        }
      },
    });
    await openPage(page, site, "/");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const mostRead = await page.getByRole("heading", { name: t.mostRead.title }).boundingBox();
    // Half the height of the page before the compact rows with these same stories (8 035 px, measured 2026-11-29).
    expect(height).toBeLessThanOrEqual(8035 / 2);
    expect(mostRead).not.toBeNull();
    expect(mostRead!.y).toBeLessThan(2 * 740);

    // The lower blocks: each story a row, about 4 to a screen, its thumbnail beside the title, no subtitle.
    const rows = page.getByTestId("home-section").getByTestId("news-card");
    expect(await rows.count()).toBeGreaterThan(4);
    for (const row of await rows.all()) {
      const box = (await row.boundingBox())!;
      expect(box.height, "a compact row").toBeLessThanOrEqual(740 / 4);
      const thumb = (await row.locator("img").first().boundingBox())!;
      expect(thumb.width).toBeLessThan(box.width / 2);
      await expect(row.locator("p").first()).toBeHidden();
    }
    // The first three stay full cards.
    const firstThree = page.getByRole("region", { name: t.home.recentTitle }).getByTestId("news-card");
    expect((await firstThree.first().boundingBox())!.height).toBeGreaterThan(740 / 3);
  });
});
