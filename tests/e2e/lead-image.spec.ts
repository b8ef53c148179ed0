import type { Page } from "@playwright/test";
import { createNews } from "../factories/news.ts";
import { expect, openPage, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "./support/site.ts";

/**
 * The home's main card: its picture (a 16:9 photo, 1200 px: variants 400, 800 and 1200) is never drawn larger than
 * the candidate the browser picked (the `sizes` match the layout), and from 900 px its box has the photo's own shape,
 * so nothing of it is cut away.
 */

let site: RunningSite;
test.beforeAll(async () => {
  site = await startSite({
    async setup(services) {
      for (const [index, title] of ["Lateral dois", "Lateral um", "Manchete com foto"].entries()) {
        await createNews(services, { title, createdAt: new Date(Date.UTC(2026, 10, 20 + index)) });
      }
    },
  });
});
test.afterAll(async () => {
  await site?.stop();
});

/** The main card's box and how wide its picture is drawn (cover: the wider of the box and its height at 16:9). */
async function leadImage(page: Page) {
  const image = page.getByTestId("news-card").first().locator("img");
  await expect(image).toHaveJSProperty("complete", true);
  return image.evaluate((element: HTMLImageElement) => {
    const box = element.getBoundingClientRect();
    const ratio = element.naturalWidth / element.naturalHeight;

    // The variant's own width is in its file name (…/1200.webp); naturalWidth is already divided by its density.
    const fileWidth = Number(/\/(\d+)\.\w+$/.exec(element.currentSrc)?.[1] ?? 0);
    return {
      boxRatio: box.width / box.height,
      drawnPixels: Math.max(box.width, box.height * ratio) * window.devicePixelRatio,
      fileWidth,
      current: element.currentSrc,
    };
  });
}

for (const { width, height, scale } of [
  { width: 1280, height: 900, scale: 1 },
  { width: 1000, height: 800, scale: 1 },
  { width: 375, height: 800, scale: 2 },
]) {
  test(`${width} px (${scale}x): a variante escolhida não é ampliada`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale });
    try {
      const page = await context.newPage();
      await openPage(page, site, "/");
      await expect(page.getByTestId("news-card").first()).toContainText("Manchete com foto");
      const lead = await leadImage(page);
      // At most a rounding pixel or two drawn beyond the picked file's own pixels (1.9× before).
      expect(lead.fileWidth, `${lead.current} desenhada com ${Math.round(lead.drawnPixels)} px`).toBeGreaterThanOrEqual(lead.drawnPixels * 0.98);
      if (width >= 900) {
        // The photo's own shape: nothing cut away.
        expect(lead.boxRatio).toBeGreaterThan(1.7);
        expect(lead.boxRatio).toBeLessThan(1.85);
      }
    } finally {
      await context.close();
    }
  });
}
