import type { Page } from "@playwright/test";
import { expect, expectNoSeriousViolations, expectNoViolations, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

async function check(page: Page, site: RunningSite, path: string) {
  await openPage(page, site, path);
  await expectNoSeriousViolations(page, path);
}

test.describe("acessibilidade (axe)", () => {
  test("home", async ({ page, standardSite }) => {
    await check(page, standardSite, "/");
  });

  test("lista de notícias: Recentes", async ({ page, standardSite }) => {
    await check(page, standardSite, "/news-list");
  });

  test("lista de notícias: Destaques", async ({ page, standardSite }) => {
    await check(page, standardSite, "/news-list?tab=1");
  });

  test("artigo com imagem", async ({ page, standardSite }) => {
    await check(page, standardSite, `/article/${standardSite.ids.dated}`);
  });

  test("artigo com vídeo", async ({ page, standardSite }) => {
    await check(page, standardSite, `/article/${standardSite.ids.video}`);
  });

  test("lightbox aberto", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    await page.getByRole("button", { name: t.article.openMedia }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectNoSeriousViolations(page, "lightbox");
  });

  test("política de privacidade", async ({ page, standardSite }) => {
    await check(page, standardSite, "/userLicence");
  });

  test("artigo inexistente (404)", async ({ page, standardSite }) => {
    await check(page, standardSite, "/article/nao-existe");
    await expect(page.getByText(t.article.notFound)).toBeVisible();
  });

  test("página inexistente (404)", async ({ page, standardSite }) => {
    await check(page, standardSite, "/pagina-que-nao-existe");
    await expect(page.getByText(t.errors.pageNotFoundTitle)).toBeVisible();
    await expect(page).toHaveTitle(`${t.errors.pageNotFoundTitle} | Esporte em Foco`);
  });

  test("home sem notícias", async ({ page, emptySite }) => {
    await check(page, emptySite, "/");
    await expect(page.getByText(t.home.searchingNews)).toBeVisible();
  });

  test("lista vazia", async ({ page, emptySite }) => {
    await check(page, emptySite, "/news-list");
    await expect(page.getByText(t.newsList.empty)).toBeVisible();
  });

  test("aviso de consentimento (com ADSENSE_CLIENT) e as preferências na política de privacidade", async ({ page, launchSite }) => {
    const site = await launchSite({ env: { ADSENSE_CLIENT: "ca-pub-1234567890", CONTACT_EMAIL: "contato@exemplo.com.br" } });
    await openPage(page, site, "/");
    await expect(page.getByTestId("consent-banner")).toBeVisible();
    await expectNoSeriousViolations(page, "/ com o aviso de consentimento");
    await check(page, site, "/userLicence");
    await expect(page.getByTestId("consent-current")).toHaveText(t.consent.currentNone);
  });

  test("seções do menu (administrador)", async ({ page, standardSite }) => {
    await signInAsAdmin(page.context(), standardSite);
    await check(page, standardSite, "/secoes");
    await expect(page.getByTestId("section-settings")).toBeVisible();
  });
});

/**
 * The same reader pages in the dark theme (the device's preference, as the header's switch sets it): no violation at
 * all, of any impact, color contrast (WCAG AA) included.
 */
test.describe("acessibilidade (axe) no tema escuro", () => {
  test.use({ colorScheme: "dark" });

  async function checkDark(page: Page, site: RunningSite, path: string) {
    await openPage(page, site, path);
    // The dark colors are on: the page's background.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(15, 20, 23)");
    await expectNoViolations(page, `${path} (escuro)`);
  }

  test("home, lista, artigo, privacidade e 404", async ({ page, standardSite }) => {
    for (const path of ["/", "/news-list", `/article/${standardSite.ids.dated}`, "/userLicence", "/pagina-que-nao-existe"]) {
      await checkDark(page, standardSite, path);
    }
  });

  test("sem conexão, ler depois e artigo inexistente", async ({ page, standardSite }) => {
    for (const path of ["/sem-conexao", "/ler-depois", "/article/nao-existe"]) await checkDark(page, standardSite, path);
  });

  test("aviso de consentimento", async ({ page, launchSite }) => {
    const site = await launchSite({ env: { ADSENSE_CLIENT: "ca-pub-1234567890" } });
    await checkDark(page, site, "/");
    await expect(page.getByTestId("consent-banner")).toBeVisible();
  });
});
