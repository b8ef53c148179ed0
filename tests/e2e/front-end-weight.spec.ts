import type { APIRequestContext, Page } from "@playwright/test";
import { t as newsroom } from "../../app/i18n/newsroom.ts";
import { t as shared } from "../../app/i18n/pt-BR.ts";
import { expect, openPage, test } from "./support/fixtures.ts";
import type { RunningSite } from "../factories/site.ts";

/** What the server's HTML head asks the browser to preload, read with the browser's own HTML parser. */
interface HeadLink {
  rel: string;
  as: string | null;
  href: string | null;
  type: string | null;
  fetchpriority: string | null;
  imagesrcset: string | null;
  imagesizes: string | null;
  media: string | null;
  crossorigin: string | null;
}

async function serverHead(page: Page, request: APIRequestContext, site: RunningSite, path: string) {
  const html = await (await request.get(site.url + path)).text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, "text/html");
    const links = [...doc.head.querySelectorAll("link")].map((link) => ({
      rel: link.getAttribute("rel") ?? "",
      as: link.getAttribute("as"),
      href: link.getAttribute("href"),
      type: link.getAttribute("type"),
      fetchpriority: link.getAttribute("fetchpriority"),
      imagesrcset: link.getAttribute("imagesrcset"),
      imagesizes: link.getAttribute("imagesizes"),
      media: link.getAttribute("media"),
      crossorigin: link.getAttribute("crossorigin"),
    }));
    const sources = [...doc.querySelectorAll("main picture")].map((picture) => ({
      webp: picture.querySelector('source[type="image/webp"]')?.getAttribute("srcset") ?? null,
      sizes: picture.querySelector("img")?.getAttribute("sizes") ?? null,
      loading: picture.querySelector("img")?.getAttribute("loading") ?? null,
      fetchpriority: picture.querySelector("img")?.getAttribute("fetchpriority") ?? null,
    }));
    return { links, pictures: sources };
  }, html) as Promise<{
    links: HeadLink[];
    pictures: Array<{ webp: string | null; sizes: string | null; loading: string | null; fetchpriority: string | null }>;
  }>;
}

const imagePreloads = (links: HeadLink[]) => links.filter((link) => link.rel === "preload" && link.as === "image" && link.imagesrcset);

/** The preload is for the same WebP set, at the same sizes, as the picture the page shows first, and comes before every script and stylesheet. */
function expectPreloadOf(links: HeadLink[], picture: { webp: string | null; sizes: string | null }) {
  const [preload] = imagePreloads(links);
  expect(preload, "preload da imagem LCP").toBeDefined();
  expect(preload!.fetchpriority).toBe("high");
  expect(preload!.type).toBe("image/webp");
  expect(picture.webp).toMatch(/400\.webp 400w, .*800\.webp 800w/);
  expect(preload!.imagesrcset).toBe(picture.webp);
  expect(preload!.imagesizes).toBe(picture.sizes);
  const position = links.indexOf(preload!);
  const firstAsset = links.findIndex((link) => link.rel === "modulepreload" || link.rel === "stylesheet");
  expect(position).toBeLessThan(firstAsset);
}

