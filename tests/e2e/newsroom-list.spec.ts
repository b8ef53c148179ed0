/**
 * The newsroom's list (/redacao) in the browser against the real server: filters through the GET form (and a URL
 * that opens the same view), search that finds a draft, bulk publish with the dialog (then on the home), bulk delete
 * cancelled then confirmed, everything without JavaScript too, a phone's width without horizontal scroll, and axe.
 * Each test runs on a site of its own.
 */
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { expect, openPage, signInAsAdmin, siteQuery, t, test as base } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";
import { testsActor } from "#tests/factories/actors.ts";

const STORIES = [
  { title: "Rascunho do vôlei azul", category: "Vôlei", status: "draft" },
  { title: "Rascunho do vôlei verde", category: "Vôlei", status: "draft" },
  { title: "Final do futebol publicada", category: "Futebol", status: "published" },
  { title: "Contratação sob embargo", category: "Futebol", status: "draft" },
  { title: "Vôlei já publicado", category: "Vôlei", status: "published" },
] as const;

const test = base.extend<{ site: RunningSite; admin: BrowserContext }>({
  site: async ({ launchSite }, use) => {
    const site = await launchSite({
      // The page cache on, as in production: readers must see what a bulk action changed at once.
      env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1" },
      async setup(services) {
        for (const story of STORIES) {
          await services.newsEditor.createNews(
            newsInputSchema.parse({ title: story.title, subtitle: `Subtítulo: ${story.title}`, category: story.category, status: story.status }),
            null,
            testsActor,
          );
        }
      },
    });
    await use(site);
  },
  admin: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site);
    await use(context);
    for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
    await context.close();
  },
});

test.describe.configure({ timeout: 90_000 });

const rows = (page: Page) => page.getByTestId("newsroom-row");
const rowOf = (page: Page, title: string) => rows(page).filter({ hasText: title });
const titlesOf = async (page: Page) => (await rows(page).locator("td:nth-child(2)").allTextContents()).sort();

async function statusOf(site: RunningSite, title: string): Promise<string | undefined> {
  const [row] = await siteQuery<{ status: string }>(site, "SELECT status FROM news WHERE title = ?", title);
  return row?.status;
}

