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
  expectNoSeriousViolations,
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
import type { RunningSite } from "#tests/factories/site.ts";
import { makeTestImage } from "#tests/factories/news.ts";

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

async function addSponsorThroughApi(page: Page, site: RunningSite, logo: Buffer, fields: Record<string, string> = {}): Promise<string> {
  const response = await page.context().request.post(`${site.url}/api/sponsors`, {
    multipart: { name: "Patrocinador da API", ...fields, image: { name: "logo.png", mimeType: "image/png", buffer: logo } },
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
  await page.getByLabel(t.sponsors.nameLabel, { exact: true }).fill("Ruído Esportes");

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
  const footerLogo = footerItem.getByRole("img", { name: "Ruído Esportes" });
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

  // Delete (confirmed): gone from the grid and the footer, and its files from the store.
  await items(page)
    .first()
    .getByRole("button", { name: t.sponsors.delete("Ruído Esportes"), exact: true })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: t.sponsors.deleteConfirm, exact: true }).click();
  await expect(items(page)).toHaveCount(0);
  await expect(page.getByText("Nenhum patrocinador adicionado ainda.", { exact: true })).toBeVisible();
  await expect(footerSponsors(page)).toHaveCount(0);
  await expect(page.getByText(t.footer.noSponsors, { exact: true })).toBeVisible();
  expect(await countRows(site, "sponsors")).toBe(0);
  expect((await page.request.get(site.url + src)).status()).toBe(404);
});

