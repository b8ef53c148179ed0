/**
 * The sponsor manager (/SponsorManager) in the browser against the real server and the real local media store:
 * texts, the picker's checks, adding (with a slowed real upload), the grid's columns, deleting, and the footer.
 * Each test runs on its own fresh site, so the empty states are really empty.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { randomBytes } from "node:crypto";
import {
  countRows,
  expect,
  expectStatus,
  openPage,
  lastPickedFile,
  signInAsAdmin,
  sizedFile,
  t,
  test as base,
  throttleUploads,
  watchPickedFiles,
} from "./support/fixtures.ts";
import type { RunningSite } from "./support/site.ts";
import { makeTestImage } from "../factories/news.ts";

const test = base.extend<{ site: RunningSite }>({
  site: async ({ launchSite, page }, use) => {
    const site = await launchSite({ env: { LOGIN_RATE_LIMIT: "1000" } });
    await signInAsAdmin(page, site);
    await use(site);
    // Leave the page before the site stops (an open page keeps its live-updates connection).
    await page.goto("about:blank");
  },
});

const imageInput = (page: Page) => page.locator('input[type="file"][name="image"]');
const addButton = (page: Page) => page.getByRole("button", { name: /^(Adicionar patrocinador|Adicionando\.\.\.)$/ });
const items = (page: Page) => page.getByTestId("sponsor-item");
const footerSponsors = (page: Page) => page.getByRole("region", { name: t.footer.sponsorsTitle }).getByRole("listitem");
const problem = (page: Page) => page.getByRole("alert");

/** A PNG of random noise (does not compress): about width×height×3 bytes. */
function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

async function addSponsorThroughApi(page: Page, site: RunningSite, logo: Buffer): Promise<string> {
  const response = await page.context().request.post(`${site.url}/api/sponsors`, {
    multipart: { image: { name: "logo.png", mimeType: "image/png", buffer: logo } },
    headers: { origin: site.url },
  });
  await expectStatus(response, 201, "POST /api/sponsors");
  return ((await response.json()) as { id: string }).id;
}

test("página vazia: título, texto vazio, sem cartão de conexão; o seletor recusa não-imagens e arquivos > 5 MB; prévia e remover", async ({
  page,
  site,
}, testInfo) => {
  await openPage(page, site, "/SponsorManager");
  await watchPickedFiles(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gerenciar Patrocinadores");
  await expect(page).toHaveTitle("Gerenciar Patrocinadores");
  await expect(page.getByText("Nenhum patrocinador adicionado ainda.", { exact: true })).toBeVisible();
  await expect(items(page)).toHaveCount(0);
  await expect(page.getByText(t.footer.noSponsors, { exact: true })).toBeVisible();
  // The local store is always connected: no 'connect' card, no warning.
  await expect(page.getByRole("heading", { name: t.storage.connectTitle })).toHaveCount(0);
  await expect(page.getByText(t.storage.connectText)).toHaveCount(0);
  await expect(page.getByText(t.sponsors.driveRequired)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Conectar ao Google Drive" })).toHaveCount(0);

  // No image: the add button is disabled.
  await expect(addButton(page)).toHaveText("Adicionar patrocinador");
  await expect(addButton(page)).toBeDisabled();

  await imageInput(page).setInputFiles({ name: "contrato.txt", mimeType: "text/plain", buffer: Buffer.from("não é imagem") });
  await expect(problem(page)).toHaveText("Por favor, selecione apenas arquivos de imagem válidos (JPG, PNG, etc.).");
  await expect(page.getByTestId("sponsor-preview")).toHaveCount(0);
  await expect(addButton(page)).toBeDisabled();

  await imageInput(page).setInputFiles(sizedFile(testInfo.outputPath(), "enorme.png", 5_242_881));
  expect(await lastPickedFile(page)).toEqual({ name: "enorme.png", type: "image/png", size: 5_242_881 });
  await expect(problem(page)).toHaveText("O arquivo é muito grande. Por favor, selecione uma imagem menor que 5MB.");
  await expect(page.getByTestId("sponsor-preview")).toHaveCount(0);
  await expect(addButton(page)).toBeDisabled();

  // A real PNG: a preview with a remove button, and the add button enabled.
  await imageInput(page).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await makeTestImage(300, 300, "png") });
  await expect(problem(page)).toHaveCount(0);
  const preview = page.getByTestId("sponsor-preview");
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(300);
  await expect(addButton(page)).toBeEnabled();
  const remove = page.getByRole("button", { name: t.sponsors.remove, exact: true });
  await expect(remove).toBeVisible();
  await remove.click();
  await expect(preview).toHaveCount(0);
  await expect(remove).toHaveCount(0);
  await expect(addButton(page)).toBeDisabled();
  expect(await imageInput(page).evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);

  // Exactly 5 MB passes the browser-side check.
  await imageInput(page).setInputFiles(sizedFile(testInfo.outputPath(), "limite.png", 5_242_880));
  await expect(problem(page)).toHaveCount(0);
  await expect(addButton(page)).toBeEnabled();
});

