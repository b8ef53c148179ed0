/**
 * Visual regression: five pages of the demo content at a cheap Android phone's width (360 px) and a common laptop's
 * (1366 px), two of them also in the dark theme,
 * compared with the committed baselines in tests/e2e/screenshots/ (see snapshotPathTemplate in playwright.config.ts),
 * with a small tolerance for anti-aliasing (maxDiffPixelRatio there).
 *
 * A picture must not change from one run to the next, so whatever moves is frozen:
 * - the content: the demo news and sponsors, seeded on a site of this file's own at a fixed date (DEMO_NOW), so the
 *   dates shown and the order never depend on the day the test runs;
 * - reads: the article page's read beacon is answered here with the server's own "204, not counted", so no
 *   "Mais lidas" list appears on the pictures taken after an article was shown;
 * - motion: reduced motion (the site's CSS then turns animations and transitions off), Playwright's
 *   `animations: "disabled"` and hidden caret, fonts loaded, every lazy image loaded, scrolled back to the top;
 * - the footer's year (the server's clock): masked; the site's address it shows: a fixed SITE_URL (the port is random);
 * - pictures, logos and video: masked, as flat boxes of their size and place. The photos are not what these tests look
 *   at (layout, spacing, colors, type), they would make the PNGs ten times bigger, and their resampling is the part
 *   of a drawing most likely to differ by a pixel from one machine to another.
 *
 * The baselines are drawn by Debian's Chromium (/usr/bin/chromium, the one CI uses). After a deliberate change of
 * the layout, look at the differences in the HTML report (test-results/report), then rewrite the baselines and commit
 * the PNGs:
 *   npm run build && npx playwright test tests/e2e/screenshots.spec.ts --update-snapshots
 */
import type { Page } from "@playwright/test";
import { seedDemoContent } from "#app/.server/seed/demo-seed.server.ts";
import { expect, openPage, test as base, perWorkerSite } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

/** The moment the demo content is seeded at: every date on the pages derives from it. */
const DEMO_NOW = new Date("2026-11-20T15:00:00.000Z");
const VIEWPORTS = [
  { width: 360, height: 740 },
  { width: 1366, height: 768 },
] as const;

const test = base.extend<{ frozenDemoSite: RunningSite }>({
  frozenDemoSite: perWorkerSite(
    "screenshots",
    { setup: (services) => seedDemoContent(services, DEMO_NOW).then(() => undefined), env: { SITE_URL: "http://localhost:3000" } },
    180_000,
  ),
});

test.use({ reducedMotion: "reduce" });

test.beforeEach(async ({ page }) => {
  await page.route("**/api/reads", (route) => route.fulfill({ status: 204, headers: { "Cache-Control": "no-store" } }));
});

/** Scrolls through the page so every lazy image loads, waits for them and the fonts, and goes back to the top. */
async function loadEveryImage(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = Math.max(300, (page.viewportSize()?.height ?? 800) - 100);
  for (let y = 0; y < height; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // A lazy image the scroll went past too fast (a busy machine skips intersection checks between steps) would never
  // start: every image is asked for now, whatever its place.
  await page.evaluate(() => {
    for (const image of document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]')) image.loading = "eager";
  });
  await expect
    .poll(
      () =>
        page
          .locator("img")
          .evaluateAll((images) =>
            (images as HTMLImageElement[]).every((image) => image.complete && (image.naturalWidth > 0 || image.dataset.fallback)),
          ),
      { timeout: 20_000 },
    )
    .toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  // The scroll-to-top button hides itself at the top; wait so it is not in the picture.
  await expect(page.locator("button[data-visible]")).toBeHidden();
  await page.evaluate(() => document.fonts.ready);
}

async function shoot(page: Page, site: RunningSite, route: string, name: string, colorScheme: "light" | "dark" = "light") {
  await page.emulateMedia({ colorScheme });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await openPage(page, site, route);
    await loadEveryImage(page);
    await expect(page, `${name} a ${viewport.width} px`).toHaveScreenshot(`${name}-${viewport.width}.png`, {
      fullPage: true,
      mask: [page.getByText(/^© \d{4} /), page.locator("img, video")],
      maskColor: "#9aa5b1",
    });
    // Nothing sticks out sideways (no horizontal scroll at this width).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `rolagem horizontal em ${route} a ${viewport.width} px`).toBeLessThanOrEqual(0);
  }
}

test.describe("capturas de tela (conteúdo de demonstração)", () => {
  test.describe.configure({ timeout: 180_000 });

  test("home", async ({ page, frozenDemoSite }) => {
    await shoot(page, frozenDemoSite, "/", "home");
  });

  test("lista de notícias", async ({ page, frozenDemoSite }) => {
    await shoot(page, frozenDemoSite, "/news-list", "news-list");
  });

  test("artigo", async ({ page, frozenDemoSite }) => {
    await openPage(page, frozenDemoSite, "/");
    const href = await page.getByTestId("news-card").first().getByRole("link").first().getAttribute("href");
    expect(href).toMatch(/^\/article\//);
    await shoot(page, frozenDemoSite, href!, "article");
  });

  test("página de um time", async ({ page, frozenDemoSite }) => {
    await shoot(page, frozenDemoSite, "/time/atletico-serrano", "team");
  });

  test("política de privacidade", async ({ page, frozenDemoSite }) => {
    await shoot(page, frozenDemoSite, "/userLicence", "privacy");
  });

  // The dark theme (the device's preference; the header's switch sets the same colors): the home and an article.
  test("home no tema escuro", async ({ page, frozenDemoSite }) => {
    await shoot(page, frozenDemoSite, "/", "home-dark", "dark");
  });

  test("artigo no tema escuro", async ({ page, frozenDemoSite }) => {
    await openPage(page, frozenDemoSite, "/");
    const href = await page.getByTestId("news-card").first().getByRole("link").first().getAttribute("href");
    await shoot(page, frozenDemoSite, href!, "article-dark", "dark");
  });
});
