import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { parseFeed } from "@rowanmanning/feed-parser";
import { parseSitemap, parseSitemapIndex } from "sitemap";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { newsPatchSchema } from "#app/lib/news-schema.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { newsArticleJsonLd } from "#app/lib/seo.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { respondWith } from "#app/.server/syndication/respond.server.ts";
import { bodyHtml, createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-syndication-");

const SITE = {
  name: "Esporte em Foco",
  url: "https://esporte.example.com.br",
  description: "Notícias do esporte brasileiro.",
  defaultAuthor: "Redação Esporte em Foco",
};
const NOW = new Date("2026-11-20T12:00:00.000Z");
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

function syndicationOf(services: TestServices, partSize?: number) {
  return createSyndication({ db: services.database.db, store: services.store, site: SITE, now: () => NOW, ...(partSize ? { partSize } : {}) });
}

async function text(stream: Readable): Promise<string> {
  let out = "";
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe("RSS", () => {
  it("lists the latest 50 news, newest first, with full text, author, category and an image enclosure; a feed parser reads it", async () => {
    const services = await open();
    for (let i = 0; i < 52; i++) {
      await createNews(services, { title: `Rodada ${i}`, media: null, createdAt: hoursAgo(100 - i), subtitle: `Resumo ${i}` });
    }
    const pictured = await createNews(services, {
      title: "Seleção <vence> & convence",
      subtitle: "Goleada no Maracanã",
      fullContent: "Primeiro tempo.\nSegundo parágrafo com <script>alert(1)</script>.\n\nDepois do intervalo.",
      author: "Paula Andrade",
      category: "Futebol",
      media: "image",
      createdAt: hoursAgo(1),
    });
    const xml = await syndicationOf(services).rss({ highlightedOnly: false });
    const feed = parseFeed(xml);
    expect(feed.title).toBe(SITE.name);
    expect(feed.url).toBe(`${SITE.url}/`);
    expect(feed.language).toBe("pt-BR");
    expect(feed.items).toHaveLength(50);
    const [first, second] = feed.items;
    expect(first!.title).toBe("Seleção <vence> & convence");
    // The canonical address: the id, then the title as a slug.
    expect(first!.url).toBe(`${SITE.url}/article/${pictured}/selecao-vence-convence`);
    expect(first!.id).toBe(first!.url);
    expect(first!.description).toBe("Goleada no Maracanã");
    expect(first!.published?.toISOString()).toBe(hoursAgo(1));
    expect(first!.authors.map((author) => author.name)).toEqual(["Paula Andrade"]);
    expect(first!.categories.map((category) => category.label ?? category.term)).toEqual(["Futebol"]);
    // The full text, as HTML whose every character from the text is escaped (the parser hands the HTML back with
    // entities decoded, so the escaping is checked in the XML itself).
    expect(first!.content).toContain("<p>Primeiro tempo.<br/>Segundo parágrafo com");
    expect(first!.content).toContain("</p><p>Depois do intervalo.</p>");
    expect(xml).toContain("<p>Primeiro tempo.<br/>Segundo parágrafo com &lt;script&gt;alert(1)&lt;/script&gt;.</p>");
    expect(xml).not.toContain("<script>");
    const [enclosure] = first!.media;
    expect(enclosure?.url).toMatch(new RegExp(`^${SITE.url}/media/.+\\.jpe?g$`));
    expect(enclosure?.mimeType).toBe("image/jpeg");
    expect(enclosure?.length).toBeGreaterThan(1000);
    // Without a picture, no enclosure; without an author, the newsroom (as the article page says).
    expect(second!.title).toBe("Rodada 51");
    expect(second!.media).toEqual([]);
    expect(feed.items.at(-1)!.title).toBe("Rodada 3");
    expect(xml).toContain(`<atom:link href="${SITE.url}/rss.xml" rel="self" type="application/rss+xml"`);
  });

  it("the highlights feed has only highlighted news", async () => {
    const services = await open();
    await createNews(services, { title: "Comum", media: null, createdAt: hoursAgo(3) });
    await createNews(services, { title: "Destaque antigo", media: null, isHighlighted: true, createdAt: hoursAgo(5) });
    await createNews(services, { title: "Destaque novo", media: null, isHighlighted: true, createdAt: hoursAgo(2) });
    const feed = parseFeed(await syndicationOf(services).rss({ highlightedOnly: true }));
    expect(feed.title).toBe("Esporte em Foco: Destaques");
    expect(feed.items.map((item) => item.title)).toEqual(["Destaque novo", "Destaque antigo"]);
  });

  it("an empty site still has a valid feed", async () => {
    const services = await open();
    const feed = parseFeed(await syndicationOf(services).rss({ highlightedOnly: false }));
    expect(feed.items).toEqual([]);
    expect(feed.title).toBe(SITE.name);
  });
});

describe("sitemaps", () => {
  it("the index names the pages, the Google News sitemap and one part per partSize articles; the parts cover every article once", async () => {
    const services = await open();
    const ids: string[] = [];
    // 11 articles, ties on created_at across part boundaries (parts of 4).
    for (let i = 0; i < 11; i++) ids.push(await createNews(services, { media: null, createdAt: hoursAgo(500 - Math.floor(i / 3)) }));
    const syndication = syndicationOf(services, 4);
    const index = await parseSitemapIndex(await syndication.sitemapIndex());
    expect(index.map((entry) => entry.url)).toEqual([
      `${SITE.url}/sitemaps/pages.xml`,
      `${SITE.url}/sitemaps/news.xml`,
      `${SITE.url}/sitemaps/articles-1.xml`,
      `${SITE.url}/sitemaps/articles-2.xml`,
      `${SITE.url}/sitemaps/articles-3.xml`,
    ]);
    const seen: string[] = [];
    const sizes: number[] = [];
    for (const part of [1, 2, 3]) {
      const stream = await syndication.sitemapArticles(part);
      expect(stream).not.toBeNull();
      const entries = await parseSitemap(stream!);
      sizes.push(entries.length);
      for (const entry of entries) {
        expect(entry.lastmod).toEqual(expect.any(String));
        seen.push(/\/article\/([^/]+)\//.exec(entry.url)![1]!);
      }
    }
    expect(sizes).toEqual([4, 4, 3]);
    expect(seen.sort()).toEqual([...ids].sort());
    expect(await syndication.sitemapArticles(4)).toBeNull();
    expect(await syndication.sitemapArticles(0)).toBeNull();
  });

  it("parts are streamed in batches: a part larger than one database batch comes out whole and in order", async () => {
    const services = await open();
    const rows = Array.from({ length: 2_300 }, (_, i) => {
      const createdAt = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      return {
        id: `n${String(i).padStart(5, "0")}`,
        title: `T${i}`,
        subtitle: "s",
        full_content: "c",
        category: "Geral",
        author: "A",
        is_highlighted: 0,
        media_id: null,
        created_at: createdAt,
        published_at: createdAt,
        updated_at: createdAt,
      };
    });
    for (let start = 0; start < rows.length; start += 500) {
      await services.database.db
        .insertInto("news")
        .values(rows.slice(start, start + 500))
        .execute();
    }
    const syndication = syndicationOf(services, 10_000);
    const entries = await parseSitemap((await syndication.sitemapArticles(1))!);
    expect(entries.map((entry) => entry.url)).toEqual(rows.map((row) => `${SITE.url}/article/${row.id}/t${row.title.slice(1)}`));
    expect(await syndication.sitemapArticles(2)).toBeNull();
  });

  it("the Google News sitemap lists the last 48 hours, newest first, with the publication's name and language pt", async () => {
    const services = await open();
    await createNews(services, { title: "Velha", media: null, createdAt: hoursAgo(49) });
    const recent = await createNews(services, { title: "Clássico & polêmica", media: null, createdAt: hoursAgo(47) });
    const newest = await createNews(services, { title: "Urgente", media: null, createdAt: hoursAgo(1) });
    const xml = await text(await syndicationOf(services).sitemapNews());
    expect(xml).toContain('xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"');
    const entries = await parseSitemap(Readable.from([xml]));
    expect(entries.map((entry) => entry.url)).toEqual([`${SITE.url}/article/${newest}/urgente`, `${SITE.url}/article/${recent}/classico-polemica`]);
    expect(entries[1]!.news).toMatchObject({
      publication: { name: SITE.name, language: "pt" },
      publication_date: hoursAgo(47),
      title: "Clássico & polêmica",
    });
    expect(xml).toContain("<news:title>Clássico &amp; polêmica</news:title>");
  });

  it("the pages sitemap lists the home, both list tabs and the privacy policy", async () => {
    const services = await open();
    const entries = await parseSitemap(await syndicationOf(services).sitemapPages());
    expect(entries.map((entry) => entry.url)).toEqual([
      `${SITE.url}/`,
      `${SITE.url}/news-list`,
      `${SITE.url}/news-list?tab=1`,
      `${SITE.url}/userLicence`,
    ]);
  });

  it("an empty site, or no news in the last 48 hours, still gives valid (empty) sitemaps", async () => {
    const services = await open();
    const syndication = syndicationOf(services);
    const index = await parseSitemapIndex(await syndication.sitemapIndex());
    expect(index.map((entry) => entry.url.split("/").at(-1))).toEqual(["pages.xml", "news.xml", "articles-1.xml"]);
    expect(await parseSitemap((await syndication.sitemapArticles(1))!)).toEqual([]);
    expect(await syndication.sitemapArticles(2)).toBeNull();
    await createNews(services, { media: null, createdAt: hoursAgo(72) });
    const news = await text(await syndication.sitemapNews());
    expect(news).toContain('xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"');
    expect(await parseSitemap(Readable.from([news]))).toEqual([]);
  });
});

describe("sitemaps validate against the sitemaps.org schema (libxml2's xmllint)", () => {
  // The schema ships with the sitemap package; the Google News extension's schema is only online, so the news
  // sitemap is checked by the parser above.
  const schemaFile = path.join(path.dirname(createRequire(import.meta.url).resolve("sitemap/package.json")), "schema/sitemap.xsd");

  it("the pages sitemap and an article part are valid urlsets", async () => {
    const services = await open();
    for (let i = 0; i < 5; i++) await createNews(services, { title: `Jogo & "placar" <${i}>`, media: null, createdAt: hoursAgo(200 + i) });
    const syndication = syndicationOf(services, 3);
    const schema = { fileName: "sitemap.xsd", contents: fs.readFileSync(schemaFile, "utf8") };
    for (const [name, stream] of [
      ["pages.xml", await syndication.sitemapPages()],
      ["articles-1.xml", await syndication.sitemapArticles(1)],
      ["articles-2.xml", await syndication.sitemapArticles(2)],
    ] as const) {
      const result = await validateXML({ xml: { fileName: name, contents: await text(stream!) }, schema });
      expect(result.errors, name).toEqual([]);
      expect(result.valid, name).toBe(true);
    }
    // The control: the same check refuses a urlset that breaks the schema.
    const broken =
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>ontem</lastmod></url></urlset>';
    expect((await validateXML({ xml: { fileName: "broken.xml", contents: broken }, schema })).valid).toBe(false);
  });
});

describe("respondWith (the feeds' and sitemaps' HTTP answer)", () => {
  it("a streamed sitemap reaches the response as bytes, whole, also when the stream gives strings (what the page cache reads)", async () => {
    const services = await open();
    const request = new Request(`${SITE.url}/sitemaps/pages.xml`);
    for (const make of [
      (syndication: ReturnType<typeof syndicationOf>) => syndication.sitemapPages(),
      (syndication: ReturnType<typeof syndicationOf>) => syndication.sitemapNews(),
      () => Readable.from(['<?xml version="1.0"?>', "<urlset/>"]),
    ]) {
      const response = await respondWith(request, services, "application/xml", make);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.toString("utf8")).toMatch(/<urlset[^>]*\/?>/);
    }
  });
});

describe("robots.txt", () => {
  it("lets crawlers read the site but not the newsroom or the API, and points at the sitemap", async () => {
    const services = await open();
    const robots = syndicationOf(services).robotsTxt();
    expect(robots).toMatch(/^User-agent: \*$/m);
    for (const path of ["/admin/", "/add-news", "/edit-news/", "/SponsorManager", "/api/", "/events"]) {
      expect(robots).toContain(`Disallow: ${path}\n`);
    }
    expect(robots).not.toMatch(/^Disallow: \/$/m);
    expect(robots).toContain(`Sitemap: ${SITE.url}/sitemap.xml`);
  });
});

describe("bodyHtml (content:encoded)", () => {
  it("escapes every character that means something in HTML and keeps paragraphs and line breaks", () => {
    expect(bodyHtml(plainTextToDoc(`a & b < c > d " e ' f`), SITE.url)).toBe("<p>a &amp; b &lt; c &gt; d &quot; e &#x27; f</p>");
    expect(bodyHtml(plainTextToDoc("um\r\ndois\n\n\n três "), SITE.url)).toBe("<p>um<br/>dois</p><p>três</p>");
    expect(bodyHtml(plainTextToDoc(""), SITE.url)).toBe("");
  });

  it("renders the structure; links leave with nofollow unless they point at the site; embeds are links", () => {
    const doc: RichDoc = {
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Intertítulo" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "forte", marks: [{ type: "bold" }] },
            { type: "text", text: " fora", marks: [{ type: "link", attrs: { href: "https://example.org/x" } }] },
            { type: "text", text: " casa", marks: [{ type: "link", attrs: { href: `${SITE.url}/news-list` } }] },
          ],
        },
        { type: "paragraph", content: [{ type: "text", text: "https://youtu.be/dQw4w9WgXcQ" }] },
      ],
    };
    expect(bodyHtml(doc, SITE.url)).toBe(
      `<h2>Intertítulo</h2><p><strong>forte</strong><a href="https://example.org/x" rel="noopener noreferrer nofollow"> fora</a><a href="${SITE.url}/news-list"> casa</a></p>` +
        `<p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener noreferrer nofollow">https://www.youtube.com/watch?v=dQw4w9WgXcQ</a></p>`,
    );
  });
});