test("adicionar: 'Adicionando...' e desabilitado durante o envio; o logo aparece na grade e no rodapé (redondo, 80 px); excluir remove dos dois", async ({
  page,
  site,
}) => {
  test.slow();
  const logo = await noisyPng(600, 400);
  expect(logo.length).toBeGreaterThan(600_000);
  await openPage(page, site, "/SponsorManager");
  await imageInput(page).setInputFiles({ name: "patrocinador.png", mimeType: "image/png", buffer: logo });
  await expect(page.getByTestId("sponsor-preview")).toBeVisible();

  const unthrottle = await throttleUploads(page, 512 * 1024);
  await addButton(page).click();
  await expect(addButton(page)).toHaveText("Adicionando...");
  await expect(addButton(page)).toBeDisabled();
  await expect(items(page)).toHaveCount(1, { timeout: 20_000 });
  await unthrottle();
  await expect(addButton(page)).toHaveText("Adicionar patrocinador");
  // The picker is cleared: no preview, the button disabled again.
  await expect(page.getByTestId("sponsor-preview")).toHaveCount(0);
  await expect(addButton(page)).toBeDisabled();
  await expect(page.getByText("Nenhum patrocinador adicionado ainda.")).toHaveCount(0);
  expect(await countRows(site, "sponsors")).toBe(1);

  const gridLogo = items(page).first().locator("img");
  await expect(gridLogo).toHaveAttribute("src", /^\/media\/[a-f0-9]{12}\/img\//);
  await expect.poll(() => gridLogo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);

  // The footer, without a reload: one round logo of 80 px.
  await expect(page.getByText(t.footer.noSponsors)).toHaveCount(0);
  await expect(footerSponsors(page)).toHaveCount(1);
  const footerItem = footerSponsors(page).first();
  const footerLogo = footerItem.getByRole("img", { name: t.footer.sponsorAlt(1) });
  await expect(footerLogo).toBeVisible();
  await expect.poll(() => footerLogo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const box = await footerItem.boundingBox();
  expect(box?.width).toBeCloseTo(80, 0);
  expect(box?.height).toBeCloseTo(80, 0);
  const imageBox = await footerLogo.boundingBox();
  expect(imageBox?.width).toBeCloseTo(80, 0);
  expect(imageBox?.height).toBeCloseTo(80, 0);
  expect(await footerItem.evaluate((element) => getComputedStyle(element).borderRadius)).toBe("50%");
  expect(await footerItem.evaluate((element) => getComputedStyle(element).overflow)).toBe("hidden");
  const src = (await gridLogo.getAttribute("src"))!;
  expect((await page.request.get(site.url + src)).status()).toBe(200);

  // Delete: gone from the grid and the footer, and its files from the store.
  await items(page)
    .first()
    .getByRole("button", { name: t.sponsors.delete(1), exact: true })
    .click();
  await expect(items(page)).toHaveCount(0);
  await expect(page.getByText("Nenhum patrocinador adicionado ainda.", { exact: true })).toBeVisible();
  await expect(footerSponsors(page)).toHaveCount(0);
  await expect(page.getByText(t.footer.noSponsors, { exact: true })).toBeVisible();
  expect(await countRows(site, "sponsors")).toBe(0);
  expect((await page.request.get(site.url + src)).status()).toBe(404);
});

test("grade: 1 coluna em 375 px e 4 colunas em 1280 px (com 4 ou mais patrocinadores); mais antigos primeiro", async ({ page, site }) => {
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) ids.push(await addSponsorThroughApi(page, site, await makeTestImage(200, 200, "png")));

  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page, site, "/SponsorManager");
  await expect(items(page)).toHaveCount(5);
  const wide = await Promise.all((await items(page).all()).map((item) => item.boundingBox()));
  const firstRow = wide.slice(0, 4);
  expect(new Set(firstRow.map((box) => Math.round(box!.y))).size, "os 4 primeiros na mesma linha").toBe(1);
  const xs = firstRow.map((box) => box!.x);
  expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  expect(new Set(xs.map(Math.round)).size, "4 colunas").toBe(4);
  // The fifth wraps to a second row, under the first.
  expect(wide[4]!.y).toBeGreaterThan(wide[0]!.y + wide[0]!.height - 1);
  expect(Math.round(wide[4]!.x)).toBe(Math.round(wide[0]!.x));

  await page.setViewportSize({ width: 375, height: 800 });
  await expect
    .poll(async () => new Set((await Promise.all((await items(page).all()).map((item) => item.boundingBox()))).map((box) => Math.round(box!.x))).size)
    .toBe(1);
  const narrow = await Promise.all((await items(page).all()).map((item) => item.boundingBox()));
  for (let index = 1; index < narrow.length; index++) expect(narrow[index]!.y).toBeGreaterThan(narrow[index - 1]!.y);
  // A column fills the card's width (no horizontal overflow on a phone).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Oldest first, in the grid and in the footer.
  const gridSrcs = await items(page)
    .locator("img")
    .evaluateAll((images) => images.map((image) => image.getAttribute("src")));
  const footerSrcs = await footerSponsors(page)
    .locator("img")
    .evaluateAll((images) => images.map((image) => image.getAttribute("src")));
  expect(footerSrcs).toEqual(gridSrcs);
  const api = (await (await page.request.get(`${site.url}/api/sponsors`)).json()) as { sponsors: Array<{ id: string }> };
  expect(api.sponsors.map((sponsor) => sponsor.id)).toEqual(ids);
});

test("um formulário com uma ação desconhecida é recusado (400, em português) e nada é adicionado", async ({ page, site }) => {
  const logo = await makeTestImage(200, 200, "png");
  const post = (intent: string) =>
    page.context().request.post(`${site.url}/SponsorManager`, {
      multipart: { intent, image: { name: "logo.png", mimeType: "image/png", buffer: logo } },
      headers: { origin: site.url },
    });
  const refused = await post("adicionar-tudo");
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain(t.sponsors.unknownIntent);
  expect(await countRows(site, "sponsors")).toBe(0);
  expect(await countRows(site, "media")).toBe(0);
  // The page's own action still adds.
  expect((await post("add")).status()).toBe(200);
  expect(await countRows(site, "sponsors")).toBe(1);
});
