import type { Locator, Page } from "@playwright/test";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, signInAsAdmin, siteQuery, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";
import { testsActor } from "#tests/factories/actors.ts";

// Thirty volleyball news (the oldest spelled "Vôlei", later ones "volei" and "VÔLEI"), one a minute, by two authors,
// and five football news in between: a category page of one full page (24) and a bit, never a football item.
const VOLLEY = 30;
const PAGE = 24;
const BASE = Date.parse("2026-09-01T12:00:00.000Z");
const volley = (n: number) => `Vôlei paginado ${String(n).padStart(2, "0")}`;
const football = (n: number) => `Futebol intercalado ${n}`;
const VOLLEY_NEWEST_FIRST = Array.from({ length: VOLLEY }, (_, index) => volley(VOLLEY - index));
const BY_ANA_NEWEST_FIRST = VOLLEY_NEWEST_FIRST.filter((_, index) => (VOLLEY - index) % 3 === 0);

let site: RunningSite;

test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  site = await startSite({
    async setup(services) {
      for (let n = 1; n <= VOLLEY; n++) {
        await createNews(services, {
          title: volley(n),
          subtitle: `Resumo do vôlei ${n}.`,
          media: null,
          category: n === 1 ? "Vôlei" : n % 2 ? "VÔLEI" : "volei",
          author: n % 3 === 0 ? "Ana Repórter" : "Bruno Lima",
          createdAt: new Date(BASE + n * 60_000).toISOString(),
        });
        if (n % 6 === 0) {
          await createNews(services, {
            title: football(n / 6),
            media: null,
            category: "Futebol",
            author: "Bruno Lima",
            createdAt: new Date(BASE + n * 60_000 + 30_000).toISOString(),
          });
        }
      }
      // An embargoed story: its category and author must not be confirmable.
      await services.newsEditor.createNews(
        newsInputSchema.parse({ title: "Contratação secreta", subtitle: "s", category: "Embargo Plugh", author: "Fonte Xyzzy", status: "draft" }),
        null,
        testsActor,
      );
    },
  });
  // A category whose news have all moved elsewhere: no page any more.
  await siteQuery(
    site,
    "INSERT INTO taxonomy_terms (kind, slug, name, created_at) VALUES ('category', 'xadrez', 'Xadrez', ?)",
    new Date().toISOString(),
  );
});

test.afterAll(async () => {
  await site?.stop();
});

/** The site's public address (SITE_URL) is on "localhost": canonical URLs are built from it. */
const canonical = (path: string) => `http://localhost:${new URL(site.url).port}${path}`;
const cards = (page: Page) => page.getByRole("main").getByTestId("news-card");
const moreLink = (page: Page) => page.getByRole("link", { name: t.newsList.more });

async function titlesOf(list: Locator): Promise<string[]> {
  return list.evaluateAll((elements) => elements.map((element) => element.querySelector("h2")?.textContent ?? ""));
}

