import type { BrowserContext } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import type { RunningSite, SiteOptions } from "#tests/factories/site.ts";
import { expect, openPage, t, test, watchViolations } from "./support/fixtures.ts";

// Posts from other sites inside an article: a static block until the reader clicks, then the provider's player.
// Nothing here reaches the internet: every request to another host is answered by the test (and recorded).

const POSTS = {
  youtube: {
    line: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
    href: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    frame: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1",
  },
  instagram: {
    line: "https://www.instagram.com/p/C1a2B3c4D5e/?igsh=abc",
    href: "https://www.instagram.com/p/C1a2B3c4D5e/",
    frame: "https://www.instagram.com/p/C1a2B3c4D5e/embed/",
  },
  x: {
    line: "https://twitter.com/CBF_Futebol/status/1790000000000000001?s=20",
    href: "https://x.com/i/status/1790000000000000001",
    frame: "https://platform.twitter.com/embed/Tweet.html?id=1790000000000000001&dnt=true&lang=pt",
  },
  tiktok: {
    line: "https://www.tiktok.com/@cbf.futebol/video/7350000000000000000",
    href: "https://www.tiktok.com/@cbf.futebol/video/7350000000000000000",
    frame: "https://www.tiktok.com/player/v1/7350000000000000000",
  },
} as const;

const CONTENT = [
  "O gol da rodada, em vídeo:",
  "",
  `  ${POSTS.youtube.line}  `,
  "",
  "A comemoração nas redes:",
  POSTS.instagram.line,
  POSTS.x.line,
  POSTS.tiktok.line,
  "Link no meio do texto continua texto: https://youtu.be/dQw4w9WgXcQ e <b>isto</b> não é HTML.",
].join("\n");

/** Answers every request to a host other than the site's with a tiny page, and records it. */
async function blockThirdParties(context: BrowserContext, site: RunningSite): Promise<string[]> {
  const siteOrigin = new URL(site.url).origin;
  const requested: string[] = [];
  await context.route(
    (url) => url.origin !== siteOrigin,
    async (route) => {
      requested.push(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: "<!doctype html><title>player</title><p>player</p>" });
    },
  );
  return requested;
}

/** A site with one article whose text holds a post of each provider, and that article's path. */
async function embedSite(launchSite: (options?: SiteOptions) => Promise<RunningSite>) {
  let id = "";
  const site = await launchSite({
    async setup(services) {
      id = await createNews(services, { title: "Rodada com vídeos", fullContent: CONTENT, media: null });
    },
  });
  return { site, path: `/article/${id}` };
}

test.describe("embeds de redes sociais", () => {
  test("nada é pedido a terceiros antes do clique; o clique carrega o player certo em um iframe", async ({ page, context, launchSite }) => {
    const { site, path } = await embedSite(launchSite);
    const requested = await blockThirdParties(context, site);
    const violations = await watchViolations(page);
    await openPage(page, site, path);
    await page.waitForLoadState("networkidle");

    const content = page.getByTestId("article-content");
    const embeds = content.locator("figure[data-embed]");
    await expect(embeds).toHaveCount(4);
    await expect(content.locator("iframe")).toHaveCount(0);
    for (const [provider, post] of Object.entries(POSTS)) {
      const name = t.embed.providers[provider as keyof typeof POSTS];
      const facade = content.locator(`figure[data-embed="${provider}"]`).getByRole("link");
      await expect(facade).toHaveAttribute("href", post.href);
      await expect(facade).toContainText(t.embed.load(name));
      await expect(facade).toContainText(t.embed.notice(name));
      // A post's card before the click is as tall as what it says, not its player's empty 560–620 px.
      if (provider !== "youtube") expect((await facade.boundingBox())!.height, provider).toBeLessThan(300);
    }
    // The text around the embeds stays text, with its line breaks, and nothing in it is HTML.
    const text = await content.innerText();
    expect(text).toContain("O gol da rodada, em vídeo:");
    expect(text).toContain("Link no meio do texto continua texto: https://youtu.be/dQw4w9WgXcQ e <b>isto</b> não é HTML.");
    await expect(content.locator("b")).toHaveCount(0);
    expect(requested, "nenhum pedido a outro site antes do clique").toEqual([]);

    // One click per embed: its player, and only its player, is requested.
    for (const [provider, post] of Object.entries(POSTS)) {
      const before = requested.length;
      const figure = content.locator(`figure[data-embed="${provider}"]`);
      await figure.getByRole("link").click();
      const frame = figure.locator("iframe");
      await expect(frame).toHaveAttribute("src", post.frame);
      await expect(frame).toHaveAttribute("title", t.embed.frameTitle(t.embed.providers[provider as keyof typeof POSTS]));
      await expect.poll(() => requested.slice(before)).toEqual([post.frame]);
      await expect(page.frameLocator(`figure[data-embed="${provider}"] iframe`).getByText("player")).toBeVisible();
      // Loaded: the player's own height.
      if (provider !== "youtube") expect((await figure.boundingBox())!.height, provider).toBeGreaterThanOrEqual(560);
    }
    // The same page, still: the click did not navigate.
    expect(page.url()).toBe(site.url + path);
    expect(violations).toEqual([]);
  });

  test("a CSP deixa a página abrir em frame só os players dessas redes", async ({ page, context, launchSite }) => {
    const { site, path } = await embedSite(launchSite);
    const requested = await blockThirdParties(context, site);
    const violations = await watchViolations(page);
    await openPage(page, site, path);
    await page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.src = "https://www.youtube.com/embed/dQw4w9WgXcQ";
      document.body.append(frame);
    });
    await expect.poll(() => violations.some((violation) => violation.startsWith("frame-src https://www.youtube.com"))).toBe(true);
    expect(requested).toEqual([]);
  });

  test.describe("sem JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("cada embed é um link comum para a publicação", async ({ page, context, launchSite }) => {
      const { site, path } = await embedSite(launchSite);
      const requested = await blockThirdParties(context, site);
      await page.goto(site.url + path);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
      const content = page.getByTestId("article-content");
      await expect(content.locator("iframe")).toHaveCount(0);
      await expect(content.getByRole("link")).toHaveCount(4);
      expect(requested).toEqual([]);
      const popup = page.waitForEvent("popup");
      await content.locator('figure[data-embed="x"]').getByRole("link").click();
      await (await popup).waitForLoadState();
      expect(requested).toEqual([POSTS.x.href]);
    });
  });
});
