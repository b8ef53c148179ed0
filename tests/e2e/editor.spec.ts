/**
 * The newsroom's news form (/add-news, /edit-news/{id}) and the delete icon of /news-list, in the browser against
 * the real server, real files and the real media store (DATA_DIR/media). Nothing is mocked; uploads are slowed
 * with Chromium's network emulation where their progress must be seen.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { formatBytes } from "#app/lib/format-bytes.ts";
import {
  bodyEditor,
  createNewsThroughApi,
  expect,
  expectNoReload,
  expectStatus,
  fillBody,
  lastPickedFile,
  makeMp4,
  makeNoisyJpeg,
  markPage,
  mediaKeysOf,
  openPage,
  runSql,
  siteQuery,
  signInAsAdmin,
  sizedFile,
  t,
  NEWSROOM_SITE,
  perWorkerSite,
  test as base,
  throttleUploads,
  watchPickedFiles,
} from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const test = base.extend<{ editorSite: RunningSite }>({
  editorSite: perWorkerSite("editor", NEWSROOM_SITE),
});

// Leave every page before the site stops (an open page keeps its live-updates connection).
test.afterEach(async ({ page }) => {
  await page.goto("about:blank");
});

let counter = 0;
/** A title no other test uses. */
const uniqueTitle = (what: string) => `${what} ${process.pid}-${Date.now().toString(36)}-${++counter}`;

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const mediaGroup = (page: Page) => page.getByRole("group", { name: "Mídia da Notícia" });
const fileInput = (page: Page) => page.locator('input[type="file"][name="media"]');
const submitCreate = (page: Page) => page.getByRole("button", { name: t.newsForm.submitCreate, exact: true });
const submitEdit = (page: Page) => page.getByRole("button", { name: t.newsForm.submitEdit, exact: true });
const successBanner = (page: Page) => page.getByTestId("banner-success");
const errorBanner = (page: Page) => page.getByTestId("banner-error");
/** A news card by its exact title (by text, not by role: an open modal dialog hides the page from the a11y tree). */
const cardOf = (page: Page, title: string) => page.getByTestId("news-card").filter({ has: page.locator("h2, h3").getByText(title, { exact: true }) });

/** Fills the form; the image description too (a new image needs one), "Imagem de teste." unless given. */
async function fillNews(
  page: Page,
  values: { title: string; subtitle: string; fullContent: string; category: string; author?: string; mediaDescription?: string },
) {
  await field(page, "Título").fill(values.title);
  await field(page, "Subtítulo").fill(values.subtitle);
  // The rich-text editor with JavaScript (typed: a blank line is a new paragraph); the plain textarea without.
  if (await page.locator('html[data-hydrated="true"]').count()) await fillBody(page, values.fullContent);
  else await field(page, "Conteúdo completo").fill(values.fullContent);
  await field(page, "Categoria").fill(values.category);
  if (values.author !== undefined) await field(page, "Autor (opcional)").fill(values.author);
  await field(page, t.newsForm.mediaDescription).fill(values.mediaDescription ?? "Imagem de teste.");
}

/** Records every text the upload progress element shows (a MutationObserver sees even a one-frame state). */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    const record = () => {
      const element = document.querySelector('[data-testid="upload-progress"]');
      const text = element ? (element.textContent ?? "").trim() : "";
      if (text && seen.at(-1) !== text) seen.push(text);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
}

/** The public URLs of a news item's stored media (main file and every variant). */
const mediaUrls = async (site: RunningSite, newsId: string) =>
  (await mediaKeysOf(site, newsId)).map((key) => ({ key, url: `${site.url}/media/${key}` }));

// ------------------------------------------------------------------------------------------- create form

