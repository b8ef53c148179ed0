import ogs from "open-graph-scraper";
import { expect, openPage, STANDARD, t, test } from "./support/fixtures.ts";

// What search engines and link previews (WhatsApp, X, Facebook, Telegram) read from the served HTML: the HTML as the
// server sends it is parsed by open-graph-scraper (the parser link-preview services use), and the JSON-LD by JSON.

/** The site's public address (SITE_URL is on "localhost"): canonical and preview URLs are built from it. */
const publicUrl = (url: string) => url.replace("//127.0.0.1:", "//localhost:");

async function htmlOf(url: string): Promise<string> {
  const response = await fetch(url, { headers: { "accept-encoding": "identity" } });
  expect(response.status).toBe(200);
  return response.text();
}

function jsonLdOf(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].flatMap((match) => JSON.parse(match[1]!));
}

function canonicalOf(html: string): string | null {
  return /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1] ?? null;
}

test.describe("prévias de link e SEO", () => {
  test("o artigo tem título, descrição, Open Graph, Twitter card, URL canônica com slug e NewsArticle em JSON-LD", async ({ standardSite }) => {
    const site = publicUrl(standardSite.url);
    const id = standardSite.ids.dated;
    const html = await htmlOf(`${standardSite.url}/article/${id}`);
    const canonical = canonicalOf(html);
    expect(canonical).toMatch(new RegExp(`^${site}/article/${id}/[a-z0-9-]+$`));

    const { result } = await ogs({ html });
    expect(result.ogTitle).toBe(STANDARD.dated.title);
    expect(result.ogDescription).toBe(STANDARD.dated.subtitle);
    expect(result.ogType).toBe("article");
    expect(result.ogUrl).toBe(canonical);
    expect(result.ogSiteName).toBe("Esporte em Foco");
    expect(result.ogLocale).toBe("pt_BR");
    expect(result.twitterCard).toBe("summary_large_image");
    expect(result.twitterTitle).toBe(STANDARD.dated.title);
    const [image] = result.ogImage ?? [];
    expect(image?.url).toMatch(new RegExp(`^${site}/media/.+\\.(jpe?g|png)$`));
    expect(Number(image?.width)).toBeGreaterThanOrEqual(800);
    expect(result.articlePublishedTime).toBe(new Date(STANDARD.dated.createdAt!).toISOString());
    expect(html).toMatch(/<title>[^<]+ \| Esporte em Foco<\/title>/);

    const [ld] = jsonLdOf(html);
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "NewsArticle",
      headline: STANDARD.dated.title,
      description: STANDARD.dated.subtitle,
      datePublished: new Date(STANDARD.dated.createdAt!).toISOString(),
      mainEntityOfPage: { "@id": canonical },
      publisher: { "@type": "Organization", name: "Esporte em Foco", logo: { url: `${site}/icons/icon-512.png` } },
    });
    expect((ld!.image as string[])[0]).toBe(image?.url);
    expect(typeof ld!.dateModified).toBe("string");
    expect(ld!.author).toMatchObject({ name: STANDARD.dated.author });
  });

  test("uma notícia sem imagem (aqui, um vídeo) usa o cartão da marca, e o endereço com slug errado leva ao certo (301)", async ({
    standardSite,
  }) => {
    const site = publicUrl(standardSite.url);
    const id = standardSite.ids.video;
    const { result } = await ogs({ html: await htmlOf(`${standardSite.url}/article/${id}`) });
    expect(result.ogImage?.[0]?.url).toBe(`${site}/images/og-padrao.png`);
    expect(result.ogImage?.[0]?.width).toBe("1200");
    const card = await fetch(`${standardSite.url}/images/og-padrao.png`);
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("image/png");

    const wrong = await fetch(`${standardSite.url}/article/${id}/titulo-antigo`, { redirect: "manual" });
    expect(wrong.status).toBe(301);
    expect(wrong.headers.get("location")).toMatch(new RegExp(`^/article/${id}/[a-z0-9-]+$`));
    const right = await fetch(new URL(wrong.headers.get("location")!, standardSite.url), { redirect: "manual" });
    expect(right.status).toBe(200);
  });

  test("home com Organization e WebSite (busca) em JSON-LD; lista e privacidade com descrição e canônica", async ({ standardSite }) => {
    const site = publicUrl(standardSite.url);
    const home = await htmlOf(`${standardSite.url}/`);
    expect(canonicalOf(home)).toBe(`${site}/`);
    const types = jsonLdOf(home).map((item) => item["@type"]);
    expect(types).toEqual(["Organization", "WebSite"]);
    const website = jsonLdOf(home)[1]!;
    expect(website.potentialAction).toMatchObject({ "@type": "SearchAction", target: { urlTemplate: `${site}/busca?q={search_term_string}` } });
    const { result } = await ogs({ html: home });
    expect(result.ogImage?.[0]?.url).toBe(`${site}/images/og-padrao.png`);

    for (const [path, canonical] of [
      ["/news-list", `${site}/news-list`],
      ["/news-list?tab=1&utm_source=x", `${site}/news-list?tab=1`],
      ["/userLicence", `${site}/userLicence`],
    ] as const) {
      const html = await htmlOf(standardSite.url + path);
      expect(canonicalOf(html), path).toBe(canonical);
      expect(html, path).toMatch(/<meta name="description" content="[^"]{20,}"/);
    }
  });

  test("manifesto e ícones para instalar o site na tela inicial", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    const response = await fetch(`${standardSite.url}/manifest.webmanifest`);
    expect(response.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: Array<{ src: string; sizes: string; purpose: string }>;
    };
    expect(manifest).toMatchObject({ name: "Esporte em Foco", start_url: "/", display: "standalone" });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const icon of manifest.icons) {
      const file = await fetch(standardSite.url + icon.src);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/png");
    }
  });
});

test.describe("compartilhar", () => {
  test("links simples para WhatsApp, X, Facebook e Telegram com o endereço canônico, e Copiar link com confirmação", async ({
    page,
    context,
    standardSite,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    const share = page.getByRole("region", { name: t.share.title });
    const expected: Array<[string, RegExp]> = [
      ["WhatsApp", /^https:\/\/wa\.me\/\?text=/],
      ["X", /^https:\/\/x\.com\/intent\/post\?/],
      ["Facebook", /^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=/],
      ["Telegram", /^https:\/\/t\.me\/share\/url\?url=/],
    ];
    for (const [app, pattern] of expected) {
      const link = share.getByRole("link", { name: t.share.on(app) });
      await expect(link).toHaveAttribute("href", pattern);
      expect(decodeURIComponent((await link.getAttribute("href"))!)).toContain(canonical!);
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
      await expect(link).toHaveAttribute("target", "_blank");
    }
    await share.getByRole("button", { name: t.share.copy }).click();
    await expect(share.getByRole("status")).toHaveText(t.share.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(canonical);
    // No third-party script or request: everything came from the site itself.
    const origin = new URL(standardSite.url).origin;
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:"))).toEqual([]);
  });
});
