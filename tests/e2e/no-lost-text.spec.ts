/**
 * Nothing a reporter types on a match day is lost (issue 33): the live composer keeps its unposted text in the browser
 * (a reload, a closed tab, a tap on the logo, on a phone's width) until the update is posted or discarded, and asks
 * before a link leaves it; "Encerrar cobertura" asks first; "Devolver ao repórter" with the editor's edits unsaved
 * saves them with the return, or returns without them when told so, never through the leave guard's question. Real
 * server, real Chromium; nothing mocked.
 */
import type { BrowserContext, Dialog, Page } from "@playwright/test";
import { liveDraftKey } from "#app/lib/live-composer-draft.ts";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import type { RunningSite } from "#tests/factories/site.ts";
import {
  apiHeaders,
  expect,
  expectStatus,
  fillEditor,
  openPage,
  signInAsAdmin,
  siteQuery,
  t,
  test as base,
  waitForHydration,
} from "./support/fixtures.ts";

interface LiveSite extends RunningSite {
  articleId: string;
  editor: TestAccount;
  reporter: TestAccount;
}

const PHONE = { width: 390, height: 844 };

// A site of its own per test, a signed-in context and several reloads: more than the default 30 s on a busy machine.
base.describe.configure({ timeout: 90_000 });

const test = base.extend<{ site: LiveSite; editor: BrowserContext }>({
  site: async ({ launchSite }, use) => {
    let articleId = "";
    let editor!: TestAccount;
    let reporter!: TestAccount;
    const site = await launchSite({
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        editor = await createMember(services, "editor", { password: "senha-editor-1" });
        reporter = await createMember(services, "reporter", { password: "senha-reporter-1" });
        articleId = await createNews(services, {
          title: "Bahia x Vitória: o Ba-Vi ao vivo",
          subtitle: "O clássico baiano.",
          category: "Futebol",
          media: null,
        });
        await services.database.db
          .updateTable("news")
          .set({
            live_coverage: "live",
            live_started_at: new Date(Date.now() - 5 * 60_000).toISOString(),
            live_scoreboard: JSON.stringify({ home: "Bahia", away: "Vitória", homeScore: 0, awayScore: 0, period: "1º tempo" }),
          })
          .where("id", "=", articleId)
          .execute();
      },
    });
    await use({ ...site, articleId, editor, reporter });
  },
  editor: async ({ browser, site }, use) => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    await signInAsAdmin(context, site, site.editor);
    await use(context);
    // Leave every page before the site stops; a composer with text asks first (answered "leave").
    for (const page of context.pages()) {
      page.on("dialog", (dialog) => void dialog.accept().catch(() => undefined));
      await page.goto("about:blank").catch(() => undefined);
    }
    await context.close();
  },
});

const articlePath = (site: LiveSite) => `/article/${site.articleId}`;
const composer = (page: Page) => page.getByTestId("live-composer");
/** The composer's text: the rich-text editor (the same as an update's edit), its editable area named by the label. */
const composerText = (page: Page) => composer(page).getByLabel(t.liveNewsroom.textLabel);
/** The composer's paragraphs hold `text` (a blank line between paragraphs). */
async function expectComposerText(page: Page, text: string) {
  if (text === "") await expect(composerText(page)).toHaveText("");
  else await expect(composerText(page).locator("p")).toHaveText(text.split("\n\n"));
}
const draftNotice = (page: Page) => page.getByTestId("live-draft-notice");
const logo = (page: Page) => page.getByRole("banner").getByRole("link", { name: new RegExp(`: ${t.layout.home}$`) });
const leaveDialog = (page: Page) => page.getByRole("alertdialog", { name: t.liveNewsroom.leaveTitle });

/** This browser's kept draft of the story's composer (the raw localStorage value), or null. */
function storedDraft(page: Page, site: LiveSite): Promise<string | null> {
  const key = liveDraftKey(site.articleId, site.editor.id);
  return page.evaluate((storageKey) => window.localStorage.getItem(storageKey), key);
}

/** Runs `act`, answering the browser's own questions (beforeunload) with "leave"; returns the kinds of dialog seen. */
async function answeringLeave(page: Page, act: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const onDialog = (dialog: Dialog) => {
    seen.push(dialog.type());
    void dialog.accept().catch(() => undefined);
  };
  page.on("dialog", onDialog);
  try {
    await act();
  } finally {
    page.off("dialog", onDialog);
  }
  return seen;
}

async function coverageState(site: LiveSite): Promise<string | null> {
  const [row] = await siteQuery<{ live_coverage: string | null }>(site, "SELECT live_coverage FROM news WHERE id = ?", site.articleId);
  return row?.live_coverage ?? null;
}

