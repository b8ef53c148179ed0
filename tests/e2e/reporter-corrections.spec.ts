/**
 * Reporters fix their own stories (issue 33), in the browser at a phone's width (390 px), against the real server: a
 * reporter opens their own published story, fixes a typo in the headline and saves; it is live at once, the history
 * names them and the editors get an e-mail (DATA_DIR/outbox). An admin then gives them "publica sem revisão" on
 * /equipe, and the reporter's form offers "Publicar notícia", which publishes directly.
 */
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";
import { simpleParser } from "mailparser";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import type { RunningSite } from "#tests/factories/site.ts";
import { expect, openPage, siteQuery, signInAsAdmin, t, test as base } from "./support/fixtures.ts";
import { memberActor } from "#app/.server/auth/permissions.server.ts";

const TYPO = "Flamengo vense o clássico no Maracanã";
const FIXED = "Flamengo vence o clássico no Maracanã";

interface CorrectionSite extends RunningSite {
  reporter: TestAccount;
  editor: TestAccount;
  storyId: string;
}

const test = base.extend<{ site: CorrectionSite }>({
  site: async ({ launchSite }, use) => {
    let reporter!: TestAccount;
    let editor!: TestAccount;
    let storyId = "";
    const site = await launchSite({
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        reporter = await createMember(services, "reporter", { password: "Senha-reporter-1", name: "Rita Repórter" });
        editor = await createMember(services, "editor", { password: "Senha-editor-1", name: "Ana Editora" });
        const story = await services.newsEditor.createNews(
          newsInputSchema.parse({
            title: TYPO,
            subtitle: "Clássico decidido no segundo tempo",
            fullContent: "Texto da partida.",
            category: "Futebol",
            status: "review",
          }),
          null,
          memberActor({ userId: reporter.id, role: "reporter" }),
        );
        await services.newsEditor.patchNews(story.id, { status: "published" }, null, memberActor({ userId: editor.id, role: "editor" }));
        storyId = story.id;
      },
    });
    await use({ ...site, reporter, editor, storyId });
  },
});

test.describe.configure({ timeout: 120_000 });

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

/** The subjects of the mails in DATA_DIR/outbox sent to `to`. */
async function subjectsTo(site: RunningSite, to: string): Promise<string[]> {
  const dir = path.join(site.dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  const mails = await Promise.all(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(".eml"))
      .map((name) => simpleParser(fs.readFileSync(path.join(dir, name)))),
  );
  return mails.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === to).map((mail) => mail.subject ?? "");
}