async function expectAxeClean(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`),
    `axe em ${label}`,
  ).toEqual([]);
  expect(results.passes.length).toBeGreaterThan(0);
}

test("filtros pelo formulário (situação e categoria), URL compartilhável, busca que acha um rascunho, 375 px e axe", async ({ site, admin }) => {
  const page = await admin.newPage();
  await openPage(page, site, "/");
  // Linked from the admin menu.
  await page.getByRole("button", { name: t.admin.menu }).click();
  await page.getByRole("link", { name: t.admin.newsroom }).click();
  await expect(page).toHaveURL(`${site.url}/redacao`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.newsroom.title);
  await expect(rows(page)).toHaveCount(STORIES.length);
  // Every row: its status badge, an edit link and a view link.
  const draftRow = rowOf(page, "Rascunho do vôlei azul");
  await expect(draftRow.getByText(t.newsroom.statusBadge.draft, { exact: true })).toBeVisible();
  await expect(draftRow.getByRole("link", { name: t.newsroom.editLabel("Rascunho do vôlei azul") })).toHaveAttribute("href", /^\/edit-news\/[^/]+$/);
  await expect(draftRow.getByRole("link", { name: t.newsroom.viewLabel("Rascunho do vôlei azul") })).toHaveAttribute("href", /^\/article\//);
  // A draft was never published: no date under "Publicação" (its stored date is only the list's order).
  await expect(draftRow.getByTestId("newsroom-published")).toHaveText(`—${t.newsroom.notPublished}`);
  await expectAxeClean(page, "/redacao");
  // "Select all" (with JavaScript) marks and unmarks every row of the page.
  const boxes = page.getByTestId("newsroom-table").locator('tbody input[type="checkbox"]');
  await page.getByRole("checkbox", { name: t.newsroom.selectAll }).check();
  for (const box of await boxes.all()) await expect(box).toBeChecked();
  await page.getByRole("checkbox", { name: t.newsroom.selectAll }).uncheck();
  for (const box of await boxes.all()) await expect(box).not.toBeChecked();

  await page.getByLabel(t.newsroom.status, { exact: true }).selectOption("rascunhos");
  await page.getByLabel(t.newsroom.category, { exact: true }).selectOption({ label: "Vôlei" });
  await page.getByRole("button", { name: t.newsroom.apply }).click();
  // Only the filters set are in the URL.
  await expect(page).toHaveURL(`${site.url}/redacao?situacao=rascunhos&categoria=volei`);
  await expect.poll(() => titlesOf(page)).toEqual(["Rascunho do vôlei azul", "Rascunho do vôlei verde"]);

  // The URL is the view: opened in another tab, the same rows and the form filled in.
  const shared = await admin.newPage();
  await openPage(shared, site, "/redacao?situacao=rascunhos&categoria=volei");
  expect(await titlesOf(shared)).toEqual(["Rascunho do vôlei azul", "Rascunho do vôlei verde"]);
  await expect(shared.getByLabel(t.newsroom.status, { exact: true })).toHaveValue("rascunhos");
  await expect(shared.getByLabel(t.newsroom.category, { exact: true })).toHaveValue("volei");
  await shared.close();

  // Search covers drafts for the newsroom (readers' search does not find it: tests/integration/newsroom-list.test.ts).
  await page.getByRole("link", { name: t.newsroom.clear }).click();
  await expect(rows(page)).toHaveCount(STORIES.length);
  await page.getByLabel(t.newsroom.search, { exact: true }).fill("embargo");
  await page.getByRole("button", { name: t.newsroom.apply }).click();
  await expect(page).toHaveURL(/[?&]q=embargo/);
  await expect.poll(() => titlesOf(page)).toEqual(["Contratação sob embargo"]);

  // How many, and which: the count over the table; the title opens the story's edit page.
  await page.getByRole("link", { name: t.newsroom.clear }).click();
  await expect(page.getByTestId("newsroom-count")).toHaveText(t.newsroom.count(STORIES.length, 1, STORIES.length));
  await expect(rowOf(page, "Rascunho do vôlei azul").getByTestId("newsroom-title")).toHaveAttribute("href", /^\/edit-news\/[^/]+$/);
  // The date headers sort: "Atualização" is a link until it is the order, then "Publicação" is.
  const byUpdate = page.getByTestId("sort-atualizacao");
  await expect(page.getByRole("columnheader", { name: t.newsroom.columns.published })).toHaveAttribute("aria-sort", "descending");
  await byUpdate.click();
  await expect(page).toHaveURL(`${site.url}/redacao?ordem=atualizacao`);
  await expect(page.getByRole("columnheader", { name: t.newsroom.columns.updated })).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByTestId("sort-publicacao")).toBeVisible();
  await expect(page.getByLabel(t.newsroom.sort, { exact: true })).toHaveValue("atualizacao");

  // A phone: cards, no horizontal scroll, still accessible.
  await page.setViewportSize({ width: 375, height: 800 });
  await openPage(page, site, "/redacao");
  await expect(rows(page)).toHaveCount(STORIES.length);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "rolagem horizontal a 375 px").toBeLessThanOrEqual(0);
  await expectAxeClean(page, "/redacao a 375 px");
});

test("publicar dois rascunhos em lote: o diálogo pergunta, a redação diz quantas, e elas aparecem na página inicial", async ({
  site,
  admin,
  browser,
}) => {
  // A reader's home, held by the page cache before the change.
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  await openPage(readerPage, site, "/");
  await expect(readerPage.getByText("Rascunho do vôlei azul", { exact: true })).toHaveCount(0);
  await expect.poll(async () => (await reader.request.get(`${site.url}/`)).headers()["x-page-cache"]).toBe("hit");

  const page = await admin.newPage();
  await openPage(page, site, "/redacao?situacao=rascunhos&categoria=volei");
  await expect(rows(page)).toHaveCount(2);
  for (const title of ["Rascunho do vôlei azul", "Rascunho do vôlei verde"]) {
    await page.getByRole("checkbox", { name: t.newsroom.selectOne(title) }).check();
  }
  await page.getByRole("button", { name: t.newsroom.bulk.publish, exact: true }).click();
  const dialog = page.getByTestId("bulk-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText(t.newsroom.confirmTitle.publish(2));
  await dialog.getByRole("button", { name: t.newsroom.confirm.publish }).click();
  await expect(page.getByTestId("banner-success")).toHaveText(t.newsroom.done.publish(2));
  // Back on the same filters: no drafts of vôlei left.
  await expect(page).toHaveURL(/\/redacao\?situacao=rascunhos&categoria=volei&feito=publish&n=2$/);
  await expect(rows(page)).toHaveCount(0);
  expect(await statusOf(site, "Rascunho do vôlei azul")).toBe("published");

  // The reader's home (held by the cache before) shows them at once: the action's event replaced it (the cache may
  // render it again ahead of readers, so the answer can be a hit: what counts is what it shows).
  const cachedHome = await (await reader.request.get(`${site.url}/`)).text();
  expect(cachedHome).toContain("Rascunho do vôlei azul");
  await openPage(readerPage, site, "/");
  await expect(readerPage.getByText("Rascunho do vôlei azul", { exact: true }).first()).toBeVisible();
  await expect(readerPage.getByText("Rascunho do vôlei verde", { exact: true }).first()).toBeVisible();
  await readerPage.goto("about:blank");
  await reader.close();

  const home = await admin.newPage();

  // The history of each says who published it.
  const [row] = await siteQuery<{ id: string }>(site, "SELECT id FROM news WHERE title = ?", "Rascunho do vôlei azul");
  await openPage(home, site, `/edit-news/${row!.id}/historico`);
  await expect(home.getByTestId("status-change").first()).toContainText("publicou");
});

test("excluir em lote: cancelar no diálogo não muda nada; confirmar leva as marcadas para a Lixeira, de onde se restaura ou exclui de vez", async ({
  site,
  admin,
}) => {
  // A forged request from another site, with the admin's cookie: refused by the origin check, nothing deleted.
  const [target] = await siteQuery<{ id: string }>(site, "SELECT id FROM news WHERE title = ?", "Final do futebol publicada");
  const forged = await admin.request.post(`${site.url}/redacao`, {
    form: { intent: "delete", id: target!.id, confirmed: "1" },
    headers: { origin: "https://outro-site.example" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(await statusOf(site, "Final do futebol publicada")).toBe("published");

  const page = await admin.newPage();
  await openPage(page, site, "/redacao");
  await page.getByRole("checkbox", { name: t.newsroom.selectOne("Final do futebol publicada") }).check();
  await page.getByRole("checkbox", { name: t.newsroom.selectOne("Contratação sob embargo") }).check();
  await page.getByRole("button", { name: t.newsroom.bulk.delete, exact: true }).click();
  const dialog = page.getByTestId("bulk-dialog");
  await expect(dialog.getByRole("heading")).toHaveText(t.newsroom.confirmTitle.delete(2));
  await dialog.getByRole("button", { name: t.newsroom.cancel }).click();
  await expect(dialog).toHaveCount(0);
  await expect(rows(page)).toHaveCount(STORIES.length);
  expect(await statusOf(site, "Final do futebol publicada")).toBe("published");

  await page.getByRole("button", { name: t.newsroom.bulk.delete, exact: true }).click();
  await page.getByTestId("bulk-dialog").getByRole("button", { name: t.newsroom.confirm.delete }).click();
  await expect(page.getByTestId("banner-success")).toHaveText(t.newsroom.done.delete(2));
  await expect(rows(page)).toHaveCount(STORIES.length - 2);
  expect(await statusOf(site, "Vôlei já publicado")).toBe("published");
  // Readers lost the published one at once.
  const anonymous = await fetch(`${site.url}/article/${target!.id}`);
  expect(anonymous.status).toBe(404);

  // The Lixeira holds both, since today, with its own actions and no form to open.
  await page.getByLabel(t.newsroom.status, { exact: true }).selectOption("lixeira");
  await page.getByRole("button", { name: t.newsroom.apply }).click();
  await expect(page).toHaveURL(/situacao=lixeira/);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByTestId("newsroom-trashed").first()).toContainText("Na Lixeira desde");
  await expect(page.getByRole("link", { name: t.newsroom.editLabel("Contratação sob embargo") })).toHaveCount(0);
  await expect(page.getByRole("button", { name: t.newsroom.bulk.publish, exact: true })).toHaveCount(0);

  // Restored: a draft again, with the same id (its links work again for the newsroom).
  await page.getByRole("checkbox", { name: t.newsroom.selectOne("Contratação sob embargo") }).check();
  await page.getByRole("button", { name: t.newsroom.bulk.restore, exact: true }).click();
  await page.getByTestId("bulk-dialog").getByRole("button", { name: t.newsroom.confirm.restore }).click();
  await expect(page.getByTestId("banner-success")).toHaveText(t.newsroom.done.restore(1));
  await expect(rows(page)).toHaveCount(1);
  expect(await statusOf(site, "Contratação sob embargo")).toBe("draft");

  // Erased for good: asked as a danger, then gone with its history.
  await page.getByRole("checkbox", { name: t.newsroom.selectOne("Final do futebol publicada") }).check();
  await page.getByRole("button", { name: t.newsroom.bulk.erase, exact: true }).click();
  const erase = page.getByTestId("bulk-dialog");
  await expect(erase.getByRole("heading")).toHaveText(t.newsroom.confirmTitle.erase(1));
  await erase.getByRole("button", { name: t.newsroom.confirm.erase }).click();
  await expect(page.getByTestId("banner-success")).toHaveText(t.newsroom.done.erase(1));
  await expect(page.getByText(t.newsroom.trashEmpty)).toBeVisible();
  expect(await statusOf(site, "Final do futebol publicada")).toBeUndefined();
});

test("sem JavaScript: o filtro é um formulário GET e a ação em lote pede confirmação numa etapa do servidor", async ({ browser, site }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await signInAsAdmin(context, site);
    const page = await context.newPage();
    await page.goto(`${site.url}/redacao`);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    await page.getByLabel(t.newsroom.status, { exact: true }).selectOption("publicadas");
    await page.getByRole("button", { name: t.newsroom.apply }).click();
    await expect(page).toHaveURL(/\/redacao\?(.*&)?situacao=publicadas/);
    expect(await titlesOf(page)).toEqual(["Final do futebol publicada", "Vôlei já publicado"]);

    await page.getByRole("checkbox", { name: t.newsroom.selectOne("Vôlei já publicado") }).check();
    await page.getByRole("button", { name: t.newsroom.bulk.unpublish, exact: true }).click();
    const step = page.getByTestId("bulk-confirm");
    await expect(step.getByRole("heading")).toHaveText(t.newsroom.confirmTitle.unpublish(1));
    await expect(step.getByText("Vôlei já publicado", { exact: true })).toBeVisible();
    expect(await statusOf(site, "Vôlei já publicado")).toBe("published");
    await step.getByRole("button", { name: t.newsroom.confirm.unpublish }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(t.newsroom.done.unpublish(1));
    expect(await statusOf(site, "Vôlei já publicado")).toBe("draft");
    // Back on the filtered view (published only): the story has left it.
    expect(await titlesOf(page)).toEqual(["Final do futebol publicada"]);
  } finally {
    await context.close();
  }
});