test.describe("páginas de categoria e de autor", () => {
  test("/categoria/volei lista só o vôlei (qualquer grafia), 24 por vez, e o resto ao rolar", async ({ page }) => {
    const response = await openPage(page, site, "/categoria/volei");
    expect(response.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vôlei");
    await expect(page).toHaveTitle(`${t.taxonomy.categoryTitle("Vôlei")} | Esporte em Foco`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", canonical("/categoria/volei"));
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", t.taxonomy.metaCategory("Vôlei", "Esporte em Foco"));
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);

    await expect(cards(page)).toHaveCount(PAGE);
    expect(await titlesOf(cards(page))).toEqual(VOLLEY_NEWEST_FIRST.slice(0, PAGE));
    // Every card shows the first spelling, whatever was typed.
    await expect(cards(page).getByRole("link", { name: "Vôlei", exact: true })).toHaveCount(PAGE);
    await expect(moreLink(page)).toHaveAttribute("href", /^\/categoria\/volei\?cursor=[\w-]+$/);

    await moreLink(page).scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(VOLLEY);
    expect(await titlesOf(cards(page))).toEqual(VOLLEY_NEWEST_FIRST);
    await expect(moreLink(page)).toHaveCount(0);
    await expect(page.getByText(t.newsList.end)).toBeVisible();
    await expect(page).toHaveURL(`${site.url}/categoria/volei`);
  });

  test("sem JavaScript, Mais notícias abre a página seguinte da categoria, fora do índice", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/categoria/volei`);
      await expect(cards(page)).toHaveCount(PAGE);
      await moreLink(page).click();
      await expect(page).toHaveURL(/\/categoria\/volei\?cursor=/);
      await expect(cards(page)).toHaveCount(VOLLEY - PAGE);
      expect(await titlesOf(cards(page))).toEqual(VOLLEY_NEWEST_FIRST.slice(PAGE));
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, follow");
    } finally {
      await context.close();
    }
  });

  test("o selo da categoria, no card e no artigo, leva à página da categoria; o nome do autor, à do autor", async ({ page }) => {
    await openPage(page, site, "/news-list");
    const card = page.getByTestId("news-card").filter({ hasText: volley(VOLLEY) });
    await expect(card.getByRole("link", { name: "Vôlei", exact: true })).toHaveAttribute("href", "/categoria/volei");
    await card.getByRole("link", { name: "Vôlei", exact: true }).click();
    await expect(page).toHaveURL(`${site.url}/categoria/volei`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vôlei");

    // The rest of the card still opens the article.
    await cards(page)
      .filter({ hasText: volley(VOLLEY - 1) })
      .getByRole("link", { name: volley(VOLLEY - 1) })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(volley(VOLLEY - 1));
    // The article's own badge (its header): the cards of "Leia também" below have theirs.
    await expect(page.locator("article header").first().getByRole("link", { name: "Vôlei", exact: true })).toHaveAttribute(
      "href",
      "/categoria/volei",
    );
    await page.getByRole("main").getByRole("link", { name: "Bruno Lima" }).click();
    await expect(page).toHaveURL(`${site.url}/autor/bruno-lima`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bruno Lima");
    // Bruno's page has his football news too.
    await expect(cards(page).filter({ hasText: football(5) })).toHaveCount(1);
  });

  test("/autor/ana-reporter lista só as notícias dela", async ({ page }) => {
    await openPage(page, site, "/autor/ana-reporter");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ana Repórter");
    await expect(page).toHaveTitle(`${t.taxonomy.authorTitle("Ana Repórter")} | Esporte em Foco`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", canonical("/autor/ana-reporter"));
    expect(await titlesOf(cards(page))).toEqual(BY_ANA_NEWEST_FIRST);
    await expect(moreLink(page)).toHaveCount(0);
  });

  test("um endereço desconhecido é 404 com mensagem em português, e também uma categoria ou um autor sem notícia publicada", async ({ page }) => {
    const missing = await page.goto(`${site.url}/categoria/nao-existe`);
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.taxonomy.categoryNotFound);
    const missingAuthor = await page.goto(`${site.url}/autor/ninguem`);
    expect(missingAuthor?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.taxonomy.authorNotFound);

    // No published story: a 404 like a never-used name, whether the news moved away or only a draft uses it.
    for (const [path, heading] of [
      ["/categoria/xadrez", t.taxonomy.categoryNotFound],
      ["/categoria/embargo-plugh", t.taxonomy.categoryNotFound],
      ["/autor/fonte-xyzzy", t.taxonomy.authorNotFound],
    ] as const) {
      const answer = await page.goto(`${site.url}${path}`);
      expect(answer?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      const html = await answer!.text();
      for (const secret of ["Embargo", "Xyzzy", "Xadrez", "Contratação"]) expect(html, path).not.toContain(secret);
    }
  });

  test("o formulário sugere as categorias existentes, e 'volei' digitado entra em Vôlei", async ({ page }) => {
    await signInAsAdmin(page, site);
    await openPage(page, site, "/add-news");
    const category = page.getByLabel(t.newsForm.category, { exact: true });
    const listId = await category.getAttribute("list");
    expect(listId).toBeTruthy();
    const suggestions = await page
      .locator(`datalist[id="${listId}"] option`)
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    // The newsroom's own suggestions include a draft's category (only readers must not learn of it).
    expect(suggestions).toEqual(["Embargo Plugh", "Futebol", "Vôlei"]);

    await page.getByLabel(t.newsForm.title, { exact: true }).fill("Vôlei digitado sem acento");
    await page.getByLabel(t.newsForm.subtitle, { exact: true }).fill("Resumo.");
    await page.getByLabel(t.newsForm.fullContent, { exact: true }).fill("Texto.");
    await category.fill("volei");
    await page.getByRole("button", { name: t.newsForm.submitCreate }).click();
    await expect(page).toHaveURL(/\/edit-news\/[^/?]+\?salva=published/);
    const rows = await siteQuery<{ category: string; category_slug: string }>(
      site,
      "SELECT category, category_slug FROM news WHERE title = ?",
      "Vôlei digitado sem acento",
    );
    expect(rows).toEqual([{ category: "Vôlei", category_slug: "volei" }]);
    await openPage(page, site, "/categoria/volei");
    await expect(cards(page).first()).toContainText("Vôlei digitado sem acento");
  });

  test("o mapa do site lista as páginas de categoria e de autor", async ({ request }) => {
    const pages = await (await request.get(`${site.url}/sitemaps/pages.xml`)).text();
    for (const path of ["/categoria/volei", "/categoria/futebol", "/autor/ana-reporter", "/autor/bruno-lima"]) {
      expect(pages).toContain(`${path}</loc>`);
    }
    expect(pages).not.toContain("/categoria/xadrez");
  });
});