test.describe("formulário de notícia: criar (/add-news)", () => {
  test.beforeEach(async ({ page, editorSite }) => {
    await signInAsAdmin(page, editorSite);
  });

  test("rótulos, linhas, dica da categoria, autor opcional, estrela de destaque e seletor de mídia", async ({ page, editorSite }) => {
    await openPage(page, editorSite, "/add-news");
    await expect(field(page, "Título")).toHaveValue("");
    await expect(field(page, "Título")).toHaveJSProperty("tagName", "INPUT");
    await expect(field(page, "Subtítulo")).toHaveAttribute("rows", "4");
    // The body is the rich-text editor (named by its label), with its toolbar (rich-text.spec.ts tests them).
    const content = field(page, "Conteúdo completo");
    await expect(content).toHaveAttribute("contenteditable", "true");
    await expect(content).toHaveText("");
    await expect(page.getByRole("toolbar", { name: t.richText.toolbar })).toBeVisible();

    await expect(field(page, "Categoria")).toBeVisible();
    await expect(page.getByText("Ex: Futebol, Basquete, Vôlei, etc.", { exact: true })).toBeVisible();
    await expect(field(page, "Categoria")).toHaveAccessibleDescription("Ex: Futebol, Basquete, Vôlei, etc.");
    await expect(field(page, "Autor (opcional)")).toBeVisible();

    // The star toggles between the two titles.
    const star = page.locator("label[title]").filter({ has: page.locator('input[name="isHighlighted"]') });
    await expect(star).toHaveAttribute("title", "Marcar como destaque");
    await expect(page.getByRole("checkbox", { name: "Marcar como destaque" })).not.toBeChecked();
    await star.click();
    await expect(star).toHaveAttribute("title", "Remover dos destaques");
    await expect(page.getByRole("checkbox", { name: "Remover dos destaques" })).toBeChecked();
    await star.click();
    await expect(star).toHaveAttribute("title", "Marcar como destaque");

    const picker = mediaGroup(page);
    await expect(picker).toBeVisible();
    await expect(picker).toContainText("Mídia da Notícia");
    await expect(picker).toContainText("JPG, PNG, GIF, MP4, MOV, AVI");
    await expect(picker.getByText(t.newsForm.mediaPick)).toBeVisible();
    // No storage connection step with the local store.
    await expect(page.getByText(t.newsForm.driveRequired)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Conectar ao Google Drive" })).toHaveCount(0);
  });

  test("enviar vazio mostra as quatro mensagens, e cada uma some quando o seu campo é editado", async ({ page, editorSite }) => {
    await openPage(page, editorSite, "/add-news");
    const messages = {
      Título: "Título é obrigatório.",
      Subtítulo: "Subtítulo é obrigatório.",
      "Conteúdo completo": "Conteúdo completo é obrigatório.",
      Categoria: "Categoria é obrigatória.",
    };
    // Only spaces count as empty too (checked after trimming).
    await field(page, "Título").fill("   ");
    let requests = 0;
    page.on("request", (request) => {
      if (request.url().includes("/api/news")) requests++;
    });
    await submitCreate(page).click();
    for (const message of Object.values(messages)) await expect(page.getByText(message, { exact: true })).toBeVisible();
    await expect(field(page, "Título")).toHaveAttribute("aria-invalid", "true");

    const labels = Object.keys(messages) as Array<keyof typeof messages>;
    for (const [index, label] of labels.entries()) {
      await field(page, label).fill("algo");
      await expect(page.getByText(messages[label], { exact: true })).toHaveCount(0);
      await expect(field(page, label)).not.toHaveAttribute("aria-invalid", "true");
      // The others are still shown.
      for (const other of labels.slice(index + 1)) await expect(page.getByText(messages[other], { exact: true })).toBeVisible();
    }
    expect(requests, "nada foi enviado ao servidor").toBe(0);
  });

  test("caractere de uso privado recusado com a palavra, no navegador e na API; invisíveis (U+200F, U+061C) limpos", async ({ page, editorSite }) => {
    await openPage(page, editorSite, "/add-news");
    const title = uniqueTitle("Gol do Palmeiras\uE000 de placa");
    await fillNews(page, { title, subtitle: "Primeira linha\u2028segunda", fullContent: "Texto.", category: "Futebol" });
    let requests = 0;
    page.on("request", (request) => {
      if (request.method() === "POST") requests++;
    });
    await submitCreate(page).click();
    await expect(page.getByText(t.newsForm.unsaveableCharacter("Título", "Palmeiras\uE000", "U+E000"), { exact: true })).toBeVisible();
    await expect(field(page, "Título")).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, "Subtítulo")).not.toHaveAttribute("aria-invalid", "true");
    expect(requests, "nada foi enviado ao servidor").toBe(0);

    // The server applies the same rule to whatever reaches it (a script, an old page): the direction mark is dropped.
    const cleaned = await page.request.post(`${editorSite.url}/api/news`, {
      multipart: { title: uniqueTitle("Arábico\u061C escondido\u200F"), subtitle: "Sub", fullContent: "Texto", category: "Futebol" },
      headers: { Origin: editorSite.url },
    });
    expect(cleaned.status()).toBe(201);
    const { id } = (await cleaned.json()) as { id: string };
    const stored = (await (await page.request.get(`${editorSite.url}/api/news/${id}`)).json()) as { news: { title: string } };
    expect(stored.news.title).toMatch(/^Arábico escondido \d/);
    const refused = await page.request.post(`${editorSite.url}/api/news`, {
      multipart: { title: "Escudo \uF8FFdo time", subtitle: "Sub", fullContent: "Texto", category: "Futebol" },
      headers: { Origin: editorSite.url },
    });
    expect(refused.status()).toBe(400);
    const answer = (await refused.json()) as { error: { fields: Record<string, string[]> } };
    expect(answer.error.fields.title).toEqual([t.newsForm.unsaveableCharacter("Título", "\uF8FFdo", "U+F8FF")]);
    const emoji = await page.request.post(`${editorSite.url}/api/news`, {
      multipart: { title: uniqueTitle("Família 👨\u200D👩\u200D👧 na torcida"), subtitle: "Sub", fullContent: "Texto", category: "Futebol" },
      headers: { Origin: editorSite.url },
    });
    expect(emoji.status(), "um emoji com ZWJ passa").toBe(201);
  });

  test("arquivo que não é imagem nem vídeo, e arquivo maior que 10 MB, são recusados com as mensagens", async ({ page, editorSite }, testInfo) => {
    await openPage(page, editorSite, "/add-news");
    await watchPickedFiles(page);
    await fileInput(page).setInputFiles({ name: "notas.txt", mimeType: "text/plain", buffer: Buffer.from("não é mídia") });
    await expect(mediaGroup(page).getByText("Por favor, selecione um arquivo de imagem ou vídeo válido.", { exact: true })).toBeVisible();
    await expect(page.getByTestId("media-preview")).toHaveCount(0);

    await fileInput(page).setInputFiles(sizedFile(testInfo.outputPath(), "grande.jpg", 10_485_761));
    expect(await lastPickedFile(page)).toEqual({ name: "grande.jpg", type: "image/jpeg", size: 10_485_761 });
    await expect(
      mediaGroup(page).getByText("O arquivo é muito grande. Por favor, selecione um arquivo menor que 10MB.", { exact: true }),
    ).toBeVisible();
    await expect(page.getByText("Por favor, selecione um arquivo de imagem ou vídeo válido.")).toHaveCount(0);
    await expect(page.getByTestId("media-preview")).toHaveCount(0);

    // Exactly 10 MB (10485760 bytes) is still accepted by the browser-side check.
    await fileInput(page).setInputFiles(sizedFile(testInfo.outputPath(), "limite.jpg", 10_485_760));
    await expect(page.getByTestId("media-preview")).toBeVisible();
    await expect(page.getByText(t.newsForm.mediaTooLarge)).toHaveCount(0);
    await expect(page.getByTestId("media-name")).toHaveText("limite.jpg");
    await expect(page.getByTestId("media-size")).toHaveText(formatBytes(10_485_760));
    // The preview's remove button puts the picker back as it was.
    await expect(page.getByTestId("media-preview").getByRole("button", { name: t.newsForm.mediaChange })).toBeVisible();
    await page.getByTestId("media-preview").getByRole("button", { name: t.newsForm.mediaRemove }).click();
    await expect(page.getByTestId("media-preview")).toHaveCount(0);
    await expect(mediaGroup(page).getByText(t.newsForm.mediaPick)).toBeVisible();
    expect(await fileInput(page).evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
  });

  test("criar com imagem: progresso real, prévia com nome e tamanho, sucesso, formulário limpo, banner some em ~3 s; aparece na lista e na home", async ({
    page,
    editorSite,
  }) => {
    test.slow();
    const jpeg = await makeNoisyJpeg(1200, 900);
    expect(jpeg.length).toBeGreaterThan(700_000);
    const title = uniqueTitle("Seleção vence com imagem");
    await openPage(page, editorSite, "/add-news");
    await fillNews(page, {
      title,
      subtitle: "Subtítulo com imagem.",
      fullContent: "Linha 1\nLinha 2",
      category: "Futebol",
      author: "Repórter Teste",
    });
    await fileInput(page).setInputFiles({ name: "estadio-ruidoso.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await expect(page.getByTestId("media-preview").locator("img")).toBeVisible();
    await expect(page.getByTestId("media-name")).toHaveText("estadio-ruidoso.jpg");
    await expect(page.getByTestId("media-size")).toHaveText(formatBytes(jpeg.length));
    await expect(page.getByTestId("upload-progress")).toHaveCount(0);

    const progressTexts = await recordProgress(page);
    // The page's timers run on a controlled clock from here on, so the 3 s banner is checked without timing.
    await page.clock.install();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    const unthrottle = await throttleUploads(page, 512 * 1024);
    await submitCreate(page).click();
    // While the bytes go up: the progress element with a percentage, and the form busy.
    const progress = page.getByTestId("upload-progress");
    await expect(progress).toBeVisible();
    await expect(progress).toContainText(/Enviando… \d{1,3}%|Processando mídia…/);
    await expect(page.getByRole("button", { name: t.newsForm.saving })).toBeDisabled();

    const banner = successBanner(page);
    await expect(banner).toHaveText("Notícia adicionada com sucesso com mídia salva no armazenamento local", { timeout: 20_000 });
    await unthrottle();

    const seen = await progressTexts();
    const percents = seen
      .map((text) => /^Enviando… (\d+)%$/.exec(text)?.[1])
      .filter((value) => value !== undefined)
      .map(Number);
    expect(
      percents.some((value) => value > 0 && value < 100),
      `percentuais intermediários vistos: ${seen.join(" | ")}`,
    ).toBe(true);
    expect(
      [...percents].sort((a, b) => a - b),
      "o percentual só cresce",
    ).toEqual(percents);
    expect(seen, "a etapa de processamento aparece depois do envio").toContain("Processando mídia…");
    expect(seen.indexOf("Processando mídia…")).toBeGreaterThan(seen.findIndex((text) => text.startsWith("Enviando…")));

    // The editor lands on the story's edit page: the saved fields, its media, the links to see it, "Salvar alterações".
    await expect(page).toHaveURL(/\/edit-news\/[^/?]+\?salva=published/);
    await expect(field(page, "Título")).toHaveValue(title);
    await expect(field(page, "Autor (opcional)")).toHaveValue("Repórter Teste");
    await expect(page.getByTestId("media-current")).toBeVisible();
    await expect(page.getByTestId("upload-progress")).toHaveCount(0);
    const landed = page.getByTestId("news-landed");
    const landedId = new URL(page.url()).pathname.split("/").at(-1);
    await expect(landed.getByRole("link", { name: t.newsForm.preview })).toHaveAttribute("href", `/article/${landedId}?previa=1`);
    await expect(landed.getByRole("link", { name: t.newsForm.viewPublished })).toHaveAttribute("href", `/article/${landedId}`);
    await expect(submitEdit(page)).toBeEnabled();

    // The banner clears after 3 s: still there at 2.9 s, gone after 3 s.
    await page.clock.runFor(2_900);
    await expect(banner).toBeVisible();
    await page.clock.runFor(200);
    await expect(banner).toBeHidden();
    await page.clock.resume();

    // Saved for real: a record with its media, the files in DATA_DIR/media, served at /media/….
    await openPage(page, editorSite, "/news-list");
    const card = cardOf(page, title);
    await expect(card).toBeVisible();
    const id = await card.getAttribute("data-news-id");
    expect(id).toBeTruthy();
    for (const { key, url } of await mediaUrls(editorSite, id!)) {
      expect(fs.existsSync(path.join(editorSite.dataDir, "media", key)), key).toBe(true);
      expect((await page.request.get(url)).status(), url).toBe(200);
    }
    await expect(card.locator("img")).toHaveAttribute("src", /^\/media\//);
    await openPage(page, editorSite, "/");
    await expect(page.getByRole("region", { name: t.home.recentTitle }).getByRole("heading", { name: title, exact: true })).toBeVisible();
    await page.getByRole("region", { name: t.home.recentTitle }).getByRole("heading", { name: title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^${editorSite.url}/article/${id}/[a-z0-9-]+$`));
    await expect(page.getByText("Repórter Teste", { exact: true })).toBeVisible();
    expect(await page.getByTestId("article-content").innerText()).toBe("Linha 1\nLinha 2");
  });

  test("criar sem mídia: '… sem mídia'; o autor em branco vira a redação", async ({ page, editorSite }) => {
    const title = uniqueTitle("Nota sem mídia");
    await openPage(page, editorSite, "/add-news");
    await fillNews(page, { title, subtitle: "Sem foto nem vídeo.", fullContent: "Texto.", category: "Vôlei" });
    await submitCreate(page).click();
    await expect(successBanner(page)).toHaveText("Notícia adicionada com sucesso sem mídia");
    await expect(page).toHaveURL(/\/edit-news\/[^/?]+\?salva=published/);
    await expect(field(page, "Título")).toHaveValue(title);

    await openPage(page, editorSite, "/news-list");
    await cardOf(page, title).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByText("Redação Esporte em Foco", { exact: true })).toBeVisible();
    await expect(page.locator("article figure")).toHaveCount(0);
  });

  test("erro no servidor (JPEG truncado): banner 'Erro ao salvar a notícia. Detalhes: …' e alerta com o mesmo texto", async ({
    page,
    editorSite,
  }) => {
    const jpeg = await makeNoisyJpeg(400, 300);
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const title = uniqueTitle("Notícia com arquivo quebrado");
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    // The page's timers run on Playwright's clock, so the test can move it past the moment banners clear.
    await page.clock.install();
    await openPage(page, editorSite, "/add-news");
    await fillNews(page, { title, subtitle: "S.", fullContent: "C.", category: "Futebol" });
    await fileInput(page).setInputFiles({ name: "quebrada.jpg", mimeType: "image/jpeg", buffer: truncated });
    await expect(page.getByTestId("media-preview")).toBeVisible();
    await submitCreate(page).click();

    const expected = `Erro ao salvar a notícia. Detalhes: ${t.upload.corruptImage}`;
    await expect(errorBanner(page)).toHaveText(expected);
    expect(alerts).toEqual([`alert: ${expected}`]);
    // The error stays (only success and warning banners clear), and what was typed is kept for another try.
    await page.clock.runFor(10_000);
    await expect(errorBanner(page)).toHaveText(expected);
    await expect(field(page, "Título")).toHaveValue(title);
    await expect(submitCreate(page)).toBeEnabled();
    // Nothing saved, no temporary file left behind.
    const listed = (await (await page.request.get(`${editorSite.url}/api/news`)).json()) as { news: Array<{ title: string }> };
    expect(listed.news.map((item) => item.title)).not.toContain(title);
    const tmp = path.join(editorSite.dataDir, "tmp", "uploads");
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  });
});

// --------------------------------------------------------------------------------------------- edit form

test.describe("formulário de notícia: editar (/edit-news/{id})", () => {
  test.beforeEach(async ({ page, editorSite }) => {
    await signInAsAdmin(page, editorSite);
  });

  test("Editar abre o formulário preenchido; trocar a mídia por MP4, só o texto, e o destaque", async ({ page, editorSite }) => {
    test.slow();
    const title = uniqueTitle("Notícia para editar");
    const id = await createNewsThroughApi(
      page.context(),
      editorSite,
      { title, subtitle: "Subtítulo original.", fullContent: "Primeira linha.\nSegunda linha.", category: "Basquete", author: "Autora Original" },
      { name: "original.jpg", mimeType: "image/jpeg", buffer: await makeNoisyJpeg(640, 480) },
    );
    const oldMedia = await mediaUrls(editorSite, id);
    expect(oldMedia.length).toBeGreaterThan(1);
    for (const { url } of oldMedia) expect((await page.request.get(url)).status(), url).toBe(200);

    // From the article, the admin's 'Editar' button.
    await openPage(page, editorSite, `/article/${id}`);
    await page.getByRole("link", { name: "Editar", exact: true }).click();
    await expect(page).toHaveURL(`${editorSite.url}/edit-news/${id}`);
    await expect(field(page, "Título")).toHaveValue(title);
    await expect(field(page, "Subtítulo")).toHaveValue("Subtítulo original.");
    await expect(bodyEditor(page).locator("p")).toHaveCount(1);
    expect(await bodyEditor(page).evaluate((element) => (element as HTMLElement).innerText)).toBe("Primeira linha.\nSegunda linha.");
    await expect(field(page, "Categoria")).toHaveValue("Basquete");
    await expect(field(page, "Autor (opcional)")).toHaveValue("Autora Original");
    await expect(page.getByRole("checkbox", { name: "Marcar como destaque" })).not.toBeChecked();
    await expect(page.getByTestId("media-current").locator("img")).toBeVisible();

    // Replace the image with a real MP4 through 'Trocar arquivo'.
    const video = makeMp4();
    const chooser = page.waitForEvent("filechooser");
    await page.getByTestId("media-current").getByRole("button", { name: t.newsForm.mediaChange }).click();
    await (await chooser).setFiles({ name: "gols.mp4", mimeType: "video/mp4", buffer: video });
    await expect(page.getByTestId("media-preview").locator("video")).toBeVisible();
    await expect(page.getByTestId("media-name")).toHaveText("gols.mp4");
    await expect(page.getByTestId("media-size")).toHaveText(formatBytes(video.length));
    await page.clock.install();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await submitEdit(page).click();
    await expect(successBanner(page)).toHaveText("Notícia atualizada com sucesso com nova mídia salva no armazenamento local");
    // 2 s later (on the page's controlled clock), the article: not yet at 1.9 s, there after 2 s.
    await page.clock.runFor(1_900);
    await expect(page).toHaveURL(`${editorSite.url}/edit-news/${id}`);
    await page.clock.runFor(200);
    await page.waitForURL(`${editorSite.url}/article/${id}`, { timeout: 6_000 });
    await page.clock.resume();
    const player = page.locator("article figure video");
    await expect(player).toHaveAttribute("src", /^\/media\/[a-f0-9]{12}\/vid\/.+\.mp4$/);
    const videoSrc = (await player.getAttribute("src"))!;
    const served = await page.request.get(editorSite.url + videoSrc);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("video/mp4");
    expect((await served.body()).equals(video)).toBe(true);
    // The old image's files stay in the store: the previous version, kept as a revision, refers to them (it can be
    // restored with its picture). The orphan sweeper removes them once no revision does.
    const [revision] = await siteQuery<{ media_id: string | null }>(
      editorSite,
      "SELECT media_id FROM news_revisions WHERE news_id = ? AND version = 1",
      id,
    );
    expect(revision?.media_id).toBeTruthy();
    for (const { key, url } of oldMedia) {
      expect(fs.existsSync(path.join(editorSite.dataDir, "media", key)), key).toBe(true);
      expect((await page.request.get(url)).status(), url).toBe(200);
    }

    // Only the text: the video stays.
    await page.getByRole("link", { name: "Editar", exact: true }).click();
    await expect(page).toHaveURL(`${editorSite.url}/edit-news/${id}`);
    await expect(page.getByTestId("media-current").locator("video")).toBeVisible();
    const newTitle = `${title} (atualizada)`;
    await field(page, "Título").fill(newTitle);
    await submitEdit(page).click();
    await expect(successBanner(page)).toHaveText("Notícia atualizada com sucesso com mídia existente");
    await page.waitForURL(`${editorSite.url}/article/${id}`, { timeout: 6_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(newTitle);
    await expect(page.locator("article figure video")).toHaveAttribute("src", videoSrc);

    // The highlight star.
    await openPage(page, editorSite, "/news-list?tab=1");
    await expect(cardOf(page, newTitle)).toHaveCount(0);
    await openPage(page, editorSite, `/edit-news/${id}`);
    await page.locator('label[title="Marcar como destaque"]').click();
    await expect(page.locator('label[title="Remover dos destaques"]')).toBeVisible();
    await submitEdit(page).click();
    await expect(successBanner(page)).toHaveText("Notícia atualizada com sucesso com mídia existente");
    await page.waitForURL(`${editorSite.url}/article/${id}`, { timeout: 6_000 });
    await openPage(page, editorSite, "/news-list?tab=1");
    await expect(page.getByRole("tab", { name: "Destaques" })).toHaveAttribute("aria-selected", "true");
    await expect(cardOf(page, newTitle)).toBeVisible();
    await expect(cardOf(page, newTitle).getByText(t.newsList.highlightBadge, { exact: true })).toBeVisible();
  });

  test("ID inexistente: a mensagem com o ID e o erro, e um botão para a página inicial", async ({ page, editorSite }) => {
    const response = await openPage(page, editorSite, "/edit-news/nao-existe");
    expect(response.status()).toBe(404);
    await expect(
      page.getByText('Notícia com ID "nao-existe" não encontrada ou erro ao carregar: Notícia não encontrada', { exact: true }),
    ).toBeVisible();
    await expect(field(page, "Título")).toHaveCount(0);
    const home = page.getByRole("link", { name: t.article.backHome, exact: true });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await expect(page).toHaveURL(`${editorSite.url}/`);
  });
});

// ------------------------------------------------------------------------------------------------ no JS

test.describe("sem JavaScript", () => {
  test("o formulário de criação funciona (POST multipart para a action da rota), com arquivo", async ({ browser, editorSite }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      await signInAsAdmin(context, editorSite);
      const page = await context.newPage();
      const title = uniqueTitle("Criada sem JavaScript");
      await page.goto(`${editorSite.url}/add-news`);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
      await fillNews(page, { title, subtitle: "Enviada pelo formulário puro.", fullContent: "Sem scripts.", category: "Atletismo" });
      await page.locator('label[title="Marcar como destaque"]').click();
      await fileInput(page).setInputFiles({ name: "sem-js.jpg", mimeType: "image/jpeg", buffer: await makeNoisyJpeg(320, 240) });
      const posted = page.waitForRequest((request) => request.method() === "POST");
      await submitCreate(page).click();
      const request = await posted;
      expect(new URL(request.url()).pathname).toBe("/add-news");
      expect(request.headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      await expect(successBanner(page)).toHaveText("Notícia adicionada com sucesso com mídia salva no armazenamento local");
      // Landed on the story's edit page, with the links to see it.
      await expect(page).toHaveURL(/\/edit-news\/[^/?]+\?salva=published/);
      await expect(field(page, "Título")).toHaveValue(title);
      await expect(page.getByTestId("news-landed").getByRole("link", { name: t.newsForm.viewPublished })).toBeVisible();

      await page.goto(`${editorSite.url}/news-list?tab=1`);
      const card = cardOf(page, title);
      await expect(card).toBeVisible();
      await expect(card.locator("img")).toHaveAttribute("src", /^\/media\//);

      // The required fields are checked by the server too.
      await page.goto(`${editorSite.url}/add-news`);
      await submitCreate(page).click();
      await expect(page.getByText("Título é obrigatório.", { exact: true })).toBeVisible();
      await expect(page.getByText("Categoria é obrigatória.", { exact: true })).toBeVisible();
      await page.goto("about:blank");
    } finally {
      await context.close();
    }
  });
});

// ---------------------------------------------------------------------------------------- delete on list

test.describe("excluir na lista (/news-list)", () => {
  test("o administrador vê um ícone por card; o HTML de um visitante não tem o botão", async ({ page, editorSite, request }) => {
    await signInAsAdmin(page, editorSite);
    const title = uniqueTitle("Notícia com lixeira");
    await createNewsThroughApi(page.context(), editorSite, { title });
    await openPage(page, editorSite, "/news-list");
    const cards = page.getByRole("tabpanel").getByTestId("news-card");
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    await expect(page.getByRole("tabpanel").getByRole("button", { name: /^Excluir notícia: / })).toHaveCount(count);
    await expect(cardOf(page, title).getByRole("button", { name: `Excluir notícia: ${title}`, exact: true })).toBeVisible();

    // An anonymous visitor (no cookie): the same list, without any delete control.
    const anonymous = await request.get(`${editorSite.url}/news-list`);
    expect(anonymous.status()).toBe(200);
    const html = await anonymous.text();
    expect(html).toContain(title);
    expect(html).not.toContain(t.newsAdmin.delete);
    expect(html).not.toMatch(/<button[^>]*aria-label="Excluir/);
  });

  test("confirmar remove o card sem recarregar; cancelar mantém", async ({ page, editorSite }) => {
    await signInAsAdmin(page, editorSite);
    const keep = uniqueTitle("Notícia mantida");
    const gone = uniqueTitle("Notícia excluída");
    const keepId = await createNewsThroughApi(page.context(), editorSite, { title: keep });
    const goneId = await createNewsThroughApi(
      page.context(),
      editorSite,
      { title: gone },
      {
        name: "apagar.jpg",
        mimeType: "image/jpeg",
        buffer: await makeNoisyJpeg(320, 240),
      },
    );
    const goneMedia = await mediaUrls(editorSite, goneId);
    await openPage(page, editorSite, "/news-list");
    await markPage(page);

    // Cancel keeps it.
    await cardOf(page, keep)
      .getByRole("button", { name: `Excluir notícia: ${keep}` })
      .click();
    const dialog = page.getByRole("alertdialog", { name: t.newsAdmin.deleteTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(keep);
    await dialog.getByRole("button", { name: t.newsAdmin.deleteCancel, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(cardOf(page, keep)).toBeVisible();
    // Focus goes back to the button that opened the dialog.
    await expect(cardOf(page, keep).getByRole("button", { name: `Excluir notícia: ${keep}` })).toBeFocused();
    expect((await page.request.get(`${editorSite.url}/api/news/${keepId}`)).status()).toBe(200);

    // Confirm deletes it (to the Lixeira), without a reload.
    await cardOf(page, gone)
      .getByRole("button", { name: `Excluir notícia: ${gone}` })
      .click();
    await expect(dialog).toContainText(gone);
    const deleted = page.waitForResponse((response) => response.request().method() === "DELETE");
    await dialog.getByRole("button", { name: t.newsAdmin.deleteConfirm, exact: true }).click();
    expect((await deleted).status()).toBe(204);
    await expect(cardOf(page, gone)).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    await expect(cardOf(page, keep)).toBeVisible();
    await expect(errorBanner(page)).toHaveCount(0);
    await expectNoReload(page);
    expect((await page.request.get(`${editorSite.url}/api/news/${goneId}`)).status()).toBe(404);
    // In the Lixeira its picture is kept, so a restore brings the story back whole (erasing it takes the picture).
    for (const { url } of goneMedia) expect((await page.request.get(url)).status(), url).toBe(200);
    // The page stays usable (no modal left over).
    await cardOf(page, keep).click();
    await expect(page).toHaveURL(new RegExp(`^${editorSite.url}/article/${keepId}/[a-z0-9-]+$`));
  });

  test("falha: a notícia já foi excluída por outra requisição", async ({ page, editorSite }) => {
    await signInAsAdmin(page, editorSite);
    const first = uniqueTitle("Excluída pela API");
    const second = uniqueTitle("Excluída por outra instância");
    const firstId = await createNewsThroughApi(page.context(), editorSite, { title: first });
    const secondId = await createNewsThroughApi(page.context(), editorSite, { title: second });
    await openPage(page, editorSite, "/news-list");
    await markPage(page);
    const dialog = page.getByRole("alertdialog", { name: t.newsAdmin.deleteTitle });

    // Deleted through the API while the dialog is open: the live update removes the card (and its dialog).
    await cardOf(page, first)
      .getByRole("button", { name: `Excluir notícia: ${first}` })
      .click();
    await expect(dialog).toBeVisible();
    const byApi = await page.context().request.delete(`${editorSite.url}/api/news/${firstId}`, { headers: { origin: editorSite.url } });
    await expectStatus(byApi, 204, "DELETE /api/news/:id");
    await expect(cardOf(page, first)).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    await expectNoReload(page);

    // Deleted behind this server's back (another instance, whose event never reaches this page): confirming fails.
    await cardOf(page, second)
      .getByRole("button", { name: `Excluir notícia: ${second}` })
      .click();
    await expect(dialog).toBeVisible();
    await runSql(editorSite, "DELETE FROM news WHERE id = ?", secondId);
    await dialog.getByRole("button", { name: t.newsAdmin.deleteConfirm, exact: true }).click();
    await expect(errorBanner(page)).toHaveText("Falha ao deletar a notícia. Por favor, tente novamente.");
    await expect(dialog).toHaveCount(0);
    await expectNoReload(page);
  });
});