test("no celular, o repórter corrige o título da própria notícia publicada; o administrador dá “publica sem revisão” em /equipe", async ({
  site,
  browser,
}) => {
  const reporterContext = await browser.newContext(PHONE);
  const adminContext = await browser.newContext(PHONE);
  try {
    await signInAsAdmin(reporterContext, site, site.reporter);
    const reporter = await reporterContext.newPage();
    // From the article: "Editar" on their own published story.
    await openPage(reporter, site, `/article/${site.storyId}`);
    await reporter.getByRole("link", { name: t.article.edit }).tap();
    await expect(reporter).toHaveURL(`${site.url}/edit-news/${site.storyId}`);

    // A correction of a live story: one "Salvar alterações", what happens said first; no unpublish, no highlight.
    await expect(reporter.getByTestId("reporter-correction-note")).toHaveText(t.roles.correctionLive);
    await expect(reporter.getByRole("button", { name: t.newsForm.unpublish, exact: true })).toHaveCount(0);
    await expect(reporter.getByRole("button", { name: t.newsForm.submitReview, exact: true })).toHaveCount(0);
    await expect(reporter.getByRole("checkbox", { name: t.newsForm.highlightOn })).toHaveCount(0);
    const noOverflow = await reporter.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(noOverflow, "a página de edição cabe em 390 px").toBe(true);

    const title = reporter.getByLabel(t.newsForm.title, { exact: true });
    await title.fill(FIXED);
    const save = reporter.getByRole("button", { name: t.newsForm.submitEdit, exact: true });
    await save.scrollIntoViewIfNeeded();
    await save.tap();
    await expect(reporter.getByTestId("banner-success")).toBeVisible();

    // Live at once, still published; the history names the reporter; the editors are mailed.
    await expect
      .poll(async () => (await siteQuery<{ title: string; status: string }>(site, "SELECT title, status FROM news WHERE id = ?", site.storyId))[0])
      .toEqual({ title: FIXED, status: "published" });
    const steps = await siteQuery<{ kind: string; actor_id: string }>(
      site,
      "SELECT kind, actor_id FROM news_review_events WHERE news_id = ? ORDER BY version",
      site.storyId,
    );
    expect(steps.at(-1)).toEqual({ kind: "corrected", actor_id: site.reporter.id });
    await expect
      .poll(() => subjectsTo(site, site.editor.email), { timeout: 15_000 })
      .toContain(t.review.mail.correctedSubject("Esporte em Foco", FIXED));
    const readerContext = await browser.newContext();
    try {
      const reader = await readerContext.newPage();
      await openPage(reader, site, `/article/${site.storyId}`);
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(FIXED);
      // Readers never get "Editar".
      await expect(reader.getByRole("link", { name: t.article.edit })).toHaveCount(0);
    } finally {
      await closeAll(readerContext);
    }

    // The editor's newsroom list marks it.
    const editorContext = await browser.newContext(PHONE);
    try {
      await signInAsAdmin(editorContext, site, site.editor);
      const editor = await editorContext.newPage();
      await openPage(editor, site, "/redacao");
      const listed = editor.getByTestId("newsroom-row").filter({ hasText: FIXED });
      await expect(listed.getByTestId("newsroom-corrected")).toHaveText(t.newsroom.correctedByReporter);
    } finally {
      await closeAll(editorContext);
    }

    // Without the right the new-story form has no publish button.
    await openPage(reporter, site, "/add-news");
    await expect(reporter.getByRole("button", { name: t.newsForm.submitCreate, exact: true })).toHaveCount(0);

    // The admin gives the right on /equipe (a phone too).
    await signInAsAdmin(adminContext, site);
    const admin = await adminContext.newPage();
    await openPage(admin, site, "/equipe");
    const row = admin.getByTestId(`member-${site.reporter.email}`);
    const box = row.getByRole("checkbox", { name: t.team.publishesLabel(site.reporter.email) });
    await expect(box).not.toBeChecked();
    await expect(admin.getByTestId(`member-${site.editor.email}`).getByTestId("member-publishes")).toHaveText(t.team.publishesNotReporter);
    await box.check();
    await row.getByRole("button", { name: t.team.publishesSubmit, exact: true }).tap();
    await expect(admin.getByTestId("banner-success")).toHaveText(t.team.publishesOn);
    await expect
      .poll(
        async () =>
          (await siteQuery<{ p: number }>(site, "SELECT publishes_without_review AS p FROM admins WHERE user_id = ?", site.reporter.id))[0]?.p,
      )
      .toBe(1);
    await admin.reload();
    await expect(admin.getByTestId(`member-${site.reporter.email}`).getByRole("checkbox")).toBeChecked();

    // Now the reporter publishes directly.
    await openPage(reporter, site, "/add-news");
    const direct = `Gol no último minuto ${Date.now().toString(36)}`;
    await reporter.getByLabel(t.newsForm.title, { exact: true }).fill(direct);
    await reporter.getByLabel(t.newsForm.subtitle, { exact: true }).fill("Virada no fim");
    await reporter.getByLabel(t.newsForm.fullContent, { exact: true }).fill("Texto da virada.");
    await reporter.getByLabel(t.newsForm.category, { exact: true }).fill("Futebol");
    await expect(reporter.getByRole("button", { name: t.newsForm.schedule, exact: true })).toBeVisible();
    await reporter.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).tap();
    await expect
      .poll(async () => (await siteQuery<{ status: string }>(site, "SELECT status FROM news WHERE title = ?", direct))[0]?.status)
      .toBe("published");
  } finally {
    await closeAll(reporterContext);
    await closeAll(adminContext);
  }
});
