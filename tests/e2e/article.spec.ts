import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, mediaKeysOf, openPage, STANDARD, t, test } from "./support/fixtures.ts";

const DEFAULT_IMAGE = "/images/bola-padrao.svg";

const articleHeader = (page: Page) => page.locator("article header").first();

test.describe("artigo", () => {
  test("mostra título, subtítulo, categoria, autor e data longa em pt-BR", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(STANDARD.dated.title);
    await expect(articleHeader(page)).toContainText(STANDARD.dated.subtitle);
    await expect(articleHeader(page).getByText("Futebol", { exact: true })).toBeVisible();
    await expect(articleHeader(page)).toContainText(`${t.article.by} ${STANDARD.dated.author}`);
    // 2026-03-01T15:00:00Z is noon in São Paulo.
    const time = articleHeader(page).locator("time");
    await expect(time).toHaveText("1 de março de 2026, 12:00");
    await expect(time).toHaveAttribute("datetime", STANDARD.dated.createdAt);
    await expect(page).toHaveTitle(new RegExp(`^${STANDARD.dated.title}`));
  });

  test("categoria e autor em branco: 'Geral' e 'Redação Esporte em Foco'", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.generic}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(STANDARD.generic.title);
    await expect(articleHeader(page).getByText("Geral", { exact: true })).toBeVisible();
    await expect(articleHeader(page).getByText(t.news.defaultCategory, { exact: true })).toBeVisible();
    await expect(articleHeader(page).getByText("Redação Esporte em Foco", { exact: true })).toBeVisible();
    await expect(articleHeader(page)).toContainText(`${t.article.by} ${t.news.defaultAuthor("Esporte em Foco")}`);
  });

  test("o conteúdo mantém as quebras de linha", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    const content = page.getByTestId("article-content");
    // A blank line starts a paragraph, a single line break stays a line break (the body as structured content).
    await expect(content.locator("p")).toHaveCount(2);
    await expect(content.locator("p").first().locator("br")).toHaveCount(1);
    const text = await content.innerText();
    expect(text).toContain("Primeiro parágrafo da final.\nSegunda linha, com o placar.");
    expect(text).toContain("\n\nTerceiro parágrafo");
    // Rendered on separate lines: the block is at least three lines tall.
    const { height, lineHeight } = await content.evaluate((element) => ({
      height: element.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(element).lineHeight),
    }));
    expect(height).toBeGreaterThanOrEqual(3 * lineHeight);
  });

  test("o conteúdo é texto, nunca HTML", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.markup}`);
    const content = page.getByTestId("article-content");
    await expect(content).toHaveText("<b>negrito</b><script>window.__xss=1</script>");
    await expect(content.locator("b")).toHaveCount(0);
    await expect(content.locator("script")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });

  test("'Voltar às notícias' leva a /", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.generic}`);
    await page.getByRole("link", { name: "Voltar às notícias" }).click();
    await expect(page).toHaveURL(`${standardSite.url}/`);
    await expect(page.getByRole("heading", { name: t.home.recentTitle })).toBeVisible();
  });

  test("id inexistente: 404 com mensagem e 'Voltar ao início'", async ({ page, standardSite }) => {
    const response = await page.goto(`${standardSite.url}/article/nao-existe-123`);
    expect(response?.status()).toBe(404);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notícia não encontrada ou erro ao carregar");
    await expect(page.getByText(t.article.notFound)).toBeVisible();
    const back = page.getByRole("link", { name: "Voltar ao início", exact: true });
    await expect(back).toHaveText(t.article.backHome);
    await back.click();
    await expect(page).toHaveURL(`${standardSite.url}/`);
  });
});

test.describe("datas inválidas", () => {
  test("data que não é data aparece crua; data vazia mostra 'Data não disponível'", async ({ page, launchSite }) => {
    const ids: Record<string, string> = {};
    const site = await launchSite({
      async setup(services) {
        ids.raw = await createNews(services, { title: "Data crua", createdAt: "não é data", media: null });
        ids.blank = await createNews(services, { title: "Data em branco", createdAt: " ", media: null });
      },
    });
    await openPage(page, site, `/article/${ids.raw}`);
    await expect(articleHeader(page).locator("time")).toHaveText("não é data");
    await openPage(page, site, `/article/${ids.blank}`);
    await expect(articleHeader(page).locator("time")).toHaveText("Data não disponível");
    await expect(articleHeader(page).locator("time")).toHaveText(t.article.dateUnavailable);
  });
});

