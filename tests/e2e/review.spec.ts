/**
 * The review queue in the browser, against the real server and a real SMTP receiver: a reporter sends a story for
 * review (the editor gets an e-mail with the edit link), the editor returns it with a note (the reporter gets an
 * e-mail and sees the note at the top of the form), the reporter sends it again, the editor publishes it (the reporter
 * gets an e-mail), and the history says who did each step, with the note.
 */
import type { APIResponse, BrowserContext, Page } from "@playwright/test";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import { apiHeaders, expect, expectStatus, openPage, siteQuery, signInAsAdmin, signInThroughPage, t, test as base } from "./support/fixtures.ts";
import { freePort, type RunningSite } from "#tests/factories/site.ts";
import { type SmtpReceiver, startSmtpReceiver } from "./support/smtp.ts";

type ReviewSite = RunningSite & { reporter: TestAccount; editor: TestAccount; smtp: SmtpReceiver };

const test = base.extend<{ site: ReviewSite }>({
  site: async ({ launchSite }, use) => {
    const smtp = await startSmtpReceiver();
    try {
      let reporter!: TestAccount;
      let editor!: TestAccount;
      // SITE_URL is the address the tests use: the e-mails' links point to it.
      const port = await freePort();
      const site = await launchSite({
        port,
        env: { SITE_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, LOGIN_RATE_LIMIT: "1000" },
        async setup(services) {
          reporter = await createMember(services, "reporter", { password: "Senha-reporter-1", name: "Rita Repórter" });
          editor = await createMember(services, "editor", { password: "Senha-editor-1", name: "Ana Editora" });
        },
      });
      await use({ ...site, reporter, editor, smtp });
    } finally {
      await smtp.stop();
    }
  },
});

// Two browser contexts and several pages against a server of its own: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 150_000 });

async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** Waits for the `n`-th e-mail to `address` and returns it. */
async function nthMailTo(smtp: SmtpReceiver, address: string, n: number) {
  await expect.poll(() => smtp.messagesTo(address).length).toBeGreaterThanOrEqual(n);
  return smtp.messagesTo(address)[n - 1]!;
}

