import type { BrowserContext, Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, t, test, watchViolations } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

/**
 * Consent before any ad partner (LGPD): with ADSENSE_CLIENT, nothing of the partner is requested before the reader
 * chooses; "Aceitar" loads its script (and the two units), "Recusar" never; the choice is kept in a cookie for 6 months
 * and changed from the privacy page. Nothing here reaches the internet: every request that leaves the test site is
 * answered (the partner's script, by a few bytes of local JavaScript) or aborted by the test, and recorded.
 */

const CLIENT = "ca-pub-1234567890";
const SCRIPT_URL = `https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${CLIENT}`;
let site: RunningSite;

test.beforeAll(async () => {
  site = await startSite({
    // The cached pages are shared by every reader: the choice must work through them.
    env: { PAGE_CACHE: "1", ADSENSE_CLIENT: CLIENT, ADSENSE_SLOT_TOP: "1111111111", ADSENSE_SLOT_BOTTOM: "2222222222" },
    async setup(services) {
      for (const title of ["Primeira notícia", "Segunda notícia", "Terceira notícia", "Quarta notícia"]) {
        await createNews(services, { title, media: null });
      }
    },
  });
});
test.afterAll(async () => {
  await site?.stop();
});

/** Every request of the context to another origin than the site's: recorded, the partner's script answered locally. */
async function recordOutside(context: BrowserContext, on: RunningSite = site): Promise<string[]> {
  const outside: string[] = [];
  const own = new URL(on.url).origin;
  await context.route(
    (url) => url.origin !== own,
    async (route) => {
      const url = route.request().url();
      outside.push(url);
      if (url.startsWith("https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js")) {
        await route.fulfill({ status: 200, contentType: "text/javascript", body: "window.__partnerRuns = (window.__partnerRuns || 0) + 1;" });
      } else {
        await route.abort();
      }
    },
  );
  return outside;
}

const banner = (page: Page) => page.getByTestId("consent-banner");
const partnerRequests = (outside: string[]) => outside.filter((url) => /googlesyndication|doubleclick|google\./.test(url));

test("antes da escolha nada do parceiro é pedido (nem preconnect); 'Aceitar' carrega o script uma vez e os dois anúncios", async ({
  page,
  context,
}) => {
  const outside = await recordOutside(context);
  const violations = await watchViolations(page);
  const response = await openPage(page, site, "/");
  // Nothing of the partner in the page itself (no script, no preconnect, no dns-prefetch): it is shared by everyone.
  expect(await response.text()).not.toMatch(/googlesyndication|doubleclick|adsbygoogle/);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole("link", { name: t.consent.preferences })).toHaveAttribute("href", "/userLicence#preferencias");
  await expect(page.getByTestId("ad-slot")).toHaveCount(2);
  await expect(page.getByTestId("ad-unit")).toHaveCount(0);
  // Browse a little without choosing: still nothing.
  await page.getByRole("link", { name: "Primeira notícia" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Primeira notícia" })).toBeVisible();
  await openPage(page, site, "/");
  expect(partnerRequests(outside)).toEqual([]);

  // Equal weight: the same look and size for both answers.
  const accept = banner(page).getByRole("button", { name: t.consent.accept, exact: true });
  const refuse = banner(page).getByRole("button", { name: t.consent.refuse, exact: true });
  const look = (button: typeof accept) =>
    button.evaluate((element) => {
      const style = getComputedStyle(element);
      return [element.className, style.backgroundColor, style.color, style.fontSize, style.fontWeight, element.getBoundingClientRect().height];
    });
  expect(await look(accept)).toEqual(await look(refuse));

  await accept.click();
  await expect(page).toHaveURL(`${site.url}/`);
  await expect(page.getByTestId("ad-unit")).toHaveCount(2);
  await expect.poll(() => partnerRequests(outside)).toEqual([SCRIPT_URL]);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __partnerRuns?: number }).__partnerRuns)).toBe(1);
  await expect(banner(page)).toHaveCount(0);
  // The units name the configured publisher and slots.
  await expect(page.getByTestId("ad-unit").first()).toHaveAttribute("data-ad-client", CLIENT);
  await expect(page.getByTestId("ad-unit").nth(1)).toHaveAttribute("data-ad-slot", "2222222222");
  // Kept for 6 months.
  const cookie = (await context.cookies()).find((item) => item.name === "eef.consent");
  expect(cookie?.value).toBe("accepted");
  const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(179);
  expect(days).toBeLessThan(181);
  // The answer's policy allowed the partner's script: no violation.
  expect(violations).toEqual([]);
});

