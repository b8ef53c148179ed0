import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, openPage, test } from "./support/fixtures.ts";
import type { RunningSite } from "./support/site.ts";

/** A stable folder, kept by CI as an artifact (outside Playwright's outputDir, which is emptied every run). */
const STABLE_DIR = path.resolve(import.meta.dirname, "../../test-results/screenshots");
const WIDTHS = [375, 1280] as const;

/** Scrolls through the page so every lazy image loads, waits for them, and goes back to the top. */
async function loadEveryImage(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = Math.max(300, (page.viewportSize()?.height ?? 800) - 100);
  for (let y = 0; y < height; y += step) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(() =>
      page
        .locator("img")
        .evaluateAll((images) =>
          (images as HTMLImageElement[]).every((image) => image.complete && (image.naturalWidth > 0 || image.dataset.fallback)),
        ),
    )
    .toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  // The scroll-to-top button hides itself at the top; wait so it is not in the picture.
  await expect(page.locator("button[data-visible]")).toBeHidden();
  await page.evaluate(() => document.fonts.ready);
}

async function shoot(page: Page, site: RunningSite, route: string, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 812 : 800 });
    await openPage(page, site, route);
    await loadEveryImage(page);
    const file = test.info().outputPath(`${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    fs.mkdirSync(STABLE_DIR, { recursive: true });
    const stable = path.join(STABLE_DIR, `${name}-${width}.png`);
    fs.copyFileSync(file, stable);
    await test.info().attach(`${name}-${width}`, { path: file, contentType: "image/png" });
    for (const saved of [file, stable]) {
      const size = fs.statSync(saved).size;
      expect(size, saved).toBeGreaterThan(10_000);
      // A PNG signature, not an empty or broken file.
      expect(fs.readFileSync(saved).subarray(1, 4).toString("latin1")).toBe("PNG");
    }
    // Nothing sticks out sideways (no horizontal scroll at this width).
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `rolagem horizontal em ${route} a ${width} px`).toBeLessThanOrEqual(0);
  }
}

test.describe("capturas de tela (site de demonstração)", () => {
  test.describe.configure({ timeout: 180_000 });

  test("home", async ({ page, demoSite }) => {
    await shoot(page, demoSite, "/", "home");
  });

  test("lista de notícias", async ({ page, demoSite }) => {
    await shoot(page, demoSite, "/news-list", "news-list");
  });

  test("artigo", async ({ page, demoSite }) => {
    await openPage(page, demoSite, "/");
    const href = await page.getByTestId("news-card").first().getByRole("link").first().getAttribute("href");
    expect(href).toMatch(/^\/article\//);
    await shoot(page, demoSite, href!, "article");
  });

  test("política de privacidade", async ({ page, demoSite }) => {
    await shoot(page, demoSite, "/userLicence", "privacy");
  });
});
