import sharp from "sharp";
import { createNews } from "#tests/factories/news.ts";
import { createNewsThroughApi, expect, makeMp4, openPage, signInAsAdmin, siteQuery, test } from "./support/fixtures.ts";

// An uploaded video gets a poster frame made on the server (the app's own ffmpeg), used on the cards, in the
// article and in link previews. Videos without one (stored before, or whose poster failed) keep working.

test("um vídeo enviado ganha pôster: no card, no artigo e na prévia de link", async ({ launchSite, browser, page }) => {
  // A site of its own, a sign-in, an upload that runs ffmpeg twice and sharp: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  let oldVideoId = "";
  const site = await launchSite({
    env: { LOGIN_RATE_LIMIT: "1000" },
    async setup(services) {
      // A video stored without a poster (its bytes are no real video, as for a poster that could not be made).
      oldVideoId = await createNews(services, { title: "Vídeo antigo", media: "video", createdAt: "2026-01-01T12:00:00.000Z" });
    },
  });
  const admin = await browser.newContext();
  await signInAsAdmin(admin, site);
  const mp4 = makeMp4();
  const id = await createNewsThroughApi(admin, site, { title: "Gols da rodada em vídeo" }, { name: "gols.mp4", mimeType: "video/mp4", buffer: mp4 });
  await admin.close();

  // Stored beside the video: its size, length and the poster's variants.
  const [row] = await siteQuery<{ width: number; height: number; duration_ms: number; variants: string }>(
    site,
    "SELECT media.width, media.height, media.duration_ms, media.variants FROM news JOIN media ON media.id = news.media_id WHERE news.id = ?",
    id,
  );
  expect(row).toMatchObject({ width: 320, height: 240 });
  expect(Number(row!.duration_ms)).toBeGreaterThanOrEqual(900);
  expect(JSON.parse(row!.variants)).toHaveLength(2);

  // The home card: the poster, and the video file is not fetched before a play.
  const videoRequests: string[] = [];
  page.on("request", (request) => {
    if (/\/vid\/.+\.mp4/.test(request.url())) videoRequests.push(request.url());
  });
  await openPage(page, site, "/");
  const card = page.getByTestId("news-card").filter({ hasText: "Gols da rodada em vídeo" }).first();
  const cardVideo = card.locator("video");
  await expect(cardVideo).toHaveAttribute("poster", /^\/media\/[a-f0-9]{12}\/img\/.+\/320\.webp$/);
  const poster = (await cardVideo.getAttribute("poster"))!;
  const answer = await page.request.get(site.url + poster);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("image/webp");
  expect(await sharp(await answer.body()).metadata()).toMatchObject({ format: "webp", width: 320, height: 240 });
  // The video file itself is not fetched for the card (the old video's card does fetch its own, for its first frame).
  const videoSrc = (await cardVideo.getAttribute("src"))!;
  expect(videoSrc).toMatch(/^\/media\/[a-f0-9]{12}\/vid\/.+\.mp4$/);
  expect(videoRequests.filter((url) => new URL(url).pathname === videoSrc)).toEqual([]);

  // The old video without a poster still shows, as before: no poster attribute, its first frame.
  const oldCard = page.getByTestId("news-card").filter({ hasText: "Vídeo antigo" }).first();
  await expect(oldCard.locator("video")).toHaveCount(1);
  await expect(oldCard.locator("video")).not.toHaveAttribute("poster", /./);

  // The article: the same poster on its player.
  await openPage(page, site, `/article/${id}`);
  const player = page.locator("article figure video");
  await expect(player).toHaveAttribute("poster", poster);
  await expect(player).toHaveAttribute("src", /^\/media\/[a-f0-9]{12}\/vid\/.+\.mp4$/);

  // Link previews: og:image is the poster's JPEG, which answers as an image.
  const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(ogImage).toMatch(/\/media\/[a-f0-9]{12}\/img\/.+\/320\.jpg$/);
  const jpeg = await page.request.get(site.url + new URL(ogImage!).pathname);
  expect(jpeg.status()).toBe(200);
  expect(jpeg.headers()["content-type"]).toBe("image/jpeg");
  await expect(page.locator('meta[property="og:image:type"]')).toHaveAttribute("content", "image/jpeg");

  // The old video's article: no poster, the branded card in previews.
  await openPage(page, site, `/article/${oldVideoId}`);
  await expect(page.locator("article figure video")).not.toHaveAttribute("poster", /./);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/images\/og-padrao\.png$/);
});