test("compositor no celular: o texto volta depois de recarregar, de fechar a aba e de tocar no logo; publicar apaga o rascunho", async ({
  site,
  editor,
}) => {
  let page = await editor.newPage();
  await openPage(page, site, articlePath(site));
  expect(page.viewportSize()?.width).toBe(PHONE.width);
  await expect(composerText(page)).toBeVisible();
  await expect(draftNotice(page)).toHaveCount(0);

  // Typed and reloaded at once: the browser asks, and the text (and the "Lance importante" box) comes back.
  const typed = "GOL DO BAHIA! Chute de fora da área aos 23 minutos.";
  await composerText(page).fill(typed);
  await composer(page).getByLabel(t.liveNewsroom.minuteLabel).fill("23");
  await composer(page).getByLabel(t.liveNewsroom.eventLabel).selectOption("goal");
  await composer(page).getByLabel(t.liveNewsroom.keyEvent).check();
  expect(
    await answeringLeave(page, async () => {
      await page.reload();
      await waitForHydration(page);
    }),
  ).toEqual(["beforeunload"]);
  await expectComposerText(page, typed);
  await expect(composer(page).getByLabel(t.liveNewsroom.minuteLabel)).toHaveValue("23");
  await expect(composer(page).getByLabel(t.liveNewsroom.eventLabel)).toHaveValue("goal");
  await expect(composer(page).getByLabel(t.liveNewsroom.keyEvent)).toBeChecked();
  await expect(draftNotice(page)).toContainText("Rascunho recuperado");

  // The tab closed (right after typing more) and the story opened again in a new one.
  const more = `${typed}\n\nO Vitória pede impedimento.`;
  // A second paragraph, typed as in any rich-text editor (Enter, then the words).
  await fillEditor(page, composerText(page), more);
  const closing = page;
  expect(
    await answeringLeave(closing, async () => {
      // With its "beforeunload" run, close() does not wait for the page to go: its "close" event does.
      const closed = closing.waitForEvent("close");
      await closing.close({ runBeforeUnload: true });
      await closed;
    }),
  ).toEqual(["beforeunload"]);
  page = await editor.newPage();
  await openPage(page, site, articlePath(site));
  await expectComposerText(page, more);
  await expect(draftNotice(page)).toBeVisible();

  // A tap on the logo asks; staying keeps the page and the text.
  await logo(page).tap();
  await expect(leaveDialog(page)).toBeVisible();
  await leaveDialog(page).getByRole("button", { name: t.liveNewsroom.leaveStay }).tap();
  await expect(leaveDialog(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${articlePath(site)}$`));
  await expectComposerText(page, more);
  // Leaving anyway keeps it too: back on the story, it is there.
  await logo(page).tap();
  await leaveDialog(page).getByRole("button", { name: t.liveNewsroom.leave, exact: true }).tap();
  await expect(page).toHaveURL(`${site.url}/`);
  await openPage(page, site, articlePath(site));
  await expectComposerText(page, more);

  // Posted: the composer is empty, the kept copy gone, and a reload neither asks nor brings anything back.
  await composer(page).getByRole("button", { name: t.liveNewsroom.post }).tap();
  await expect(composer(page).getByRole("status").filter({ hasText: t.liveNewsroom.posted })).toBeVisible();
  await expectComposerText(page, "");
  await expect(draftNotice(page)).toHaveCount(0);
  await expect.poll(() => storedDraft(page, site)).toBeNull();
  await expect(page.getByTestId("live-updates")).toContainText("GOL DO BAHIA!");
  // The minute and the event came back with the draft, and went out with the update; the fields are empty again.
  await expect(page.getByTestId("live-updates").getByTestId("live-update").first().getByTestId("live-event")).toContainText("23' ⚽ Gol");
  await expect(composer(page).getByLabel(t.liveNewsroom.minuteLabel)).toHaveValue("");
  await expect(composer(page).getByLabel(t.liveNewsroom.eventLabel)).toHaveValue("");
  expect(
    await answeringLeave(page, async () => {
      await page.reload();
      await waitForHydration(page);
    }),
  ).toEqual([]);
  await expectComposerText(page, "");
  await expect(draftNotice(page)).toHaveCount(0);
});

test("'Descartar rascunho' esvazia o compositor e a cópia guardada", async ({ site, editor }) => {
  const page = await editor.newPage();
  await openPage(page, site, articlePath(site));
  await composerText(page).fill("Substituição no Bahia: sai o camisa 9.");
  // Kept within a moment of the last keystroke, without the page hiding.
  await expect.poll(() => storedDraft(page, site)).toContain("Substituição no Bahia");
  await answeringLeave(page, async () => {
    await page.reload();
    await waitForHydration(page);
  });
  await expectComposerText(page, "Substituição no Bahia: sai o camisa 9.");
  await draftNotice(page).getByRole("button", { name: t.liveNewsroom.draftDiscard }).tap();
  await expectComposerText(page, "");
  await expect(draftNotice(page)).toHaveCount(0);
  await expect.poll(() => storedDraft(page, site)).toBeNull();
  await page.reload();
  await waitForHydration(page);
  await expectComposerText(page, "");
  await expect(draftNotice(page)).toHaveCount(0);
});

test("'Encerrar cobertura' pergunta antes: cancelar mantém a cobertura ao vivo, confirmar encerra", async ({ site, editor }) => {
  const page = await editor.newPage();
  await openPage(page, site, articlePath(site));
  const panel = page.getByTestId("live-newsroom");
  await expect(panel).toHaveAttribute("data-coverage", "live");

  await panel.getByRole("button", { name: t.liveNewsroom.end }).tap();
  const dialog = page.getByTestId("live-end-dialog");
  await expect(dialog).toContainText(t.liveNewsroom.endText);
  await dialog.getByRole("button", { name: t.liveNewsroom.cancel }).tap();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole("button", { name: t.liveNewsroom.end })).toBeFocused();
  expect(await coverageState(site)).toBe("live");
  await expect(panel).toHaveAttribute("data-coverage", "live");

  await panel.getByRole("button", { name: t.liveNewsroom.end }).tap();
  await dialog.getByRole("button", { name: t.liveNewsroom.endConfirm }).tap();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole("button", { name: t.liveNewsroom.resume })).toBeVisible();
  await expect.poll(() => coverageState(site)).toBe("ended");
  await expect(page.getByTestId("live-ended")).toBeVisible();
});

/** A story the reporter wrote and sent for review (over the API, as the form sends it). */
async function storyInReview(site: LiveSite, browser: import("@playwright/test").Browser, title: string): Promise<string> {
  const context = await browser.newContext();
  try {
    await signInAsAdmin(context, site, site.reporter);
    const response = await context.request.post(`${site.url}/api/news`, {
      multipart: {
        title,
        subtitle: "Bastidores do clássico.",
        fullContent: "Texto do repórter, pronto para a revisão.",
        category: "Futebol",
        status: "review",
      },
      headers: apiHeaders(site),
    });
    await expectStatus(response, 201, "POST /api/news (repórter, para revisão)");
    return ((await response.json()) as { id: string }).id;
  } finally {
    await context.close();
  }
}

/** The story as the newsroom reads it over the API: its saved title and status. */
async function savedStory(context: BrowserContext, site: LiveSite, id: string): Promise<{ title: string; status: string }> {
  const response = await context.request.get(`${site.url}/api/news/${id}`);
  await expectStatus(response, 200, "GET /api/news/:id");
  return ((await response.json()) as { news: { title: string; status: string } }).news;
}

test.describe("'Devolver ao repórter' com alterações não salvas", () => {
  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

  test("pergunta, e 'Salvar alterações e devolver' salva o que o editor mudou junto com a devolução", async ({ site, editor, browser }) => {
    const id = await storyInReview(site, browser, "Escalação do Bahia para o Ba-Vi");
    const page = await editor.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss().catch(() => undefined);
    });
    await openPage(page, site, `/edit-news/${id}`);
    const edited = "Escalação do Bahia para o Ba-Vi (revisada pelo editor)";
    await field(page, t.newsForm.title).fill(edited);
    const panel = page.getByTestId("review-return");
    await panel.getByLabel(t.review.noteLabel, { exact: true }).fill("Confirme com o clube a escalação antes de reenviar.");
    await panel.getByRole("button", { name: t.review.returnSubmit, exact: true }).click();

    const question = page.getByTestId("review-return-dialog");
    await expect(question).toContainText(t.review.returnUnsavedText);
    await question.getByRole("button", { name: t.review.returnWithChanges }).click();
    await expect(page).toHaveURL(/\?devolvida=1/);
    await expect(page.getByText(t.review.returned)).toBeVisible();
    // The edits went with the return: saved, and the story is the reporter's draft again. No browser question.
    expect(await savedStory(editor, site, id)).toMatchObject({ title: edited, status: "draft" });
    const [row] = await siteQuery<{ review_requested_at: string | null }>(site, "SELECT review_requested_at FROM news WHERE id = ?", id);
    expect(row?.review_requested_at ?? null).toBeNull();
    expect(dialogs).toEqual([]);
  });

  test("'Cancelar' fica com as alterações; 'Devolver sem as alterações' devolve sem salvá-las, sem a pergunta do navegador", async ({
    site,
    editor,
    browser,
  }) => {
    const title = "Arbitragem do Ba-Vi definida";
    const id = await storyInReview(site, browser, title);
    const page = await editor.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss().catch(() => undefined);
    });
    await openPage(page, site, `/edit-news/${id}`);
    await field(page, t.newsForm.title).fill(`${title}: mudança que não vale`);
    const panel = page.getByTestId("review-return");
    await panel.getByLabel(t.review.noteLabel, { exact: true }).fill("Falta ouvir a federação.");
    await panel.getByRole("button", { name: t.review.returnSubmit, exact: true }).click();
    const question = page.getByTestId("review-return-dialog");
    await question.getByRole("button", { name: t.review.returnCancel }).click();
    await expect(question).toBeHidden();
    await expect(field(page, t.newsForm.title)).toHaveValue(`${title}: mudança que não vale`);
    expect(await savedStory(editor, site, id)).toMatchObject({ title, status: "review" });

    await panel.getByRole("button", { name: t.review.returnSubmit, exact: true }).click();
    await question.getByRole("button", { name: t.review.returnWithoutChanges }).click();
    await expect(page).toHaveURL(/\?devolvida=1/);
    await expect(page.getByText(t.review.returned)).toBeVisible();
    expect(await savedStory(editor, site, id)).toMatchObject({ title, status: "draft" });
    expect(dialogs).toEqual([]);
  });
});