test("'Recusar': nenhum pedido ao parceiro, nem depois de navegar; os espaços ficam como estão", async ({ page, context }) => {
  const outside = await recordOutside(context);
  await openPage(page, site, "/");
  await banner(page).getByRole("button", { name: t.consent.refuse, exact: true }).click();
  await expect(page).toHaveURL(`${site.url}/`);
  await expect(banner(page)).toHaveCount(0);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await expect(page.getByTestId("ad-slot")).toHaveCount(2);
  await expect(page.getByTestId("ad-slot").first()).toContainText(t.home.adText);
  await expect(page.getByTestId("ad-unit")).toHaveCount(0);
  await openPage(page, site, "/news-list");
  await openPage(page, site, "/");
  await expect(banner(page)).toHaveCount(0);
  expect(partnerRequests(outside)).toEqual([]);
  expect((await context.cookies()).find((item) => item.name === "eef.consent")?.value).toBe("refused");
});

test("a escolha muda na política de privacidade, aberta pelo link do rodapé", async ({ page, context }) => {
  const outside = await recordOutside(context);
  await openPage(page, site, "/");
  await banner(page).getByRole("button", { name: t.consent.refuse, exact: true }).click();
  await expect(banner(page)).toHaveCount(0);
  await page.getByRole("contentinfo").getByRole("link", { name: t.consent.footerLink }).click();
  await expect(page).toHaveURL(`${site.url}/userLicence#preferencias`);
  const preferences = page.getByTestId("ad-preferences");
  await expect(preferences.getByTestId("consent-current")).toHaveText(t.consent.currentRefused);
  await preferences.getByRole("button", { name: t.consent.accept, exact: true }).click();
  await expect(page).toHaveURL(`${site.url}/userLicence`);
  await expect(page.getByTestId("consent-current")).toHaveText(t.consent.currentAccepted);
  expect(partnerRequests(outside)).toEqual([]);
  await openPage(page, site, "/");
  await expect.poll(() => partnerRequests(outside)).toEqual([SCRIPT_URL]);
});

test("sem ADSENSE_CLIENT: nenhum banner, nenhum link de preferências, nada do parceiro", async ({ page, context, standardSite }) => {
  const outside = await recordOutside(context, standardSite);
  await openPage(page, standardSite, "/");
  await expect(page.getByTestId("ad-slot")).toHaveCount(2);
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByRole("link", { name: t.consent.footerLink })).toHaveCount(0);
  expect(partnerRequests(outside)).toEqual([]);
});

test("POST /consentimento volta só a uma página deste site: nenhum endereço leva a outro (redirecionamento aberto)", async ({ playwright }) => {
  const request = await playwright.request.newContext({ maxRedirects: 0 });
  const choose = (voltar: string) =>
    request.post(`${site.url}/consentimento`, { form: { escolha: "recusar", voltar }, headers: { Origin: site.url } });
  expect((await choose("/news-list?tab=1")).headers().location).toBe("/news-list?tab=1");
  // A tab or newline is dropped by browsers (`/\t/x` → `//x`), a backslash read as a slash, `..` resolved.
  for (const voltar of [
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\\evil.example",
    "/..//evil.example",
    "/%2F%2Fevil.example",
    "https://evil.example/",
  ]) {
    const answer = await choose(voltar);
    expect(answer.status(), voltar).toBe(303);
    expect(answer.headers().location, JSON.stringify(voltar)).toBe("/userLicence");
  }
  await request.dispose();
});
