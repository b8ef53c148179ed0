/**
 * The reader's theme (app/lib/theme.ts): the device's preference by default, the header's switch ("Tema":
 * Automático, Claro, Escuro) remembered on the device. The chosen theme is on the page before it is first painted:
 * the inline script in <head> sets it, which the page's Content-Security-Policy must allow both where the page
 * carries a nonce (a page for one signed-in viewer) and where it lists its scripts' hashes (a page
 * from the page cache). Checked with the site's JavaScript files blocked, so nothing but that script can have set it.
 * The newsroom stays light.
 */
import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, signInAsAdmin, test, watchViolations } from "./support/fixtures.ts";

/** The page's background (--color-page) in each theme. */
const LIGHT = "rgb(238, 241, 243)";
const DARK = "rgb(15, 20, 23)";

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const themeSwitch = (page: Page) => page.getByRole("combobox", { name: "Tema" });
const stored = (page: Page) => page.evaluate(() => localStorage.getItem("tema"));

/** Opens `path` with the site's scripts blocked: what the reader sees before any of them has run. */
async function openBeforeScripts(page: Page, url: string) {
  await page.route("**/assets/**/*.js", (route) => route.abort());
  const response = await page.goto(url);
  await page.unroute("**/assets/**/*.js");
  if (!response) throw new Error(`Sem resposta para ${url}`);
  // Not hydrated: the switch is not shown (it cannot work yet), its place is kept.
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated");
  await expect(themeSwitch(page)).toBeHidden();
  return response;
}

test("tema: Escuro lembrado antes da primeira pintura (página do cache e com nonce), Automático segue o aparelho, a redação fica clara", async ({
  page,
  launchSite,
}) => {
  const site = await launchSite({
    env: { PAGE_CACHE: "1" },
    async setup(services) {
      await createNews(services, { title: "Notícia do tema" });
    },
  });
  const violations = await watchViolations(page);
  await page.emulateMedia({ colorScheme: "light" });

  // No choice yet: the device's light preference.
  const first = await openPage(page, site, "/");
  expect(first.headers()["x-page-cache"]).toBe("miss");
  await expect(themeSwitch(page)).toBeVisible();
  await expect(themeSwitch(page)).toHaveValue("auto");
  expect(await background(page)).toBe(LIGHT);

  // "Escuro" under a light preference: dark at once, and remembered.
  await themeSwitch(page).selectOption({ label: "Escuro" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK);
  expect(await stored(page)).toBe("dark");

  // A page from the cache (its policy lists the inline scripts' hashes): dark before any of the site's files ran.
  const hit = await openBeforeScripts(page, `${site.url}/`);
  expect(hit.headers()["x-page-cache"]).toBe("hit");
  expect(hit.headers()["content-security-policy"]).not.toContain("'nonce-");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK);
  // And once hydrated, the switch says so.
  await openPage(page, site, "/");
  await expect(themeSwitch(page)).toHaveValue("dark");

  // A page rendered for this viewer alone (a member of the newsroom signed in: private, with a nonce): the same.
  await signInAsAdmin(page.context(), site);
  const own = await openBeforeScripts(page, `${site.url}/news-list`);
  expect(own.headers()["cache-control"]).toContain("private");
  expect(own.headers()["content-security-policy"]).toContain("'nonce-");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK);
  await openPage(page, site, "/news-list");
  await expect(themeSwitch(page)).toHaveValue("dark");
  await page.context().clearCookies();

  // "Automático": the choice is forgotten, the page follows the device's preference, also after a reload.
  await openPage(page, site, "/");
  await themeSwitch(page).selectOption({ label: "Automático" });
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  expect(await stored(page)).toBeNull();
  expect(await background(page)).toBe(LIGHT);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background(page)).toBe(DARK);
  await openPage(page, site, "/");
  expect(await background(page)).toBe(DARK);

  // "Claro" under a dark preference: light, also after a reload.
  await themeSwitch(page).selectOption({ label: "Claro" });
  expect(await background(page)).toBe(LIGHT);
  await openPage(page, site, "/");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await background(page)).toBe(LIGHT);

  // The newsroom stays light, whatever the choice, and has no switch.
  await themeSwitch(page).selectOption({ label: "Escuro" });
  await openPage(page, site, "/admin/login");
  await expect(page.locator("html")).toHaveAttribute("data-area", "redacao");
  expect(await background(page)).toBe(LIGHT);
  await expect(themeSwitch(page)).toHaveCount(0);

  expect(violations, "violações da CSP").toEqual([]);
});
