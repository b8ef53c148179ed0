import { expect, openPage, t, test } from "./support/fixtures.ts";

const currentYear = () => Number(new Intl.DateTimeFormat("en", { year: "numeric", timeZone: "America/Sao_Paulo" }).format(new Date()));

test.describe("cabeçalho", () => {
  test("é fixo e tem 70 px de altura", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    const header = page.locator("body > header").first();
    await expect(header).toHaveCSS("position", "fixed");
    const box = await header.boundingBox();
    expect(box?.height).toBe(70);
    // Stays at the top of the viewport after scrolling.
    await page.evaluate(() => window.scrollTo(0, 800));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    expect((await header.boundingBox())?.y).toBe(0);
  });

  test("o botão voltar volta no histórico", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    await page.getByRole("link", { name: t.home.viewAllNews }).click();
    await expect(page).toHaveURL(/\/news-list$/);
    await page.getByRole("link", { name: t.layout.back, exact: true }).click();
    await expect(page).toHaveURL(`${standardSite.url}/`);
    await expect(page.getByRole("heading", { name: t.home.recentTitle })).toBeVisible();
  });

  test("logo e nome do site levam à página inicial", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/userLicence");
    const brand = page.locator("body > header").getByRole("link", { name: `Esporte em Foco: ${t.layout.home}` });
    await expect(brand).toHaveAttribute("href", "/");
    await expect(brand.getByText("Esporte em Foco", { exact: true })).toBeVisible();
    await brand.click();
    await expect(page).toHaveURL(`${standardSite.url}/`);
  });
});

test.describe("rodapé", () => {
  test("altura mínima de 200 px, título, descrição, link do site e copyright", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    const footer = page.locator("footer").last();
    await expect(footer).toHaveCSS("min-height", "200px");
    expect((await footer.boundingBox())!.height).toBeGreaterThanOrEqual(200);
    await expect(footer.getByRole("heading", { name: "Esporte em Foco", exact: true })).toBeVisible();
    await expect(footer).toContainText("Futebol, basquete, vôlei e tudo o que move o esporte brasileiro");
    const siteLink = footer.getByRole("link", { name: /^localhost:\d+$/ });
    await expect(siteLink).toHaveAttribute("href", /^http:\/\/localhost:\d+$/);
    const year = currentYear();
    await expect(footer.getByText(t.footer.copyright(year, "Esporte em Foco"))).toBeVisible();
    await expect(footer).toContainText(`© ${year}`);
  });

  test("links sociais abrem em nova aba com noopener", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    const footer = page.locator("footer").last();
    for (const [label, host] of [
      [t.footer.instagram, "instagram.com"],
      [t.footer.twitter, "twitter.com"],
      [t.footer.facebook, "facebook.com"],
    ] as const) {
      const link = footer.getByRole("link", { name: `${label} ${t.footer.opensInNewTab}` });
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", /(^|\s)noopener(\s|$)/);
      await expect(link).toHaveAttribute("href", new RegExp(host.replace(".", "\\.")));
    }
  });

  test("'Política de Privacidade' leva a /userLicence", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    await page.locator("footer").last().getByRole("link", { name: "Política de Privacidade" }).click();
    await expect(page).toHaveURL(`${standardSite.url}/userLicence`);
    await expect(page.getByRole("heading", { level: 1, name: t.privacy.title })).toBeVisible();
  });

  test("patrocinadores: logos redondos de 80×80, do mais antigo ao mais novo", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    const footer = page.locator("footer").last();
    const items = footer.locator("li").filter({ has: page.locator("img") });
    await expect(items).toHaveCount(standardSite.sponsorSrcs.length);
    const images = footer.getByRole("img", { name: /^Patrocinador \d+$/ });
    await expect(images).toHaveCount(3);
    for (let index = 0; index < 3; index++) {
      const item = items.nth(index);
      await expect(item).toHaveCSS("border-radius", "50%");
      await expect(item).toHaveCSS("overflow", "hidden");
      const box = await images.nth(index).boundingBox();
      expect(box?.width).toBe(80);
      expect(box?.height).toBe(80);
    }
    const srcs = await images.evaluateAll((elements) => elements.map((element) => element.getAttribute("src")));
    expect(srcs).toEqual(standardSite.sponsorSrcs);
    await expect(footer).not.toContainText(t.footer.noSponsors);
  });

  test("sem patrocinadores mostra o convite", async ({ page, emptySite }) => {
    await openPage(page, emptySite, "/");
    const footer = page.locator("footer").last();
    await expect(footer.getByText("Sua marca pode estar aqui! Entre em contato e seja um patrocinador oficial...")).toBeVisible();
    await expect(footer.getByText(t.footer.noSponsors)).toBeVisible();
    await expect(footer.getByRole("img", { name: /^Patrocinador/ })).toHaveCount(0);
  });

  test("o logo do rodapé leva a / e rola até o topo", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    const logo = page
      .locator("footer")
      .last()
      .getByRole("link", { name: t.footer.backToTopLogo("Esporte em Foco") });
    await expect(logo).toHaveAttribute("href", "/");
    await logo.click();
    await expect(page).toHaveURL(`${standardSite.url}/`);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe("botão voltar ao topo", () => {
  test("aparece após 200 px de rolagem, some 3 s depois e rola até o topo", async ({ page, standardSite }) => {
    await page.clock.install();
    await openPage(page, standardSite, "/");
    // Stop the fake clock: from here on only runFor() moves time.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const button = page.getByRole("button", { name: t.layout.scrollToTop });
    await expect(button).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 150));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(150);
    await expect(button).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 600));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(600);
    await expect(button).toBeVisible();

    await page.clock.runFor(2500);
    await expect(button).toBeVisible();
    await page.clock.runFor(600);
    await expect(button).toBeHidden();

    await page.evaluate(() => window.scrollTo(0, 900));
    await expect(button).toBeVisible();
    // Let time flow again for the smooth scroll animation.
    await page.clock.resume();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