test("o repórter envia, o editor devolve com nota, o repórter vê a nota e reenvia, o editor publica; e-mails e histórico", async ({
  site,
  browser,
}) => {
  const { smtp } = site;
  const title = `Pauta em revisão ${Date.now().toString(36)}`;
  const note = "Falta a declaração do técnico depois do jogo.";
  const reporterContext = await browser.newContext();
  const editorContext = await browser.newContext();
  try {
    // The reporter writes and sends it for review.
    const reporter = await reporterContext.newPage();
    await signInThroughPage(reporter, site, site.reporter.email, site.reporter.password, "?redirectTo=%2Fadd-news");
    await expect(reporter).toHaveURL(/\/add-news$/);
    await field(reporter, t.newsForm.title).fill(title);
    await field(reporter, t.newsForm.subtitle).fill("Apuração pronta para o editor");
    await field(reporter, t.newsForm.fullContent).fill("Texto que o editor vai revisar antes de publicar.");
    await field(reporter, t.newsForm.category).fill("Futebol");
    await reporter.getByRole("button", { name: t.newsForm.submitReview, exact: true }).click();
    await expect(reporter).toHaveURL(/\/edit-news\/[^/?]+\?salva=review/);
    const [row] = await siteQuery<{ id: string }>(site, "SELECT id FROM news WHERE title = ?", title);
    const id = row!.id;
    // A reporter never sees "Devolver ao repórter".
    await expect(reporter.getByTestId("review-return")).toHaveCount(0);

    // The editor gets an e-mail with the title, the author and the edit link; the reporter gets none.
    const submitted = await nthMailTo(smtp, site.editor.email, 1);
    expect(submitted.subject).toBe(t.review.mail.submittedSubject("Esporte em Foco", title));
    expect(submitted.text).toContain("Rita Repórter enviou uma notícia para revisão");
    expect(submitted.text).toContain(`${site.url}/edit-news/${id}`);
    expect(smtp.messagesTo(site.reporter.email)).toHaveLength(0);

    // The editor follows the link and returns it: an empty note is refused by the form, a note sends it back.
    await signInAsAdmin(editorContext, site, site.editor);
    const editor = await editorContext.newPage();
    await openPage(editor, site, `/edit-news/${id}`);
    const panel = editor.getByTestId("review-return");
    await expect(panel.getByRole("heading", { name: t.review.returnTitle })).toBeVisible();
    await panel.getByRole("button", { name: t.review.returnSubmit, exact: true }).click();
    await expect(editor).toHaveURL(new RegExp(`/edit-news/${id}$`));
    expect(
      (await siteQuery<{ status: string; r: string | null }>(site, "SELECT status, review_requested_at AS r FROM news WHERE id = ?", id))[0]!.r,
    ).not.toBeNull();
    await panel.getByLabel(t.review.noteLabel, { exact: true }).fill(note);
    await panel.getByRole("button", { name: t.review.returnSubmit, exact: true }).click();
    await expect(editor).toHaveURL(new RegExp(`/edit-news/${id}\\?devolvida=1`));
    await expect(editor.getByTestId("banner-success")).toHaveText(t.review.returned);
    await expect(editor.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.draft);
    await expect(editor.getByTestId("review-return")).toHaveCount(0);

    // The reporter gets an e-mail with the note, and sees it at the top of the form.
    const returned = await nthMailTo(smtp, site.reporter.email, 1);
    expect(returned.subject).toBe(t.review.mail.returnedSubject("Esporte em Foco", title));
    expect(returned.text).toContain(`Nota: ${note}`);
    expect(returned.text).toContain(`${site.url}/edit-news/${id}`);
    await openPage(reporter, site, `/edit-news/${id}`);
    await expect(reporter.getByTestId("review-returned")).toContainText(`Devolvida por Ana Editora em `);
    await expect(reporter.getByTestId("review-returned")).toContainText(note);

    // The reporter fixes it and sends it again: the note goes away, the editor gets a second e-mail.
    await field(reporter, t.newsForm.subtitle).fill("Apuração com a declaração do técnico");
    await reporter.getByRole("button", { name: t.newsForm.submitReview, exact: true }).click();
    // At once "Em revisão" on the form (the status line and the message), then on the article it opens (never
    // "Rascunho"), saying who sees it.
    await expect(reporter.getByTestId("news-status")).toHaveText(t.newsForm.currentStatus(t.newsForm.statusLabel.review, null));
    await expect(reporter.getByTestId("banner-success")).toHaveText(t.newsForm.reviewSaved);
    await expect(reporter).toHaveURL(new RegExp(`/article/${id}`), { timeout: 10_000 });
    await expect(reporter.getByTestId("status-banner")).toContainText(t.article.reviewBanner);
    await expect
      .poll(async () => (await siteQuery<{ r: string | null }>(site, "SELECT review_requested_at AS r FROM news WHERE id = ?", id))[0]?.r ?? null)
      .not.toBeNull();
    await openPage(reporter, site, `/edit-news/${id}`);
    await expect(reporter.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.review);
    await expect(reporter.getByTestId("review-returned")).toHaveCount(0);
    await nthMailTo(smtp, site.editor.email, 2);

    // In the history the current version says "Em revisão" too (a draft in review is stored as a draft).
    await openPage(editor, site, `/edit-news/${id}/historico`);
    const current = editor.getByTestId("versions").getByRole("listitem").first();
    await expect(current).toContainText(t.revisions.status(t.newsForm.statusLabel.review));
    await expect(current).not.toContainText(t.revisions.status(t.newsForm.statusLabel.draft));
    await expect(current.getByTestId("status-change")).toHaveCount(0);

    // The editor publishes it: the reporter gets the e-mail.
    await openPage(editor, site, `/edit-news/${id}`);
    await expect(editor.getByTestId("review-return")).toBeVisible();
    await editor.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect
      .poll(async () => (await siteQuery<{ status: string }>(site, "SELECT status FROM news WHERE id = ?", id))[0]?.status)
      .toBe("published");
    const published = await nthMailTo(smtp, site.reporter.email, 2);
    expect(published.subject).toBe(t.review.mail.publishedSubject("Esporte em Foco", title));
    expect(published.text).toContain("Ana Editora aprovou e publicou a sua notícia");

    // The history: who sent it, who returned it (with the note), who approved it.
    await openPage(editor, site, `/edit-news/${id}/historico`);
    const steps = editor.getByTestId("review-step");
    await expect(steps).toHaveCount(4);
    await expect(editor.locator('[data-testid="review-step"][data-kind="submitted"]')).toHaveCount(2);
    await expect(editor.locator('[data-testid="review-step"][data-kind="submitted"]').first()).toContainText("Rita Repórter enviou para revisão em");
    const back = editor.locator('[data-testid="review-step"][data-kind="returned"]');
    await expect(back).toContainText("Ana Editora devolveu ao repórter em");
    await expect(back).toContainText(`Nota: ${note}`);
    await expect(editor.locator('[data-testid="review-step"][data-kind="approved"]')).toContainText("Ana Editora aprovou");
  } finally {
    await closeAll(reporterContext);
    await closeAll(editorContext);
  }
});

