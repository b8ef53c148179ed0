import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { createNewsThroughApi, expect, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

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

test.describe("hidratação", () => {
  test("os tempos dos cards depois da hidratação são os do HTML do servidor (contados da hora do pedido)", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    for (const path of ["/", "/categoria/futebol", "/news-list"]) {
      const response = await openPage(page, site, path);
      const html = await response.text();
      const fromServer = [...html.matchAll(/<time\b[^>]*>(.*?)<\/time>/g)].map((match) => match[1]);
      expect(fromServer.length).toBeGreaterThan(0);
      const hydrated = await page.getByRole("main").locator("time").allTextContents();
      expect(hydrated).toEqual(fromServer);
    }
    expect(errors).toEqual([]);
  });
});

test.describe("menu de seções", () => {
  const menuOf = (page: Page) => page.getByRole("navigation", { name: t.layout.sectionsLabel });
  const ORDER = [t.layout.allSections, "Futebol", "Vôlei", "Basquete", "Tênis", "Natação"];

  test("no celular (375 px): 'Todas' e as seções por volume numa linha que rola de lado, sem rolar a página", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openPage(page, site, "/");
    const menu = menuOf(page);
    await expect(menu.getByRole("link")).toHaveText(ORDER);
    await expect(menu.getByRole("link", { name: t.layout.allSections })).toHaveAttribute("href", "/news-list");
    await expect(menu.getByText(DRAFT_CATEGORY)).toHaveCount(0);
    const list = menu.getByRole("list");
    const sizes = await list.evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
      overflow: getComputedStyle(element).overflowX,
    }));
    expect(sizes.overflow).toBe("auto");
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    // One row: every link at the same height.
    const tops = await menu.getByRole("link").evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // It really scrolls: the last section comes into view.
    await list.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect(menu.getByRole("link", { name: "Natação" })).toBeInViewport();
  });

  test("no computador (1280 px): todas as seções à vista, sem rolagem", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openPage(page, site, "/");
    const menu = menuOf(page);
    await expect(menu.getByRole("link")).toHaveText(ORDER);
    for (const name of ORDER) await expect(menu.getByRole("link", { name, exact: true })).toBeInViewport();
    const sizes = await menu.getByRole("list").evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    await expect(menu.locator("[aria-current]")).toHaveCount(0);
  });

  test("marca a seção atual numa página de categoria, e 'Todas' na lista", async ({ page }) => {
    await openPage(page, site, "/");
    await menuOf(page).getByRole("link", { name: "Vôlei" }).click();
    await expect(page).toHaveURL(`${site.url}/categoria/volei`);
    await expect(menuOf(page).locator("[aria-current='page']")).toHaveText(["Vôlei"]);
    await openPage(page, site, "/news-list");
    await expect(menuOf(page).locator("[aria-current='page']")).toHaveText([t.layout.allSections]);
  });
});

test.describe("menu de seções e o cache de páginas", () => {
  test("uma categoria publicada pela primeira vez aparece no menu das páginas já guardadas", async ({ browser, launchSite }) => {
    const fresh = await launchSite({
      env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
      setup: async (services) => {
        await createNews(services, { media: null, category: "Futebol", title: "Única notícia" });
      },
    });
    const reader = await browser.newPage();
    const menu = reader.getByRole("navigation", { name: t.layout.sectionsLabel });
    for (const path of ["/", "/news-list"]) {
      await openPage(reader, fresh, path);
      await expect(menu.getByRole("link")).toHaveText([t.layout.allSections, "Futebol"]);
    }
    // The pages are in the cache now (a second request is a hit).
    const again = await reader.request.get(`${fresh.url}/news-list`);
    expect(again.headers()["x-page-cache"]).toBe("hit");

    const adminContext = await browser.newContext();
    await signInAsAdmin(adminContext, fresh);
    await createNewsThroughApi(adminContext, fresh, { title: "Remo estreia no portal", category: "Remo" });
    await adminContext.close();

    for (const path of ["/", "/news-list"]) {
      await expect
        .poll(async () => {
          await openPage(reader, fresh, path);
          return menu.getByRole("link").allTextContents();
        })
        .toEqual([t.layout.allSections, "Futebol", "Remo"]);
    }
    await reader.close();
  });
});

test.describe("navegação", () => {
  const back = (page: Page) => page.getByRole("banner").getByRole("link", { name: t.layout.back });

  test("'←' de quem chegou de outro site (mesma aba) leva à home, não de volta ao outro site", async ({ page }) => {
    await page.goto("about:blank");
    await page.goto(`${site.url}/news-list`, { referer: "https://www.google.com/search?q=esporte" });
    await page.waitForSelector("html[data-hydrated]");
    expect(await page.evaluate(() => window.history.length)).toBeGreaterThan(1);
    await back(page).click();
    await expect(page).toHaveURL(`${site.url}/`);
  });

  test("'←' volta à página anterior quando ela é do site (navegação no app ou página carregada a partir dele)", async ({ page }) => {
    await openPage(page, site, "/news-list");
    await page.getByRole("main").getByTestId("news-card").first().getByRole("link").first().click();
    await expect(page).toHaveURL(/\/article\//);
    await back(page).click();
    await expect(page).toHaveURL(`${site.url}/news-list`);

    // A whole page loaded from one of ours (a same-origin referrer).
    await openPage(page, site, "/categoria/volei");
    await page.goto(`${site.url}/busca?q=futebol`, { referer: `${site.url}/categoria/volei` });
    await page.waitForSelector("html[data-hydrated]");
    await back(page).click();
    await expect(page).toHaveURL(`${site.url}/categoria/volei`);
  });

  test("uma palavra de 300 letras na busca quebra a linha: nada rola de lado a 375 px", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openPage(page, site, `/busca?q=${"futebolistico".repeat(24).slice(0, 300)}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("futebolistico");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

test.describe("sem JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a página 2 da lista leva de volta à primeira", async ({ page, launchSite }) => {
    const many = await launchSite({
      setup: async (services) => {
        for (let i = 0; i < 26; i++) await createNews(services, { media: null, title: `Notícia em série ${i}` });
      },
    });
    await page.goto(`${many.url}/news-list`);
    await expect(page.getByRole("link", { name: t.newsList.firstPage })).toHaveCount(0);
    await page.getByRole("link", { name: t.newsList.more }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    await page.getByRole("link", { name: t.newsList.firstPage }).click();
    await expect(page).toHaveURL(`${many.url}/news-list`);
    await expect(page.getByRole("main").getByTestId("news-card")).toHaveCount(24);
  });
});

test.describe("página de login pública", () => {
  test("sem Google configurado: nenhum botão do Google e nenhuma dica de configuração", async ({ page }) => {
    await openPage(page, site, "/admin/login");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: /Google/ })).toHaveCount(0);
    const text = await page.locator("body").innerText();
    expect(text).not.toMatch(/GOOGLE_|CLIENT_ID|CLIENT_SECRET|defina/i);
    // The sign-in form itself is there.
    await expect(page.getByRole("button", { name: t.auth.signIn, exact: true })).toBeVisible();
  });
});
