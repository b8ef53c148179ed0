/**
 * The home's lead story keeps its photo whole: a 16:9 box (a 16:9 photo is neither cropped to the column's height nor
 * upscaled to fill it), a `sizes` that says how wide it is drawn, and the text on the image from 700 px, under it on
 * phones. The side cards beside it are rows on wide screens, so the column is not taller than the lead.
 */
import { expect, openPage, test } from "./support/fixtures.ts";

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 960, height: 800 },
  { width: 375, height: 800 },
]) {
  test(`a notícia principal da home fica em 16:9, sem corte pela altura da coluna (${viewport.width} px)`, async ({ page, standardSite }) => {
    await page.setViewportSize(viewport);
    await openPage(page, standardSite, "/");
    const lead = page.getByTestId("news-card").first();
    const image = lead.locator("img");
    await expect(image).toBeVisible();
    const box = (await image.boundingBox())!;
    // The image's box is 16:9 (within a pixel or two of rounding) whenever the title fits on it.
    expect(Math.abs(box.width / box.height - 16 / 9), `caixa da imagem ${box.width}×${box.height}`).toBeLessThan(0.03);
    expect(box.width).toBeLessThanOrEqual(viewport.width);
    const sizes = await image.getAttribute("sizes");
    expect(sizes).toContain("787px");
    const title = lead.getByRole("heading");
    const titleBox = (await title.boundingBox())!;
    if (viewport.width >= 700) {
      // Over the image, at its foot.
      expect(titleBox.y).toBeGreaterThan(box.y);
      expect(titleBox.y + titleBox.height).toBeLessThanOrEqual(box.y + box.height);
    } else {
      // Under it.
      expect(titleBox.y).toBeGreaterThanOrEqual(box.y + box.height);
    }
    if (viewport.width >= 900) {
      // The side cards are rows whose column is no taller than the lead, so the lead is not stretched.
      const side = page.getByTestId("news-card").nth(1);
      const sideBox = (await side.boundingBox())!;
      const sideImage = (await side.locator("img, video").first().boundingBox())!;
      expect(sideImage.x).toBeLessThan(sideBox.x + sideBox.width / 2);
      expect(sideImage.width).toBeLessThan(sideBox.width / 2);
      const leadCard = (await lead.boundingBox())!;
      expect(Math.abs(leadCard.height - box.height)).toBeLessThanOrEqual(2);
    }
  });
}