test.describe("lightbox da imagem", () => {
  test("clicar na imagem abre um diálogo; Escape fecha e devolve o foco", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    const trigger = page.getByRole("button", { name: t.article.openMedia });
    await expect(trigger.locator("img")).toBeVisible();
    await trigger.locator("img").click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleName(t.article.lightboxTitle(STANDARD.dated.title));
    await expect(dialog.getByRole("img", { name: STANDARD.dated.title })).toBeVisible();
    await expect(dialog.getByRole("button", { name: t.article.closeMedia })).toBeVisible();

    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });

  test("teclado: Enter abre, Tab fica dentro do diálogo, o botão fechar fecha", async ({ page, standardSite }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    const trigger = page.getByRole("button", { name: t.article.openMedia });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    const close = dialog.getByRole("button", { name: t.article.closeMedia });

    for (let index = 0; index < 4; index++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

    await close.click();
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });
});

test.describe("lightbox e o botão voltar", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("voltar (o do Android ou o do navegador) fecha a foto e fica no artigo; fechar pelo botão não deixa uma entrada a mais no histórico", async ({
    page,
    standardSite,
  }) => {
    await openPage(page, standardSite, "/");
    const article = `${standardSite.url}/article/${standardSite.ids.dated}`;
    await page.goto(article);
    await page.evaluate(() => window.scrollTo(0, 120));
    const trigger = page.getByRole("button", { name: t.article.openMedia });
    const dialog = page.getByRole("dialog");

    await trigger.locator("img").click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(`${article}#midia`);
    await page.goBack();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(article);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(STANDARD.dated.title);

    // Closed by its button: the entry it added goes too, so the next back leaves the article as usual.
    await trigger.locator("img").click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: t.article.closeMedia }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(article);
    await page.goBack();
    await expect(page).toHaveURL(`${standardSite.url}/`);
  });
});

test.describe("cabeçalho do artigo num celular de 360 px", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("compartilhar logo abaixo do título, WhatsApp primeiro; a etiqueta da categoria é um alvo de toque de 24 px", async ({
    page,
    standardSite,
  }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    const top = page.getByTestId("share-top");
    const links = top.getByRole("link");
    await expect(links.first()).toHaveAttribute("aria-label", t.share.on("WhatsApp"));
    await expect(links).toHaveCount(4);
    // In the header, above the media: reachable before scrolling.
    expect((await top.boundingBox())!.y).toBeLessThan(740);
    for (const link of await links.all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(24);
    const badge = page.locator("article header").first().getByRole("link", { name: STANDARD.dated.category });
    expect((await badge.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  });
});

test.describe("vídeo", () => {
  test("mostra <video controls> e o arquivo responde a Range com 206", async ({ page, standardSite, request }) => {
    await openPage(page, standardSite, `/article/${standardSite.ids.video}`);
    const video = page.locator("article figure video");
    await expect(video).toHaveCount(1);
    await expect(video).toHaveAttribute("controls", "");
    const src = await video.getAttribute("src");
    expect(src).toMatch(/^\/media\/.+\.mp4$/);

    const response = await request.get(standardSite.url + src, { headers: { Range: "bytes=0-9" } });
    expect(response.status()).toBe(206);
    expect(response.headers()["content-range"]).toMatch(/^bytes 0-9\/\d+$/);
    expect(response.headers()["accept-ranges"]).toBe("bytes");
    expect((await response.body()).length).toBe(10);

    // The full-screen view also works for videos.
    await page.getByRole("button", { name: t.article.openVideo }).click();
    await expect(page.getByRole("dialog").locator("video[controls]")).toHaveCount(1);
    await page.getByRole("dialog").getByRole("button", { name: t.article.closeMedia }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});

test.describe("imagem ausente", () => {
  test("um arquivo apagado do armazenamento cai na bola padrão", async ({ page, launchSite }) => {
    let id = "";
    const site = await launchSite({
      async setup(services) {
        id = await createNews(services, { title: "Imagem que vai sumir" });
      },
    });
    for (const key of await mediaKeysOf(site, id)) fs.rmSync(path.join(site.dataDir, "media", key), { force: true });

    await openPage(page, site, `/article/${id}`);
    const image = page.getByRole("button", { name: t.article.openMedia }).locator("img");
    await expect(image).toHaveAttribute("src", DEFAULT_IMAGE);
    await expect(image).toHaveAttribute("data-fallback", "true");

    // The news list card falls back too.
    await openPage(page, site, "/news-list");
    await expect(page.getByTestId("news-card").locator("img")).toHaveAttribute("src", DEFAULT_IMAGE);
  });
});