test.describe("peso do front-end: imagem LCP, fontes, tamanho intrínseco", () => {
  test("home: o card principal é pré-carregado com srcset WebP e fetchpriority=high; o resto é preguiçoso", async ({
    page,
    request,
    standardSite,
  }) => {
    const { links, pictures } = await serverHead(page, request, standardSite, "/");
    expect(imagePreloads(links)).toHaveLength(1);
    expectPreloadOf(links, pictures[0]!);
    expect(pictures[0]).toMatchObject({ loading: "eager", fetchpriority: "high" });
    expect(pictures.slice(1).length).toBeGreaterThan(0);
    for (const picture of pictures.slice(1)) expect(picture).toMatchObject({ loading: "lazy", fetchpriority: null });
  });

  test("artigo: a mídia principal é pré-carregada com srcset WebP e fetchpriority=high", async ({ page, request, standardSite }) => {
    const { links, pictures } = await serverHead(page, request, standardSite, `/article/${standardSite.ids.dated}`);
    expect(imagePreloads(links)).toHaveLength(1);
    expectPreloadOf(links, pictures[0]!);
    expect(pictures[0]!.sizes).toBe("(min-width: 860px) 820px, 100vw");
  });

  test("lista: o primeiro card sempre; o 2º e o 3º só em telas largas (media), com imagens preguiçosas", async ({ page, request, standardSite }) => {
    const { links, pictures } = await serverHead(page, request, standardSite, "/news-list");
    const preloads = imagePreloads(links);
    expectPreloadOf(links, pictures[0]!);
    expect(preloads[0]!.media).toBeNull();
    expect(pictures[0]).toMatchObject({ loading: "eager", fetchpriority: "high" });
    // The standard list's 2nd and 3rd cards are pictures (the video is further down).
    expect(preloads.slice(1).map((link) => [link.imagesrcset, link.media])).toEqual(
      pictures.slice(1, 3).map((picture) => [picture.webp, "(min-width: 700px)"]),
    );
    for (const picture of pictures.slice(1)) expect(picture).toMatchObject({ loading: "lazy", fetchpriority: null });
  });

  test("fontes: duas pré-carregadas (woff2, crossorigin), só o subconjunto latino, font-display swap, cada arquivo baixado uma vez", async ({
    page,
    request,
    standardSite,
  }) => {
    const { links } = await serverHead(page, request, standardSite, "/");
    const fonts = links.filter((link) => link.rel === "preload" && link.as === "font");
    expect(fonts.map((link) => link.href)).toEqual([
      expect.stringMatching(/^\/assets\/barlow-condensed-latin-700-normal-[\w-]+\.woff2$/),
      expect.stringMatching(/^\/assets\/inter-latin-400-normal-[\w-]+\.woff2$/),
    ]);
    for (const font of fonts) expect(font).toMatchObject({ type: "font/woff2", crossorigin: "anonymous" });

    const fetched: string[] = [];
    page.on("request", (sent) => {
      if (sent.resourceType() === "font") fetched.push(new URL(sent.url()).pathname);
    });
    await openPage(page, standardSite, "/");
    await page.evaluate(() => document.fonts.ready);
    // A preload the page cannot use (wrong crossorigin mode) would be fetched a second time.
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    expect(new Set(fetched).size).toBe(fetched.length);
    for (const font of fonts) expect(fetched).toContain(font.href);
    for (const url of fetched) expect(url).toMatch(/-latin-\d{3}-normal-[\w-]+\.woff2$/);
    const faces = await page.evaluate(() =>
      [...document.fonts].map((face) => ({ family: face.family.replace(/"/g, ""), weight: face.weight, display: face.display })),
    );
    expect(faces.map((face) => `${face.family} ${face.weight}`).sort()).toEqual([
      "Barlow Condensed 600",
      "Barlow Condensed 700",
      "Inter 400",
      "Inter 600",
    ]);
    for (const face of faces) expect(face.display).toBe("swap");
  });

  for (const path of ["/", "/news-list", `/article/:dated`]) {
    test(`${path}: toda imagem tem largura e altura intrínsecas e nada se desloca ao carregar (celular)`, async ({ page, standardSite }) => {
      await page.setViewportSize({ width: 412, height: 823 });
      await page.addInitScript(() => {
        (window as unknown as { __shift: number }).__shift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
            if (!entry.hadRecentInput) (window as unknown as { __shift: number }).__shift += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
      });
      await openPage(page, standardSite, path.replace(":dated", standardSite.ids.dated));
      await page.evaluate(() => document.fonts.ready);
      const images = await page
        .locator("main img")
        .evaluateAll((elements) =>
          (elements as HTMLImageElement[]).map((image) => ({ width: image.getAttribute("width"), height: image.getAttribute("height") })),
        );
      expect(images.length).toBeGreaterThan(0);
      for (const image of images) {
        expect(Number(image.width)).toBeGreaterThan(0);
        expect(Number(image.height)).toBeGreaterThan(0);
      }
      // Scroll through so the lazy images arrive too, then read the shifts (Lighthouse's "good" is < 0.1).
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y <= height; y += 600) await page.mouse.wheel(0, 600);
      await expect
        .poll(() => page.locator("main img").evaluateAll((elements) => (elements as HTMLImageElement[]).every((image) => image.complete)))
        .toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.01);
    });
  }

  test("as páginas de leitor não baixam os textos da redação (issue 18: o JavaScript dos leitores não pode crescer)", async ({
    page,
    standardSite,
  }) => {
    // Every text of the newsroom's own sections that readers never see (and that the shared catalogue does not hold).
    const sharedTexts = new Set(leaves(shared));
    const own = Object.entries(newsroom)
      .filter(([section]) => !(section in shared))
      .flatMap(([, texts]) => leaves(texts))
      .filter((text) => text.length >= 20 && !sharedTexts.has(text) && !/["'`\\\n]/.test(text));
    expect(own.length).toBeGreaterThan(100);
    for (const path of ["/", "/news-list", `/article/${standardSite.ids.dated}`]) {
      const scripts: string[] = [];
      page.on("response", (response) => {
        if (response.request().resourceType() === "script") scripts.push(response.url());
      });
      await openPage(page, standardSite, path);
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const url of scripts) {
        const source = await (await page.request.get(url)).text();
        const found = own.filter((text) => source.includes(text));
        expect(found, `${path}: ${url}`).toEqual([]);
      }
      page.removeAllListeners("response");
    }
  });
});

/** The string leaves of a texts object (functions are left out: their text is built when called). */
function leaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [];
}