test("POST /api/news/:id/return pela API: o repórter recebe 403, a nota é obrigatória, fora de revisão é 409; devolvida responde como um salvamento", async ({
  site,
  browser,
}) => {
  const reporterContext = await browser.newContext();
  const editorContext = await browser.newContext();
  try {
    await signInAsAdmin(reporterContext, site, site.reporter);
    await signInAsAdmin(editorContext, site, site.editor);
    const headers = { ...apiHeaders(site), accept: "application/json" };
    const created = await reporterContext.request.post(`${site.url}/api/news`, {
      data: { title: "Pauta pela API", subtitle: "Subtítulo", fullContent: "Texto", category: "Vôlei", status: "review" },
      headers,
    });
    await expectStatus(created, 201, "POST /api/news");
    const { id } = (await created.json()) as { id: string };
    const returnOf = (context: BrowserContext, data: unknown) => context.request.post(`${site.url}/api/news/${id}/return`, { data, headers });
    const codeOf = async (response: APIResponse) => ((await response.json()) as { error: { code: string } }).error.code;

    const byReporter = await returnOf(reporterContext, { note: "Eu mesmo devolvo." });
    expect(byReporter.status()).toBe(403);
    expect(await codeOf(byReporter)).toBe("role_forbidden");
    const empty = await returnOf(editorContext, { note: "  " });
    expect(empty.status()).toBe(400);
    expect(((await empty.json()) as { error: { code: string; fields: { note: string[] } } }).error).toMatchObject({
      code: "note_required",
      fields: { note: [t.review.noteRequired] },
    });
    const [before] = await siteQuery<{ status: string; version: number }>(site, "SELECT status, version FROM news WHERE id = ?", id);
    expect(before).toMatchObject({ status: "draft", version: 1 });

    const done = await returnOf(editorContext, { note: "Confira o nome do levantador.", version: 1 });
    await expectStatus(done, 200, "return");
    expect(await done.json()).toMatchObject({ id, status: "draft", version: 2 });
    const again = await returnOf(editorContext, { note: "De novo." });
    expect(again.status()).toBe(409);
    expect(await codeOf(again)).toBe("not_in_review");
    const mail = await nthMailTo(site.smtp, site.reporter.email, 1);
    expect(mail.text).toContain("Nota: Confira o nome do levantador.");

    // The edit page's form (urlencoded, no JavaScript needed) is sent back to the page, which says why it was refused.
    const fromPage = await editorContext.request.post(`${site.url}/api/news/${id}/return`, {
      form: { note: "Mais uma." },
      headers: apiHeaders(site),
      maxRedirects: 0,
    });
    expect(fromPage.status()).toBe(303);
    expect(fromPage.headers().location).toBe(`/edit-news/${id}?devolucao=not_in_review`);
    const editor = await editorContext.newPage();
    await openPage(editor, site, fromPage.headers().location!);
    await expect(editor.getByTestId("banner-error")).toHaveText(t.review.notInReview);
    await expect(editor.getByTestId("review-returned")).toContainText("Confira o nome do levantador.");
  } finally {
    await closeAll(reporterContext);
    await closeAll(editorContext);
  }
});

test("sem JavaScript: 'Enviar para revisão' diz 'Em revisão' na hora, ao criar e ao reenviar um rascunho, nunca 'Rascunho'", async ({
  site,
  browser,
}) => {
  const title = `Pauta sem script ${Date.now().toString(36)}`;
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await signInAsAdmin(context, site, site.reporter);
    const page = await context.newPage();
    // A new story sent for review: its edit page says so, in the message and in the status line.
    await page.goto(`${site.url}/add-news`);
    await field(page, t.newsForm.title).fill(title);
    await field(page, t.newsForm.subtitle).fill("Apuração feita no celular");
    await field(page, t.newsForm.fullContent).fill("Texto enviado sem JavaScript.");
    await field(page, t.newsForm.category).fill("Futebol");
    await page.getByRole("button", { name: t.newsForm.submitReview, exact: true }).click();
    await expect(page).toHaveURL(/\/edit-news\/[^/?]+\?salva=review/);
    await expect(page.getByTestId("banner-success")).toHaveText(t.newsForm.reviewSaved);
    await expect(page.getByTestId("news-status")).toHaveText(t.newsForm.currentStatus(t.newsForm.statusLabel.review, null));
    const [row] = await siteQuery<{ id: string }>(site, "SELECT id FROM news WHERE title = ?", title);
    const id = row!.id;

    // Back to a draft ("Salvar rascunho" ends the review): the article says "Rascunho", and who sees it.
    await page.getByRole("button", { name: t.newsForm.saveDraft, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${id}$`));
    await expect(page.getByTestId("status-banner")).toContainText(t.article.draftBanner);
    await expect(page.getByText(t.article.draftSavedOn)).toBeVisible();

    // Sent for review again from the edit page: the article it lands on says "Em revisão" at once.
    await page.goto(`${site.url}/edit-news/${id}`);
    await expect(page.getByTestId("news-status")).toHaveText(t.newsForm.currentStatus(t.newsForm.statusLabel.draft, null));
    await page.getByRole("button", { name: t.newsForm.submitReview, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${id}$`));
    await expect(page.getByTestId("status-banner")).toContainText(t.article.reviewBanner);
    await expect(page.getByText(t.article.reviewSavedOn)).toBeVisible();
    await expect(page.getByText(t.article.draftSavedOn)).toHaveCount(0);
    await page.goto(`${site.url}/edit-news/${id}`);
    await expect(page.getByTestId("news-status")).toHaveText(t.newsForm.currentStatus(t.newsForm.statusLabel.review, null));
    const [saved] = await siteQuery<{ status: string; r: string | null }>(site, "SELECT status, review_requested_at AS r FROM news WHERE id = ?", id);
    expect(saved!.status).toBe("draft");
    expect(saved!.r).not.toBeNull();
  } finally {
    await closeAll(context);
  }
});
