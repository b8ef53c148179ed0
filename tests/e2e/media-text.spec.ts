import type { Page } from "@playwright/test";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import { apiHeaders, countRows, expect, openPage, signInAsAdmin, siteQuery, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

// Image descriptions (alt), captions and credits: the form, the API, the article, the lightbox and the cards.
let site: RunningSite;
let oldId: string;
const OLD_TITLE = "Foto antiga sem descrição";

test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  site = await startSite({
    async setup(services) {
      // Stored before descriptions existed: no description, caption or credit.
      oldId = await createNews(services, { title: OLD_TITLE, media: "image", createdAt: "2026-01-01T12:00:00.000Z" });
    },
  });
});

test.afterAll(async () => {
  await site?.stop();
});

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const fileInput = (page: Page) => page.locator('input[type="file"][name="media"]');

test.describe("descrição, legenda e crédito das imagens", () => {
  test("uma imagem nova sem descrição é recusada com a mensagem em português, sem perder nada do formulário", async ({ page }) => {
    await signInAsAdmin(page, site);
    await openPage(page, site, "/add-news");
    const title = "Levantadora brilha na final";
    await field(page, t.newsForm.title).fill(title);
    await field(page, t.newsForm.subtitle).fill("Final decidida no tie-break.");
    await field(page, t.newsForm.fullContent).fill("Texto da final.");
    await field(page, t.newsForm.category).fill("Vôlei");
    await field(page, t.newsForm.mediaCaption).fill("Final da Superliga, no ginásio lotado.");
    await field(page, t.newsForm.mediaCredit).fill("Ana Lima/Agência");
    await fileInput(page).setInputFiles({ name: "final.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(1200, 675) });
    await expect(page.getByTestId("media-preview")).toBeVisible();
    const before = await countRows(site, "news");

    await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    const description = field(page, t.newsForm.mediaDescription);
    await expect(page.getByText(t.newsForm.mediaDescriptionRequired, { exact: true })).toBeVisible();
    await expect(description).toHaveAttribute("aria-invalid", "true");
    // Everything typed and the picked file are still there; nothing was sent.
    await expect(field(page, t.newsForm.title)).toHaveValue(title);
    await expect(field(page, t.newsForm.subtitle)).toHaveValue("Final decidida no tie-break.");
    await expect(field(page, t.newsForm.category)).toHaveValue("Vôlei");
    await expect(field(page, t.newsForm.mediaCaption)).toHaveValue("Final da Superliga, no ginásio lotado.");
    await expect(field(page, t.newsForm.mediaCredit)).toHaveValue("Ana Lima/Agência");
    await expect(page.getByTestId("media-name")).toHaveText("final.jpg");
    expect(await countRows(site, "news")).toBe(before);

    await description.fill("Levantadora salta para tocar a bola junto à rede.");
    await expect(page.getByText(t.newsForm.mediaDescriptionRequired, { exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect(page.getByTestId("banner-success")).toBeVisible({ timeout: 15_000 });
    const [row] = await siteQuery<{ id: string }>(site, "SELECT id FROM news WHERE title = ?", title);
    expect(row).toBeTruthy();

    // The article: the description is the image's alt, the caption and the credit are under it.
    await openPage(page, site, `/article/${row!.id}`);
    const trigger = page.getByRole("button", { name: t.article.openMedia });
    await expect(trigger.locator("img")).toHaveAttribute("alt", "Levantadora salta para tocar a bola junto à rede.");
    const caption = page.getByRole("main").getByTestId("media-caption");
    await expect(caption).toContainText("Final da Superliga, no ginásio lotado.");
    await expect(caption).toContainText("Foto: Ana Lima/Agência");
    // …and in the full-screen view.
    await trigger.click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("img", { name: "Levantadora salta para tocar a bola junto à rede." })).toBeVisible();
    await expect(dialog.getByTestId("media-caption")).toContainText("Final da Superliga, no ginásio lotado.");
    await expect(dialog.getByTestId("media-caption")).toContainText("Foto: Ana Lima/Agência");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    // The cards use it too.
    await openPage(page, site, "/news-list");
    const card = page.getByTestId("news-card").filter({ hasText: title });
    await expect(card.locator("img")).toHaveAttribute("alt", "Levantadora salta para tocar a bola junto à rede.");
  });

  test("a API recusa uma imagem nova sem descrição (400, com o campo) e guarda nada", async ({ page }) => {
    await signInAsAdmin(page, site);
    const news = await countRows(site, "news");
    const media = await countRows(site, "media");
    const response = await page.context().request.post(`${site.url}/api/news`, {
      headers: apiHeaders(site),
      multipart: {
        title: "Sem descrição pela API",
        subtitle: "S.",
        category: "Futebol",
        media: { name: "foto.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(640, 360) },
      },
    });
    expect(response.status()).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "media_description_required",
        message: t.newsForm.mediaDescriptionRequired,
        fields: { mediaDescription: [t.newsForm.mediaDescriptionRequired] },
      },
    });
    expect(await countRows(site, "news")).toBe(news);
    expect(await countRows(site, "media")).toBe(media);
  });

  test("uma imagem antiga sem descrição continua funcionando: alt com o título, e a legenda pode ser posta ao editar", async ({ page }) => {
    await openPage(page, site, `/article/${oldId}`);
    await expect(page.getByRole("button", { name: t.article.openMedia }).locator("img")).toHaveAttribute("alt", OLD_TITLE);
    await expect(page.getByTestId("media-caption")).toHaveCount(0);

    await signInAsAdmin(page, site);
    await openPage(page, site, `/edit-news/${oldId}`);
    await expect(field(page, t.newsForm.mediaDescription)).toHaveValue("");
    await field(page, t.newsForm.mediaCaption).fill("Arquivo do clube.");
    await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
    await expect(page.getByTestId("banner-success")).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(new RegExp(`/article/${oldId}`), { timeout: 15_000 });
    await expect(page.getByTestId("media-caption")).toHaveText("Arquivo do clube.");
    await expect(page.getByRole("button", { name: t.article.openMedia }).locator("img")).toHaveAttribute("alt", OLD_TITLE);
  });
});
