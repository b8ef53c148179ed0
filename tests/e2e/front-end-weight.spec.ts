import type { APIRequestContext, Page } from "@playwright/test";
import { t as newsroom } from "#app/i18n/newsroom.ts";
import { t as shared } from "#app/i18n/pt-BR.ts";
import { expect, expectNoReload, markPage, openPage, test } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

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
    const webFaces = faces.filter((face) => !face.family.endsWith(" Fallback"));
    expect(webFaces.map((face) => `${face.family} ${face.weight}`).sort()).toEqual([
      "Barlow Condensed 600",
      "Barlow Condensed 700",
      "Inter 400",
      "Inter 600",
    ]);
    for (const face of webFaces) expect(face.display).toBe("swap");
  });

  test("fontes de reserva: a fonte local ajustada ocupa a largura da fonte da web (o texto não salta quando ela chega)", async ({
    page,
    standardSite,
  }) => {
    await openPage(page, standardSite, "/");
    await page.evaluate(() => document.fonts.ready);
    // Text the metrics were not computed from (the stand-ins are Liberation Sans and Liberation Sans Narrow here).
    const sample = "Goleiro defende pênalti aos 47 do segundo tempo, e o Tricolor segura o empate na Arena — 0 x 0 em São José";
    const widths = await page.evaluate(async (text) => {
      const measure = async (font: string) => {
        await document.fonts.load(font, text);
        const span = document.createElement("span");
        span.style.font = font;
        span.style.whiteSpace = "nowrap";
        span.style.position = "absolute";
        span.textContent = text;
        document.body.append(span);
        const { width } = span.getBoundingClientRect();
        span.remove();
        return width;
      };
      const fallbackLoaded = async (font: string) => (await document.fonts.load(font, text)).some((face) => face.family.includes("Fallback"));
      return {
        display700: [await measure('700 32px "Barlow Condensed"'), await measure('700 32px "Barlow Condensed Fallback"')],
        display600: [await measure('600 32px "Barlow Condensed"'), await measure('600 32px "Barlow Condensed Fallback"')],
        text400: [await measure('400 16px "Inter"'), await measure('400 16px "Inter Fallback"')],
        text600: [await measure('600 16px "Inter"'), await measure('600 16px "Inter Fallback"')],
        // The local font as it is, unscaled: what the stand-ins correct.
        unscaled: [await measure('700 32px "Barlow Condensed"'), await measure('700 32px "Liberation Sans Narrow"')],
        loaded: [await fallbackLoaded('700 32px "Barlow Condensed Fallback"'), await fallbackLoaded('400 16px "Inter Fallback"')],
      };
    }, sample);
    expect(widths.loaded).toEqual([true, true]);
    for (const [name, [web, fallback]] of [
      ["display700", widths.display700],
      ["display600", widths.display600],
      ["text400", widths.text400],
      ["text600", widths.text600],
    ] as const) {
      expect(Math.abs(fallback! / web! - 1), `${name}: ${fallback} px com a reserva, ${web} px com a fonte da web`).toBeLessThan(0.03);
    }
    expect(Math.abs(widths.unscaled[1]! / widths.unscaled[0]! - 1)).toBeGreaterThan(0.05);
  });

  test("estilos escritos na página: nenhuma folha bloqueia a primeira pintura, a hidratação as mantém e a navegação traz as da página nova", async ({
    page,
    request,
    standardSite,
  }) => {
    for (const path of ["/", "/news-list", `/article/${standardSite.ids.dated}`]) {
      const { links } = await serverHead(page, request, standardSite, path);
      const sheets = links.filter((link) => link.rel === "stylesheet");
      expect(sheets.length, path).toBeGreaterThanOrEqual(2);
      const html = await (await request.get(standardSite.url + path)).text();
      for (const sheet of sheets) {
        // Each stylesheet's text is in the head, followed by its link, disabled (not fetched, kept for hydration).
        expect(html, `${path} ${sheet.href}`).toContain(`<style data-href="${sheet.href}">`);
        expect(html).toMatch(new RegExp(`href="${sheet.href!.replace(/[.#]/g, "\\$&")}" disabled=""`));
      }
    }
    const styleRequests: string[] = [];
    const problems: string[] = [];
    page.on("request", (sent) => {
      if (sent.resourceType() === "stylesheet") styleRequests.push(new URL(sent.url()).pathname);
    });
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await openPage(page, standardSite, "/");
    await markPage(page);
    expect(styleRequests, "nenhuma folha de estilo baixada na primeira visita").toEqual([]);
    // Hydration kept the written styles (React matched the links and left the <style> elements alone).
    const inlined = await page.locator("head style[data-href]").count();
    expect(inlined).toBeGreaterThanOrEqual(3);
    const title = page.locator("header a").first();
    await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");
    await expect(title).toBeVisible();
    // A page the browser navigates to brings its own stylesheet as a link, as before.
    await page.locator(`main a[href^="/article/"]`).first().click();
    await expect(page).toHaveURL(/\/article\//);
    await expect(page.locator("article h1").first()).toBeVisible();
    await expectNoReload(page);
    expect(
      styleRequests.some((url) => /\/assets\/article-[\w-]+\.css$/.test(url)),
      styleRequests.join(", "),
    ).toBe(true);
    await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");
    await page.goBack();
    await expect(page).toHaveURL(`${standardSite.url}/`);
    await expect(page.locator("main picture").first()).toBeVisible();
    await expectNoReload(page);
    expect(problems, "sem erro de hidratação nem outro").toEqual([]);
  });

  for (const path of ["/", "/news-list", `/article/:dated`]) {
    test(`${path}: toda imagem tem largura e altura intrínsecas e nada se desloca ao carregar (celular)`, async ({ page, standardSite }) => {
      await page.setViewportSize({ width: 412, height: 823 });
      await watchLayoutShifts(page);
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
      expect(await layoutShift(page)).toBeLessThan(0.01);
    });
  }

  // Lighthouse's desktop and mobile runs over a slow link: "Slow 4G" (150 ms, 1.6 Mbit/s down, 750 kbit/s up) and a
  // CPU four times slower. The fonts arrive late there, and the text laid out in the stand-in faces (size-adjusted
  // Liberation Sans / Narrow here, Arial elsewhere) must not move when they do.
  for (const width of [360, 1366]) {
    // A club's page too: its "Receber alertas" appears with the hydration, in the place it held hidden.
    for (const path of ["/", "/article/:first", "/time/atletico-serrano"]) {
      test(`${path} a ${width} px em 4G lenta com a CPU 4× mais lenta: nada se desloca (CLS ≤ 0,02)`, async ({ page, demoSite }) => {
        test.slow();
        await page.setViewportSize({ width, height: width < 600 ? 800 : 768 });
        const target = path === "/article/:first" ? await firstArticlePath(page, demoSite) : path;
        expect(target, "um artigo na home").not.toBeNull();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6 * 1024 * 1024) / 8,
          uploadThroughput: (750 * 1024) / 8,
        });
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await watchLayoutShifts(page);
        await page.goto(demoSite.url + target!, { waitUntil: "load" });
        await page.evaluate(() => document.fonts.ready);
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.hydrated)).toBe("true");
        // Shifts are reported after the frame that made them.
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const fonts = await page.evaluate(() => [...document.fonts].filter((face) => face.status === "loaded").map((face) => face.family));
        expect(fonts, "as fontes da web chegaram durante a medida").toContain("Barlow Condensed");
        expect(await layoutShift(page)).toBeLessThanOrEqual(0.02);
      });
    }
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

/** The address of the first story on the home (the demo's lead), read without throttling. */
async function firstArticlePath(page: Page, site: RunningSite): Promise<string | null> {
  const html = await (await page.request.get(`${site.url}/`)).text();
  return /href="(\/article\/[^"]+)"/.exec(html)?.[1] ?? null;
}

/** From the next page load on, adds up the page's layout shifts that no input caused (what CLS counts). */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { __shift: number }).__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) (window as unknown as { __shift: number }).__shift += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shifts added up so far (see `watchLayoutShifts`). */
function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}
