/**
 * The newsroom's roles in the browser, against the real server: a reporter signs in, writes a story and sends it for
 * review (no publish or schedule button), and cannot open the sponsors page (403 with the reason); an editor sees
 * the story "Em revisão", publishes it, and readers get it on the home page.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import { expect, openPage, siteQuery, signInAsAdmin, signInThroughPage, t, test as base } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const test = base.extend<{ site: RunningSite & { reporter: TestAccount; editor: TestAccount; colleague: TestAccount } }>({
  site: async ({ launchSite }, use) => {
    let reporter!: TestAccount;
    let editor!: TestAccount;
    let colleague!: TestAccount;
    const site = await launchSite({
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        reporter = await createMember(services, "reporter", { password: "Senha-reporter-1" });
        editor = await createMember(services, "editor", { password: "Senha-editor-1" });
        colleague = await createMember(services, "reporter", { password: "Senha-colega-1" });
      },
    });
    await use({ ...site, reporter, editor, colleague });
  },
});

// Two browser contexts and several pages against a server of its own: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test("o repórter envia para revisão (sem publicar nem mexer em patrocinadores); o editor publica e a notícia chega à home", async ({
  site,
  browser,
}) => {
  const title = `Pauta do repórter ${Date.now().toString(36)}`;
  const reporterContext = await browser.newContext();
  const editorContext = await browser.newContext();
  try {
    // The reporter signs in through the login page.
    const reporter = await reporterContext.newPage();
    await signInThroughPage(reporter, site, site.reporter.email, site.reporter.password, "?redirectTo=%2Fadd-news");
    await expect(reporter).toHaveURL(/\/add-news$/);

    // The form offers a draft and "Enviar para revisão": no publish, no schedule, no publication date.
    await field(reporter, t.newsForm.title).fill(title);
    await field(reporter, t.newsForm.subtitle).fill("Apuração pronta para o editor");
    await field(reporter, t.newsForm.fullContent).fill("Texto que o editor vai revisar antes de publicar.");
    await field(reporter, t.newsForm.category).fill("Futebol");
    await expect(reporter.getByRole("button", { name: t.newsForm.submitCreate, exact: true })).toHaveCount(0);
    await expect(reporter.getByRole("button", { name: t.newsForm.schedule, exact: true })).toHaveCount(0);
    await expect(field(reporter, t.newsForm.publishAt)).toHaveCount(0);
    await expect(reporter.getByRole("button", { name: t.newsForm.saveDraft, exact: true })).toBeVisible();
    await reporter.getByRole("button", { name: t.newsForm.submitReview, exact: true }).click();
    await expect(reporter).toHaveURL(/\/edit-news\/[^/?]+\?salva=review/);
    await expect(reporter.getByTestId("banner-success")).toHaveText(t.newsForm.reviewSaved);
    await expect(reporter.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.review);
    await expect(reporter.getByRole("link", { name: t.revisions.link })).toHaveCount(0);
    const [row] = await siteQuery<{ id: string; status: string; owner_id: string; review_requested_at: string | null }>(
      site,
      "SELECT id, status, owner_id, review_requested_at FROM news WHERE title = ?",
      title,
    );
    expect(row).toMatchObject({ status: "draft", owner_id: site.reporter.id });
    expect(row!.review_requested_at).not.toBeNull();

    // The drawer has no sponsors link for a reporter; the page itself answers 403 with the reason.
    await reporter.getByRole("button", { name: t.admin.menu, exact: true }).click();
    const drawer = reporter.getByTestId("admin-drawer");
    await expect(drawer.getByRole("link", { name: t.admin.addNews })).toBeVisible();
    await expect(drawer.getByRole("link", { name: t.admin.sponsors })).toHaveCount(0);
    await reporter.keyboard.press("Escape");
    const sponsors = await openPage(reporter, site, "/SponsorManager");
    expect(sponsors.status()).toBe(403);
    await expect(reporter.getByRole("heading", { name: t.errors.forbiddenTitle })).toBeVisible();
    await expect(reporter.getByText(t.roles.forbidden(t.roles.names.reporter, "admin"))).toBeVisible();
    // And the API refuses it a publish of its own story, with the code.
    const publish = await reporterContext.request.patch(`${site.url}/api/news/${row!.id}`, {
      data: { status: "published" },
      headers: { origin: site.url, accept: "application/json" },
    });
    expect(publish.status()).toBe(403);
    expect(((await publish.json()) as { error: { code: string } }).error.code).toBe("publish_forbidden");

    // Readers: it does not exist yet.
    const early = await reporterContext.request.get(`${site.url}/api/news/${row!.id}`, { headers: { cookie: "" } });
    expect([403, 404]).toContain(early.status());

    // Who sees it is what its banner says: the whole newsroom, another reporter too (who may not change it).
    const colleagueContext = await browser.newContext();
    try {
      await signInAsAdmin(colleagueContext, site, site.colleague);
      const colleague = await colleagueContext.newPage();
      expect((await openPage(colleague, site, `/article/${row!.id}`)).status()).toBe(200);
      await expect(colleague.getByTestId("status-banner")).toContainText(t.article.reviewBanner);
      await expect(colleague.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(colleague.getByRole("link", { name: t.article.edit, exact: true })).toHaveCount(0);
    } finally {
      await closeAll(colleagueContext);
    }

    // The editor sees it "Em revisão" in the newsroom's list and publishes it.
    await signInAsAdmin(editorContext, site, site.editor);
    const editor = await editorContext.newPage();
    await openPage(editor, site, "/news-list");
    // The drawer counts the stories waiting for an editor and links to the list's filter.
    await editor.getByRole("button", { name: t.admin.menu, exact: true }).click();
    await expect(editor.getByTestId("drawer-review")).toHaveText(t.admin.inReview(1));
    await editor.getByTestId("drawer-review").click();
    await expect(editor).toHaveURL(/\/redacao\?situacao=em-revisao$/);
    const listed = editor.getByTestId("newsroom-row").filter({ hasText: title });
    await expect(listed).toHaveAttribute("data-status", "review");
    await expect(listed).toContainText(t.newsroom.statusBadge.review);
    await expect(editor.getByTestId("newsroom-row")).toHaveCount(1);
    // Never published: its "Publicação" is empty ("—", and "Não publicada" for screen readers), not a date.
    await expect(listed.getByTestId("newsroom-published")).toHaveText(`—${t.newsroom.notPublished}`);
    await openPage(editor, site, `/edit-news/${row!.id}`);
    await expect(editor.getByTestId("news-status")).toContainText(t.newsForm.statusLabel.review);
    await expect(editor.getByRole("link", { name: t.revisions.link })).toBeVisible();
    await editor.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
    await expect(editor.getByTestId("banner-success")).toBeVisible();
    await expect
      .poll(async () => (await siteQuery<{ status: string }>(site, "SELECT status FROM news WHERE id = ?", row!.id))[0]?.status)
      .toBe("published");
    // The editor has no sponsors link either; nothing is waiting any more.
    await openPage(editor, site, "/news-list");
    await editor.getByRole("button", { name: t.admin.menu, exact: true }).click();
    await expect(editor.getByTestId("drawer-review")).toHaveCount(0);
    await expect(editor.getByTestId("admin-drawer").getByRole("link", { name: t.admin.newsList })).toBeVisible();
    await expect(editor.getByTestId("admin-drawer").getByRole("link", { name: t.admin.sponsors })).toHaveCount(0);

    // On the home page for readers (a fresh context: no session).
    const readerContext = await browser.newContext();
    try {
      const reader = await readerContext.newPage();
      await openPage(reader, site, "/");
      await expect(reader.getByText(title).first()).toBeVisible();
    } finally {
      await closeAll(readerContext);
    }
  } finally {
    await closeAll(reporterContext);
    await closeAll(editorContext);
  }
});
