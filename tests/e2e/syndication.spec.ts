import { Readable } from "node:stream";
import { parseFeed } from "@rowanmanning/feed-parser";
import { parseSitemap, parseSitemapIndex } from "sitemap";
import { expect, openPage, t, test } from "./support/fixtures.ts";

// The served feeds, sitemaps and robots.txt of a running site (their content is covered in
// tests/integration/syndication.test.ts): types, caching, absolute URLs from SITE_URL, discovery from the pages.

/** The site's public address (SITE_URL, on "localhost"): feeds and sitemaps build their absolute URLs from it. */
const publicUrl = (url: string) => url.replace("//127.0.0.1:", "//localhost:");
/** Back to the address the test talks to. */
const localUrl = (url: string) => url.replace("//localhost:", "//127.0.0.1:");

test.describe("feeds, sitemaps e robots.txt", () => {
  test("/rss.xml e /rss/destaques.xml são RSS 2.0 que um leitor de feeds entende, descobertos a partir das páginas", async ({
    page,
    request,
    standardSite,
  }) => {
    const latest = await request.get(`${standardSite.url}/rss.xml`);
    expect(latest.status()).toBe(200);
    expect(latest.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
    expect(latest.headers()["cache-control"]).toContain("public");
    expect(latest.headers()["x-content-type-options"]).toBe("nosniff");
    const feed = parseFeed(await latest.text());
    expect(feed.items.map((item) => item.title)).toEqual(standardSite.titlesNewestFirst.slice(0, 50));
    expect(feed.items[0]!.url).toMatch(new RegExp(`^${publicUrl(standardSite.url)}/article/${standardSite.ids.dated}/[a-z0-9-]+$`));

    const highlights = parseFeed(await (await request.get(`${standardSite.url}/rss/destaques.xml`)).text());
    expect(highlights.items.map((item) => item.title)).toEqual(standardSite.highlightedTitles);

    // Every page announces both feeds.
    for (const path of ["/", "/news-list", `/article/${standardSite.ids.dated}`, "/userLicence"]) {
      await openPage(page, standardSite, path);
      const alternates = page.locator('link[rel="alternate"][type="application/rss+xml"]');
      await expect(alternates).toHaveCount(2);
      expect(await alternates.evaluateAll((links) => links.map((link) => [link.getAttribute("href"), link.getAttribute("title")]))).toEqual([
        ["/rss.xml", t.feeds.latestLink],
        ["/rss/destaques.xml", t.feeds.highlightsLink],
      ]);
    }
  });

  test("/sitemap.xml é um índice cujas partes listam todas as notícias; robots.txt aponta para ele", async ({ request, standardSite }) => {
    const robots = await request.get(`${standardSite.url}/robots.txt`);
    expect(robots.status()).toBe(200);
    expect(robots.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    const site = publicUrl(standardSite.url);
    expect(await robots.text()).toContain(`Sitemap: ${site}/sitemap.xml`);

    const indexResponse = await request.get(`${standardSite.url}/sitemap.xml`);
    expect(indexResponse.headers()["content-type"]).toBe("application/xml; charset=utf-8");
    const index = await parseSitemapIndex(Readable.from([await indexResponse.text()]));
    const urls = index.map((entry) => entry.url);
    expect(urls).toEqual([`${site}/sitemaps/pages.xml`, `${site}/sitemaps/news.xml`, `${site}/sitemaps/articles-1.xml`]);
    const articles = await parseSitemap(Readable.from([await (await request.get(localUrl(urls[2]!))).text()]));
    const allIds = [...Object.values(standardSite.ids), ...standardSite.listIds];
    expect(articles.every((entry) => entry.url.startsWith(`${site}/article/`))).toBe(true);
    expect(articles.map((entry) => /\/article\/([^/]+)/.exec(entry.url)![1]).sort()).toEqual([...allIds].sort());

    const pages = await parseSitemap(Readable.from([await (await request.get(localUrl(urls[0]!))).text()]));
    expect(pages.map((entry) => entry.url)).toContain(`${site}/news-list`);
    const news = await request.get(localUrl(urls[1]!));
    expect(news.status()).toBe(200);
    expect(await news.text()).toContain('xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"');

    for (const missing of ["/sitemaps/articles-2.xml", "/sitemaps/articles-0.xml", "/sitemaps/outro.xml", "/sitemaps/..%2Fsitemap.xml"]) {
      expect((await request.get(`${standardSite.url}${missing}`)).status(), missing).toBe(404);
    }
  });
});
