import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

/**
 * The section menu as an admin arranges it (/secoes): placed categories first, then the others by volume; hidden
 * ones out of the menu and of the home's section blocks (their page stays). Readers see it at once, through the page
 * cache. Who may open the page is in tests/e2e/authorization.spec.ts (admins only).
 */

let site: RunningSite;

test.beforeAll(async () => {
  site = await startSite({
    env: { PAGE_CACHE: "1" },
    async setup(services) {
      // By volume: Futebol 7, Vôlei 5, Basquete 3. The newest six fill the home's first blocks; the older ones
      // (October) fill a block per section.
      const plan = [
        ...Array(4).fill("Futebol"),
        ...Array(3).fill("Vôlei"),
        ...Array(2).fill("Basquete"),
        "Futebol",
        "Futebol",
        "Futebol",
        "Vôlei",
        "Vôlei",
        "Basquete",
      ];
      for (const [index, category] of plan.entries()) {
        await createNews(services, { media: null, category, title: `${category} ${index}`, createdAt: new Date(Date.UTC(2026, 9, 1 + index)) });
      }
    },
  });
});
test.afterAll(async () => {
  await site?.stop();
});

const menuLinks = (page: Page) => page.getByRole("navigation", { name: t.layout.sectionsLabel }).getByRole("link");
const row = (page: Page, slug: string) => page.getByTestId(`section-${slug}`);

test("o administrador ordena e esconde seções; o leitor vê o novo menu na hora (com o cache de páginas)", async ({ page, browser }) => {
  const reader = await browser.newPage();
  try {
    await openPage(reader, site, "/");
    await expect(menuLinks(reader)).toHaveText([t.layout.allSections, "Futebol", "Vôlei", "Basquete"]);
    await expect(reader.getByTestId("home-section").locator("h2")).toHaveText(["Futebol", "Vôlei", "Basquete"]);

    await signInAsAdmin(page.context(), site);
    await openPage(page, site, "/secoes");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.sections.pageTitle);
    // The table sits in the newsroom's white card, like the team's and the sponsors' sections.
    const card = page.getByRole("region", { name: t.sections.pageTitle });
    await expect(card).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await expect(card).not.toHaveCSS("box-shadow", "none");
    // Every category in use, by volume, with its count.
    await expect(page.getByTestId("section-settings").locator("tbody th")).toHaveText(["Futebol", "Vôlei", "Basquete"]);
    await expect(row(page, "futebol").locator("td").first()).toHaveText("7");

    await row(page, "basquete").getByLabel(t.sections.positionLabel("Basquete")).fill("1");
    await row(page, "volei").getByLabel(t.sections.shownLabel("Vôlei")).uncheck();
    await page.getByRole("button", { name: t.sections.save }).click();
    await expect(page.getByText(t.sections.saved)).toBeVisible();
    // The page shows what was saved: placed first, hidden last.
    await expect(page.getByTestId("section-settings").locator("tbody th")).toHaveText(["Basquete", "Futebol", "Vôlei"]);
    await expect(row(page, "volei").getByLabel(t.sections.shownLabel("Vôlei"))).not.toBeChecked();

    await openPage(reader, site, "/");
    await expect(menuLinks(reader)).toHaveText([t.layout.allSections, "Basquete", "Futebol"]);
    // Hidden from the home's blocks too, but its page stays.
    await expect(reader.getByTestId("home-section").locator("h2")).toHaveText(["Basquete", "Futebol"]);
    const volei = await reader.request.get(`${site.url}/categoria/volei`);
    expect(volei.status()).toBe(200);

    // Back to the volume order: no position, every one shown.
    await row(page, "basquete").getByLabel(t.sections.positionLabel("Basquete")).fill("");
    await row(page, "volei").getByLabel(t.sections.shownLabel("Vôlei")).check();
    await page.getByRole("button", { name: t.sections.save }).click();
    await expect(page.getByTestId("section-settings").locator("tbody th")).toHaveText(["Futebol", "Vôlei", "Basquete"]);
    await openPage(reader, site, "/");
    await expect(menuLinks(reader)).toHaveText([t.layout.allSections, "Futebol", "Vôlei", "Basquete"]);
  } finally {
    await reader.close();
  }
});

test("uma posição inválida é recusada no servidor, sem mudar nada", async ({ page }) => {
  await signInAsAdmin(page.context(), site);
  await openPage(page, site, "/secoes");
  const response = await page.request.post(`${site.url}/secoes`, {
    form: { "posicao:futebol": "0", "mostrar:futebol": "on" },
    headers: { origin: site.url },
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain("Posição inválida para Futebol");
  await openPage(page, site, "/");
  await expect(menuLinks(page)).toHaveText([t.layout.allSections, "Futebol", "Vôlei", "Basquete"]);
});
