/**
 * Drafts, scheduling and no lost edits, in the browser against the real server: a draft is a 404 for readers and
 * shows (with its banner and a preview) for the newsroom; a schedule a few seconds ahead goes live on an open
 * reader page by itself; two editors of one item do not overwrite each other silently.
 */
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, expectNoReload, expectStatus, markPage, openPage, siteQuery, signInAsAdmin, t, test as base } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const test = base.extend<{ site: RunningSite & { articleId: string }; admin: BrowserContext; reader: BrowserContext }>({
  site: async ({ launchSite }, use) => {
    let articleId = "";
    const site = await launchSite({
      // The page cache on, as in production: what readers get from it must never show a draft either.
      env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1" },
      async setup(services) {
        articleId = await createNews(services, { title: "Notícia publicada de janeiro", createdAt: "2026-01-10T12:00:00.000Z", media: null });
      },
    });
    await use({ ...site, articleId });
  },
  admin: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site);
    await use(context);
    await closeAll(context);
  },
  reader: async ({ browser }, use) => {
    const context = await browser.newContext();
    await use(context);
    await closeAll(context);
  },
});

// Each test opens several pages in two browser contexts against a server of its own: more than the default 30 s on a
// busy machine.
test.describe.configure({ timeout: 90_000 });

/** Leaves every page (closing its live-updates connection) before the site stops, then closes the context. */
async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const cardOf = (page: Page, title: string) => page.getByTestId("news-card").filter({ has: page.locator("h2, h3").getByText(title, { exact: true }) });
const apiHeaders = (site: RunningSite) => ({ origin: site.url, accept: "application/json" });

async function idOf(site: RunningSite, title: string): Promise<string> {
  const [row] = await siteQuery<{ id: string }>(site, "SELECT id FROM news WHERE title = ?", title);
  if (!row) throw new Error(`Sem notícia "${title}"`);
  return row.id;
}