test("grade: 1 coluna em 375 px e 4 colunas em 1280 px (com 4 ou mais patrocinadores); na ordem de exibição (a de criação até alguém mudar)", async ({
  page,
  site,
}) => {
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) {
    ids.push(await addSponsorThroughApi(page, site, await makeTestImage(200, 200, "png"), { name: `Marca ${index + 1}` }));
  }

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
      multipart: { intent, name: "Marca", image: { name: "logo.png", mimeType: "image/png", buffer: logo } },
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

const footerRegion = (page: Page) => page.getByRole("region", { name: t.footer.sponsorsTitle });
const footerNames = (page: Page) =>
  footerSponsors(page)
    .locator("img")
    .evaluateAll((images) => images.map((image) => image.getAttribute("alt")));

test("criar com nome e link: o link http é recusado em português; no rodapé o alt é o nome, dentro do link (rel sponsored, nova aba); um logo largo não é cortado", async ({
  page,
  site,
}) => {
  await openPage(page, site, "/SponsorManager");
  const wide = await makeTestImage(800, 200, "png");
  await imageInput(page).setInputFiles({ name: "marca-larga.png", mimeType: "image/png", buffer: wide });
  // The name is required, on the server too (the form does not stop at the browser's own check).
  await page.getByLabel(t.sponsors.linkLabel, { exact: true }).fill("http://www.padaria-sol.com.br");
  await addButton(page).click();
  await expect(page.getByText(t.sponsors.nameRequired).first()).toBeVisible();
  const nameInput = page.getByLabel(t.sponsors.nameLabel, { exact: true });
  await expect(nameInput).toHaveAttribute("aria-invalid", "true");
  const linkInput = page.getByLabel(t.sponsors.linkLabel, { exact: true });
  await expect(linkInput).toHaveAttribute("aria-invalid", "true");
  await expect(linkInput).toHaveAccessibleDescription(new RegExp(t.sponsors.linkHttps.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  expect(await countRows(site, "sponsors")).toBe(0);
  expect(await countRows(site, "media")).toBe(0);

  // The picked file was kept: fix the fields and add.
  await nameInput.fill("Padaria Sol");
  await linkInput.fill("https://www.padaria-sol.com.br/");
  await addButton(page).click();
  await expect(items(page)).toHaveCount(1);
  await expect(page.getByText(t.sponsors.added)).toBeVisible();

  const link = footerRegion(page).getByRole("link");
  await expect(link).toHaveCount(1);
  await expect(link).toHaveAttribute("href", "https://www.padaria-sol.com.br/");
  await expect(link).toHaveAttribute("rel", "sponsored noopener");
  await expect(link).toHaveAttribute("target", "_blank");
  const logo = link.getByRole("img", { name: "Padaria Sol", exact: true });
  await expect(logo).toBeVisible();
  await expect(link).toHaveAccessibleName(`Padaria Sol ${t.footer.sponsorLinkHint}`);

  // Wide logo: contained in the white disc, not cropped.
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  // The file the footer loaded (a small variant) keeps the logo's 4:1 shape: nothing was cut on the server either.
  expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth / image.naturalHeight)).toBeCloseTo(4, 1);
  expect(await logo.evaluate((image) => getComputedStyle(image).objectFit)).toBe("contain");
  const disc = footerSponsors(page).first();
  expect(await disc.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(255, 255, 255)");
  expect(await disc.evaluate((element) => getComputedStyle(element).borderRadius)).toBe("50%");
  // The content box fits inside the circle: with contain, a 4:1 logo drawn at the box's width is box/4 high, centred;
  // its corners lie inside the 80 px circle.
  const geometry = await logo.evaluate((image: HTMLImageElement) => {
    const style = getComputedStyle(image);
    const box = image.getBoundingClientRect();
    const padding = Number.parseFloat(style.paddingLeft);
    const inner = box.width - 2 * padding;
    const drawnWidth = inner;
    const drawnHeight = (inner * image.naturalHeight) / image.naturalWidth;
    return { radius: box.width / 2, cornerDistance: Math.hypot(drawnWidth / 2, drawnHeight / 2) };
  });
  expect(geometry.cornerDistance).toBeLessThanOrEqual(geometry.radius);
  const managerLogo = items(page).first().getByRole("img", { name: "Padaria Sol", exact: true });
  expect(await managerLogo.evaluate((image) => getComputedStyle(image).objectFit)).toBe("contain");

  await expectNoSeriousViolations(page, "/SponsorManager com um patrocinador");
});

test("reordenar pelo teclado muda a ordem do rodapé; o foco fica no patrocinador movido", async ({ page, site }) => {
  for (const name of ["Alfa", "Beta", "Gama"]) await addSponsorThroughApi(page, site, await makeTestImage(120, 120, "png"), { name });
  await openPage(page, site, "/SponsorManager");
  await expect(items(page)).toHaveCount(3);
  expect(await footerNames(page)).toEqual(["Alfa", "Beta", "Gama"]);
  // The ends cannot move further.
  await expect(page.getByRole("button", { name: t.sponsors.moveUp("Alfa") })).toBeDisabled();
  await expect(page.getByRole("button", { name: t.sponsors.moveDown("Gama") })).toBeDisabled();

  const gamaUp = page.getByRole("button", { name: t.sponsors.moveUp("Gama") });
  await gamaUp.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => footerNames(page)).toEqual(["Alfa", "Gama", "Beta"]);
  await expect(items(page).nth(1)).toContainText("Gama");
  await expect(page.getByText(t.sponsors.moved("Gama", 2))).toBeVisible();
  await expect(gamaUp).toBeFocused();

  await page.keyboard.press("Space");
  await expect.poll(() => footerNames(page)).toEqual(["Gama", "Alfa", "Beta"]);
  // At the top its up button is disabled: the focus moves to its down button.
  await expect(gamaUp).toBeDisabled();
  await expect(page.getByRole("button", { name: t.sponsors.moveDown("Gama") })).toBeFocused();

  // The order is stored: a reader's page and the API agree after a reload.
  await page.reload();
  expect(await footerNames(page)).toEqual(["Gama", "Alfa", "Beta"]);
  const api = (await (await page.request.get(`${site.url}/api/sponsors`)).json()) as { sponsors: Array<{ name: string; position: number }> };
  expect(api.sponsors.map((sponsor) => [sponsor.name, sponsor.position])).toEqual([
    ["Gama", 1],
    ["Alfa", 2],
    ["Beta", 3],
  ]);
});

test("excluir pergunta antes: cancelar mantém o patrocinador; confirmar remove", async ({ page, site }) => {
  await addSponsorThroughApi(page, site, await makeTestImage(120, 120, "png"), { name: "Clube do Bairro" });
  await openPage(page, site, "/SponsorManager");
  const remove = page.getByRole("button", { name: t.sponsors.delete("Clube do Bairro"), exact: true });
  await remove.click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading", { name: t.sponsors.deleteTitle })).toBeVisible();
  await expect(dialog).toContainText(t.sponsors.deleteText("Clube do Bairro"));
  await expectNoSeriousViolations(page, "diálogo de exclusão");
  await dialog.getByRole("button", { name: t.sponsors.deleteCancel, exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await expect(items(page)).toHaveCount(1);
  expect(await countRows(site, "sponsors")).toBe(1);

  // Escape cancels too.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  expect(await countRows(site, "sponsors")).toBe(1);

  await remove.click();
  await dialog.getByRole("button", { name: t.sponsors.deleteConfirm, exact: true }).click();
  await expect(items(page)).toHaveCount(0);
  await expect(page.getByText(t.sponsors.removed)).toBeVisible();
  expect(await countRows(site, "sponsors")).toBe(0);
});

test("editar sem reenviar o logo: nome, link e período; fora do período some do rodapé e aparece como inativo na redação", async ({ page, site }) => {
  await addSponsorThroughApi(page, site, await makeTestImage(120, 120, "png"), { name: "Academia Forte" });
  await openPage(page, site, "/SponsorManager");
  const item = items(page).first();
  const src = await item.locator("img").getAttribute("src");
  await item.getByText(t.sponsors.edit("Academia Forte")).click();
  await item.getByLabel(t.sponsors.nameLabel, { exact: true }).fill("Academia Mais Forte");
  await item.getByLabel(t.sponsors.linkLabel, { exact: true }).fill("https://academia.example/");
  await item.getByRole("button", { name: t.sponsors.save }).click();
  await expect(page.getByText(t.sponsors.saved)).toBeVisible();
  await expect(footerRegion(page).getByRole("link")).toHaveAttribute("href", "https://academia.example/");
  await expect(footerRegion(page).getByRole("img", { name: "Academia Mais Forte" })).toBeVisible();
  expect(await items(page).first().locator("img").getAttribute("src")).toBe(src);

  // A window that ended yesterday: readers no longer see it; the newsroom sees it marked.
  // The form stays open after a save.
  const edit = items(page).first();
  await edit.getByLabel(t.sponsors.untilLabel, { exact: true }).fill("2020-01-31");
  await edit.getByRole("button", { name: t.sponsors.save }).click();
  await expect(page.getByText(t.sponsors.inactive)).toBeVisible();
  await expect(footerSponsors(page)).toHaveCount(0);
  await expect(page.getByText(t.footer.noSponsors, { exact: true })).toBeVisible();
  const anonymous = (await (await fetch(`${site.url}/api/sponsors`)).json()) as { sponsors: unknown[] };
  expect(anonymous.sponsors).toEqual([]);
});

test("sem JavaScript, excluir também pergunta antes (uma página de confirmação do servidor)", async ({ page, site, browser }) => {
  await addSponsorThroughApi(page, site, await makeTestImage(120, 120, "png"), { name: "Loja Sem Script" });
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const noJs = await context.newPage();
    await noJs.goto(`${site.url}/SponsorManager`);
    await noJs.getByRole("button", { name: t.sponsors.delete("Loja Sem Script"), exact: true }).click();
    const confirm = noJs.getByRole("group", { name: t.sponsors.deleteTitle });
    await expect(confirm).toContainText(t.sponsors.deleteText("Loja Sem Script"));
    expect(await countRows(site, "sponsors")).toBe(1);
    await confirm.getByRole("button", { name: t.sponsors.deleteConfirm, exact: true }).click();
    await expect(noJs.getByText(t.sponsors.removed)).toBeVisible();
    expect(await countRows(site, "sponsors")).toBe(0);
  } finally {
    await context.close();
  }
});