describe("when what readers read last changed (dateModified, dcterms:modified, lastmod)", () => {
  it("a highlight or a trip to the Lixeira and back moves none of them; a title correction moves all of them", async () => {
    const services = await open();
    const { db } = services.database;
    const id = await createNews(services, { title: "Antes da correção", media: null, createdAt: new Date(Date.now() - 3_600_000) });
    const syndication = createSyndication({ db, store: services.store, site: SITE });
    const lastmodOf = async () => (await parseSitemap((await syndication.sitemapArticles(1))!)).find((entry) => entry.url.includes(id))?.lastmod;
    const dateModified = async () => {
      const article = await services.news.getNews(id);
      const site = {
        ...SITE,
        footerTitle: SITE.name,
        contactEmail: null,
        privacyOfficer: null,
        timeZone: "America/Sao_Paulo",
        social: { instagram: "", twitter: "", facebook: "" },
        ads: null,
        alerts: true,
      };
      return newsArticleJsonLd(site, article, `/article/${id}`, { url: `${SITE.url}/x.png`, width: 1, height: 1, type: "image/png" }, "Redação")
        .dateModified;
    };
    const { published_at: published } = await db.selectFrom("news").select("published_at").where("id", "=", id).executeTakeFirstOrThrow();

    await services.newsEditor.setHighlight(id, true);
    await services.newsEditor.bulkAction("delete", [id], testsActor);
    await services.newsEditor.bulkAction("restore", [id], testsActor);
    await services.newsEditor.bulkAction("publish", [id], testsActor);
    syndication.invalidate();
    expect(await syndication.rss({ highlightedOnly: false })).not.toContain("dcterms:modified");
    expect(new Date((await lastmodOf())!).toISOString()).toBe(published);
    expect(await dateModified()).toBe(published);

    await services.newsEditor.patchNews(id, newsPatchSchema.parse({ title: "Depois da correção" }), null, testsActor);
    const { text_updated_at: corrected } = await db.selectFrom("news").select("text_updated_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(corrected! > published).toBe(true);
    syndication.invalidate();
    expect(await syndication.rss({ highlightedOnly: false })).toContain(`<dcterms:modified>${new Date(corrected!).toISOString()}</dcterms:modified>`);
    expect(new Date((await lastmodOf())!).toISOString()).toBe(corrected);
    expect(await dateModified()).toBe(corrected);
  });
});