test("um rascunho é 404 para o leitor (página, API, lista, busca) e aparece para o administrador, com aviso e pré-visualização", async ({
  site,
  admin,
  reader,
}) => {
  const title = `Rascunho da redação ${Date.now().toString(36)}`;
  const editor = await admin.newPage();
  await openPage(editor, site, "/add-news");
  await field(editor, t.newsForm.title).fill(title);
  await field(editor, t.newsForm.subtitle).fill("Ainda em apuração");
  await field(editor, t.newsForm.fullContent).fill("Texto que ninguém de fora pode ler ainda.");
  await field(editor, t.newsForm.category).fill("Futebol");
  await editor.getByRole("button", { name: t.newsForm.saveDraft, exact: true }).click();
  // The first save lands on the story's edit page, with the message and a link to see it as readers will (not yet live).
  await expect(editor).toHaveURL(/\/edit-news\/[^/?]+\?salva=draft/);
  await expect(editor.getByTestId("banner-success")).toHaveText(t.newsForm.draftSaved);
  const id = await idOf(site, title);
  expect(new URL(editor.url()).pathname).toBe(`/edit-news/${id}`);
  await expect(editor.getByLabel(t.newsForm.title, { exact: true })).toHaveValue(title);
  await expect(editor.getByTestId("news-landed").getByRole("link", { name: t.newsForm.preview })).toHaveAttribute("href", `/article/${id}?previa=1`);
  await expect(editor.getByRole("link", { name: t.newsForm.viewPublished })).toHaveCount(0);
  expect((await siteQuery<{ status: string }>(site, "SELECT status FROM news WHERE id = ?", id))[0]?.status).toBe("draft");

  // Readers: the article does not exist, anywhere.
  const page = await reader.newPage();
  const response = await openPage(page, site, `/article/${id}`);
  expect(response.status()).toBe(404);
  await expect(page.getByText(title)).toHaveCount(0);
  await expectStatus(await reader.request.get(`${site.url}/api/news/${id}`), 404, "GET /api/news/{rascunho} do leitor");
  const list = (await (await reader.request.get(`${site.url}/api/news?status=all`)).json()) as { news: Array<{ id: string }> };
  expect(list.news.map((item) => item.id)).toEqual([site.articleId]);
  await openPage(page, site, "/news-list");
  await expect(cardOf(page, "Notícia publicada de janeiro")).toBeVisible();
  await expect(cardOf(page, title)).toHaveCount(0);
  await expect(page.getByTestId("status-filter")).toHaveCount(0);
  for (const path of ["/rss.xml", "/sitemaps/news.xml", "/sitemaps/articles-1.xml", "/busca?q=apura%C3%A7%C3%A3o"]) {
    const body = await (await reader.request.get(`${site.url}${path}`)).text();
    expect(body, path).not.toContain(id);
  }

  // The newsroom: the article with its banner, a preview as readers will see it, and the list's status filter.
  await openPage(editor, site, `/article/${id}`);
  await expect(editor.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(editor.getByTestId("status-banner")).toContainText(t.article.draftBanner);
  await editor.getByRole("link", { name: t.article.previewLink }).click();
  await expect(editor.getByTestId("preview-banner")).toContainText(t.article.previewBanner);
  await expect(editor.getByRole("link", { name: t.article.edit })).toHaveCount(0);
  await expect(editor.getByRole("heading", { level: 1, name: title })).toBeVisible();

  await openPage(editor, site, "/news-list");
  const filter = editor.getByTestId("status-filter");
  await expect(filter.getByRole("link", { name: t.newsList.statusFilter.todas })).toHaveAttribute("aria-current", "page");
  await expect(cardOf(editor, title).getByTestId("card-status")).toHaveText(t.newsForm.statusLabel.draft);
  await filter.getByRole("link", { name: t.newsList.statusFilter.publicadas }).click();
  await expect(filter.getByRole("link", { name: t.newsList.statusFilter.publicadas })).toHaveAttribute("aria-current", "page");
  await expect(cardOf(editor, title)).toHaveCount(0);
  await expect(cardOf(editor, "Notícia publicada de janeiro")).toBeVisible();
  await filter.getByRole("link", { name: t.newsList.statusFilter.rascunhos }).click();
  await expect(filter.getByRole("link", { name: t.newsList.statusFilter.rascunhos })).toHaveAttribute("aria-current", "page");
  await expect(cardOf(editor, title)).toBeVisible();
  await expect(cardOf(editor, "Notícia publicada de janeiro")).toHaveCount(0);

  // Published from the form: now it is there for readers, dated today.
  await openPage(editor, site, `/edit-news/${id}`);
  await expect(editor.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.draft);
  await editor.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
  await expect(editor.getByTestId("banner-success")).toBeVisible();
  await expect.poll(async () => (await reader.request.get(`${site.url}/api/news/${id}`)).status()).toBe(200);
  await openPage(page, site, `/article/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId("status-banner")).toHaveCount(0);
});

test("uma notícia agendada para daqui a 5 s entra sozinha na página aberta do leitor, sem recarregar", async ({ site, admin, reader }) => {
  const page = await reader.newPage();
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
  await openPage(page, site, "/news-list");
  await stream;
  await markPage(page);
  const title = `Agendada para já ${Date.now().toString(36)}`;
  const publishAt = new Date(Date.now() + 5_000).toISOString();
  const created = await admin.request.post(`${site.url}/api/news`, {
    data: { title, subtitle: "Sai sozinha na hora marcada", status: "scheduled", publishAt },
    headers: apiHeaders(site),
  });
  await expectStatus(created, 201, "POST /api/news agendada");
  const body = (await created.json()) as { id: string; status: string; publishedAt: string; version: number };
  expect(body).toMatchObject({ status: "scheduled", publishedAt: publishAt, version: 1 });
  // Before its time: nobody but the newsroom sees it.
  await expectStatus(await reader.request.get(`${site.url}/api/news/${body.id}`), 404, "GET agendada antes da hora");
  await expect(cardOf(page, title)).toHaveCount(0);
  // At its time, the server publishes it by itself (the reader's page asks nothing) and the open page follows.
  await expect(cardOf(page, title)).toBeVisible({ timeout: 20_000 });
  await expectNoReload(page);
  const live = (await (await reader.request.get(`${site.url}/api/news/${body.id}`)).json()) as { news: { status: string; publishedAt: string } };
  expect(live.news).toMatchObject({ status: "published", publishedAt: publishAt });
});

test("dois administradores editam a mesma notícia: o segundo salvamento não sobrescreve calado, recebe o conflito e decide", async ({
  site,
  admin,
}) => {
  const first = await admin.newPage();
  const second = await admin.newPage();
  await openPage(first, site, `/edit-news/${site.articleId}`);
  await openPage(second, site, `/edit-news/${site.articleId}`);

  await field(first, t.newsForm.title).fill("Título da primeira editora");
  await first.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
  await expect(first.getByTestId("banner-success")).toBeVisible();

  await field(second, t.newsForm.subtitle).fill("Subtítulo da segunda editora");
  await second.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
  const conflict = second.getByTestId("conflict");
  await expect(conflict).toContainText(t.newsForm.conflict);
  await expect(conflict).toContainText(t.newsForm.conflictChanged([t.newsForm.conflictFields.title!]));
  const [saved] = await siteQuery<{ title: string; subtitle: string; version: number | string }>(
    site,
    "SELECT title, subtitle, version FROM news WHERE id = ?",
    site.articleId,
  );
  expect(saved).toMatchObject({ title: "Título da primeira editora" });
  expect(Number(saved?.version)).toBe(2);
  // The second editor's text is still in the form, nothing lost.
  await expect(field(second, t.newsForm.subtitle)).toHaveValue("Subtítulo da segunda editora");

  // The API says the same with a stable code.
  const stale = await admin.request.patch(`${site.url}/api/news/${site.articleId}`, {
    data: { title: "Velho", version: 1 },
    headers: apiHeaders(site),
  });
  await expectStatus(stale, 409, "PATCH com versão antiga");
  expect(((await stale.json()) as { error: { code: string } }).error.code).toBe("news_version_conflict");

  // Reload: the form now shows the saved version, and a save from it goes through.
  await conflict.getByRole("button", { name: t.newsForm.conflictReload }).click();
  await expect(field(second, t.newsForm.title)).toHaveValue("Título da primeira editora");
  await field(second, t.newsForm.subtitle).fill("Subtítulo da segunda editora");
  await second.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
  await expect(second.getByTestId("banner-success")).toBeVisible();
  const [after] = await siteQuery<{ title: string; subtitle: string }>(site, "SELECT title, subtitle FROM news WHERE id = ?", site.articleId);
  expect(after).toEqual({ title: "Título da primeira editora", subtitle: "Subtítulo da segunda editora" });
});

test("o histórico de uma notícia: as versões com quem e quando, as diferenças entre duas, e restaurar uma (que vira nova versão)", async ({
  site,
  admin,
  reader,
}) => {
  const headers = apiHeaders(site);
  const edited = await admin.request.patch(`${site.url}/api/news/${site.articleId}`, {
    data: { title: "Título corrigido pela redação", fullContent: "Texto reescrito.", version: 1 },
    headers,
  });
  await expectStatus(edited, 200, "PATCH");

  const page = await admin.newPage();
  await openPage(page, site, `/edit-news/${site.articleId}`);
  await page.getByRole("link", { name: t.revisions.link }).click();
  await expect(page.getByRole("heading", { level: 1, name: t.revisions.title })).toBeVisible();
  const versions = page.getByTestId("versions").getByRole("listitem");
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText(`${t.revisions.version(2)} (${t.revisions.current})`);
  await expect(versions.nth(1)).toContainText(t.revisions.version(1));
  await expect(versions.nth(1)).toContainText("Notícia publicada de janeiro");
  // The default comparison: version 1 → 2, word by word.
  const comparison = page.getByTestId("comparison");
  await expect(comparison.getByRole("heading")).toHaveText(`${t.revisions.version(1)} → ${t.revisions.version(2)}`);
  await expect(comparison.locator("del").first()).toContainText("Notícia");
  await expect(comparison.locator("ins").first()).toContainText("Título");
  await expect(comparison.getByText(t.revisions.fields.fullContent!, { exact: true })).toBeVisible();

  // The story is live: restoring asks first. Cancelling changes nothing.
  const restoreButton = versions.nth(1).getByRole("button", { name: `${t.revisions.restore}: ${t.revisions.version(1)}` });
  await restoreButton.click();
  const dialog = page.getByRole("alertdialog", { name: t.revisions.restoreLiveTitle });
  await expect(dialog).toContainText(t.revisions.restoreLiveText(1));
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  await dialog.getByRole("button", { name: t.revisions.restoreCancel }).click();
  await expect(dialog).toHaveCount(0);
  await expect(restoreButton).toBeFocused();
  const [unchanged] = await siteQuery<{ version: number | string }>(site, "SELECT version FROM news WHERE id = ?", site.articleId);
  expect(Number(unchanged?.version)).toBe(2);
  await restoreButton.click();
  await dialog.getByRole("button", { name: t.revisions.restoreConfirm }).click();
  await expect(page.getByTestId("banner-success")).toHaveText(t.revisions.restored(3));
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText("Notícia publicada de janeiro");
  const [row] = await siteQuery<{ title: string; version: number | string }>(site, "SELECT title, version FROM news WHERE id = ?", site.articleId);
  expect(row?.title).toBe("Notícia publicada de janeiro");
  expect(Number(row?.version)).toBe(3);
  // Readers get the restored text.
  const answer = (await (await reader.request.get(`${site.url}/api/news/${site.articleId}`)).json()) as { news: { title: string } };
  expect(answer.news.title).toBe("Notícia publicada de janeiro");
  // Readers never reach the history.
  const readerPage = await reader.newPage();
  await readerPage.goto(`${site.url}/edit-news/${site.articleId}/historico`);
  await expect(readerPage).toHaveURL(/\/admin\/login/);
});

test("uma notícia publicada: 'Salvar alterações' e um 'Salvar rascunho' antigo a mantêm no ar; 'Despublicar' pergunta, e o histórico mostra quem publicou e despublicou", async ({
  site,
  admin,
  reader,
}) => {
  const id = site.articleId;
  const editor = await admin.newPage();
  await openPage(editor, site, `/edit-news/${id}`);
  await expect(editor.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.published);
  // Live: no draft or schedule button, the save keeps it published, and "Despublicar" stands apart.
  await expect(editor.getByRole("button", { name: t.newsForm.saveDraft, exact: true })).toHaveCount(0);
  await expect(editor.getByRole("button", { name: t.newsForm.schedule, exact: true })).toHaveCount(0);
  await field(editor, t.newsForm.title).fill("Notícia publicada de janeiro, corrigida");
  await editor.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
  await expect(editor.getByTestId("banner-success")).toBeVisible();
  const statusNow = async () =>
    (await siteQuery<{ status: string; version: number | string }>(site, "SELECT status, version FROM news WHERE id = ?", id))[0];
  await expect.poll(async () => Number((await statusNow())?.version)).toBe(2);
  expect((await statusNow())?.status).toBe("published");

  // A form opened before (or another client) sends "Salvar rascunho" (status draft, no unpublish): saved, still live.
  const stale = await admin.request.put(`${site.url}/api/news/${id}`, {
    multipart: {
      title: "Notícia publicada de janeiro",
      subtitle: "Subtítulo",
      fullContent: "Texto.",
      category: "Geral",
      status: "draft",
      version: "2",
    },
    headers: apiHeaders(site),
  });
  await expectStatus(stale, 200, "PUT com status draft");
  expect(((await stale.json()) as { status: string }).status).toBe("published");
  await expectStatus(await reader.request.get(`${site.url}/api/news/${id}`), 200, "GET do leitor depois do rascunho antigo");

  // "Despublicar": the dialog says what happens; cancelling keeps it live.
  await openPage(editor, site, `/edit-news/${id}`);
  const unpublish = editor.getByRole("button", { name: t.newsForm.unpublish, exact: true });
  await unpublish.click();
  const dialog = editor.getByRole("alertdialog", { name: t.newsForm.unpublishTitle });
  await expect(dialog).toContainText(t.newsForm.unpublishText);
  const axe = await new AxeBuilder({ page: editor }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  await dialog.getByRole("button", { name: t.newsForm.unpublishCancel }).click();
  await expect(dialog).toHaveCount(0);
  await expect(unpublish).toBeFocused();
  expect(await statusNow()).toMatchObject({ status: "published" });
  expect(Number((await statusNow())?.version)).toBe(3);

  // Confirmed: a draft now, the editor stays on its edit page, readers get "not found".
  const [{ published_at: firstPublished }] = (await siteQuery<{ published_at: string }>(site, "SELECT published_at FROM news WHERE id = ?", id)) as [
    { published_at: string },
  ];
  await unpublish.click();
  await dialog.getByRole("button", { name: t.newsForm.unpublishConfirm }).click();
  await expect(editor).toHaveURL(new RegExp(`/edit-news/${id}\\?salva=despublicada`));
  await expect(editor.getByTestId("banner-success")).toHaveText(t.newsForm.unpublished);
  await expect(editor.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.draft);
  expect((await statusNow())?.status).toBe("draft");
  const readerPage = await reader.newPage();
  expect((await openPage(readerPage, site, `/article/${id}`)).status()).toBe(404);

  // Published again from the form: at its first publication date (its place in the lists), as readers see it; the
  // history says who did what.
  await editor.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
  await expect.poll(async () => (await statusNow())?.status).toBe("published");
  expect(await siteQuery(site, "SELECT published_at FROM news WHERE id = ?", id)).toEqual([{ published_at: firstPublished }]);
  await openPage(readerPage, site, `/article/${id}`);
  await expect(readerPage.locator("article header").first().getByTestId("article-date").first().locator("time")).toHaveAttribute(
    "datetime",
    firstPublished,
  );
  const [who] = await siteQuery<{ name: string }>(site, 'SELECT u.name FROM news n JOIN "user" u ON u.id = n.updated_by WHERE n.id = ?', id);
  await openPage(editor, site, `/edit-news/${id}/historico`);
  const changes = editor.getByTestId("status-change");
  await expect(changes.first()).toContainText(`${who!.name} ${t.revisions.statusChange.published} em `);
  await expect(changes.nth(1)).toContainText(`${who!.name} ${t.revisions.statusChange.unpublished} em `);
  // The first version was published by the seed (no one).
  await expect(changes.last()).toContainText(`${t.revisions.unknownAuthor} ${t.revisions.statusChange.published}`);
});

test("sem JavaScript: 'Despublicar' e restaurar uma versão de uma notícia no ar pedem confirmação numa segunda etapa", async ({ site, browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await signInAsAdmin(context, site);
    const page = await context.newPage();
    const id = site.articleId;
    const statusNow = async () =>
      (await siteQuery<{ status: string; version: number | string }>(site, "SELECT status, version FROM news WHERE id = ?", id))[0];
    await page.goto(`${site.url}/edit-news/${id}`);
    await page.getByRole("button", { name: t.newsForm.unpublish, exact: true }).click();
    const ask = page.getByTestId("unpublish-confirm");
    await expect(ask).toContainText(t.newsForm.unpublishText);
    // The answer opens at the question (it sits after the buttons: Enter in a field still means "Salvar alterações").
    expect(new URL(page.url()).hash).toBe("#confirmar-despublicar");
    await expect(ask).toBeInViewport();
    // Nothing saved by the first press.
    expect(await statusNow()).toMatchObject({ status: "published" });
    expect(Number((await statusNow())?.version)).toBe(1);
    await ask.getByRole("button", { name: t.newsForm.unpublishConfirm, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/edit-news/${id}\\?salva=despublicada`));
    expect((await statusNow())?.status).toBe("draft");

    // Live again (API), then a restore from the history: a confirmation step first.
    await expectStatus(
      await context.request.patch(`${site.url}/api/news/${id}`, { data: { status: "published" }, headers: apiHeaders(site) }),
      200,
      "PATCH published",
    );
    const versionBefore = Number((await statusNow())?.version);
    await page.goto(`${site.url}/edit-news/${id}/historico`);
    await page
      .getByTestId("versions")
      .getByRole("listitem")
      .last()
      .getByRole("button", { name: new RegExp(`^${t.revisions.restore}`) })
      .click();
    const confirm = page.getByTestId("restore-confirm");
    await expect(confirm).toContainText(t.revisions.restoreLiveTitle);
    expect(Number((await statusNow())?.version)).toBe(versionBefore);
    await confirm.getByRole("button", { name: t.revisions.restoreConfirm }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(t.revisions.restored(versionBefore + 1));
  } finally {
    await context.close();
  }
});
