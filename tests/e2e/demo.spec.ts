import { expect, openPage, t, test } from "./support/fixtures.ts";

/**
 * The quick-start path: a fresh installation with SEED_DEMO=1 shows a complete-looking site, from the committed
 * demo/media files (no rendering at start).
 */
test.describe("conteúdo de demonstração", () => {
  test("home com notícias ilustradas, lista, destaques e patrocinadores", async ({ page, demoSite }) => {
    await openPage(page, demoSite, "/");
    await expect(page.getByTestId("placeholder-card")).toHaveCount(0);
    const cards = page.getByTestId("news-card");
    // 3 recent and 3 highlights, then the section blocks with what is left of their newest (Futebol's and
    // Automobilismo's): eight of the ten demo stories, none twice.
    await expect(cards).toHaveCount(8);
    const shown = await cards.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-news-id")));
    expect(new Set(shown).size).toBe(shown.length);

    // The main card's picture: stored media with responsive variants in WebP (the demo's originals are WebP, so the
    // variants are too and no separate <source> is needed).
    const picture = page.getByRole("region", { name: t.home.recentTitle }).getByTestId("news-card").first().locator("picture");
    const img = picture.locator("img");
    await expect(img).toHaveAttribute("src", /^\/media\//);
    const srcset = (await img.getAttribute("srcset")) ?? "";
    expect(srcset).toMatch(/\.webp 400w/);
    expect(srcset).toMatch(/\.webp 800w/);
    // The picture really loads.
    await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
    const imageResponse = await page.request.get(demoSite.url + (await img.getAttribute("src")));
    expect(imageResponse.status()).toBe(200);
    expect(imageResponse.headers()["content-type"]).toMatch(/^image\//);

    // Footer: the four demo sponsors.
    const sponsors = page
      .locator("footer")
      .last()
      .getByRole("img", { name: /^Patrocinador \d+$/ });
    await expect(sponsors).toHaveCount(4);
    await expect(page.getByText(t.footer.noSponsors)).toHaveCount(0);

    // News list: at least 8 news in several categories.
    await openPage(page, demoSite, "/news-list");
    const listCards = page.getByRole("tabpanel").getByTestId("news-card");
    expect(await listCards.count()).toBeGreaterThanOrEqual(8);
    const categories = await listCards.evaluateAll((elements) =>
      // Each card's category badge (a link to the category's page).
      elements.map((card) => card.querySelector('a[href^="/categoria/"]')?.textContent ?? ""),
    );
    expect(categories.every((category) => category.length > 0)).toBe(true);
    expect(new Set(categories).size).toBeGreaterThanOrEqual(4);

    // Highlights tab: at least one.
    await page.getByRole("tab", { name: t.newsList.tabHighlights }).click();
    await expect(page).toHaveURL(/\?tab=1$/);
    await expect(listCards.first()).toBeVisible();
    expect(await listCards.count()).toBeGreaterThanOrEqual(1);
    expect(await listCards.count()).toBeLessThan(categories.length);
  });

  test("um artigo de vídeo (o clipe de demo/media), com pôster", async ({ page, demoSite }) => {
    await openPage(page, demoSite, "/news-list");
    const videoCard = page
      .getByRole("tabpanel")
      .getByTestId("news-card")
      .filter({ has: page.locator("video") });
    await expect(videoCard).toHaveCount(1);
    await videoCard.click();
    await expect(page).toHaveURL(/\/article\//);
    const video = page.locator("article figure video");
    await expect(video).toHaveAttribute("controls", "");
    await expect(video).toHaveAttribute("src", /^\/media\/.+\.mp4$/);
    // The demo clip got its poster from the same ffmpeg: a WebP frame the server answers.
    const poster = await video.getAttribute("poster");
    expect(poster).toMatch(/^\/media\/.+\.webp$/);
    const answer = await page.request.get(demoSite.url + poster);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/webp");
    // The browser reads the clip's metadata: it is a real, playable video.
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.duration), { timeout: 15_000 }).toBeGreaterThan(1);
  });
});
