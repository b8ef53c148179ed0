/**
 * The news form never loses typed work: the autosave (a new story in this browser, an existing one on the server as
 * the user's own copy, never the live story), the question before leaving with changes unsaved (a link in the site,
 * a reload), and a refused submit taking the editor to the first invalid field, on a phone's width too. Real server,
 * real Chromium; nothing mocked.
 */
import type { Page } from "@playwright/test";
import {
  bodyEditor,
  createNewsThroughApi,
  expect,
  fillBody,
  openPage,
  signInAsAdmin,
  siteQuery,
  t,
  NEWSROOM_SITE,
  perWorkerSite,
  test as base,
  waitForHydration,
  withSiteServices,
} from "./support/fixtures.ts";
import { AUTOSAVE_DELAY_MS } from "#app/lib/news-autosave.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const test = base.extend<{ autosaveSite: RunningSite }>({
  autosaveSite: perWorkerSite("autosave", NEWSROOM_SITE),
});

test.beforeEach(async ({ page, autosaveSite }) => {
  await signInAsAdmin(page, autosaveSite);
});

// Leave every page before the site stops; a form with changes asks first (the question is answered "leave").
test.afterEach(async ({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept().catch(() => undefined));
  await page.goto("about:blank");
});

let counter = 0;
const unique = (what: string) => `${what} ${process.pid}-${Date.now().toString(36)}-${++counter}`;
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const status = (page: Page) => page.getByTestId("autosave-status");
const offer = (page: Page) => page.getByTestId("autosave-offer");
const logo = (page: Page) => page.getByRole("banner").getByRole("link", { name: new RegExp(`: ${t.layout.home}$`) });
const leaveDialog = (page: Page) => page.getByRole("alertdialog", { name: t.autosave.leaveTitle });

/**
 * The page's timers on Playwright's clock, from before the form opens (time still runs; `autosaveDelay` moves it on).
 */
const onTestClock = (page: Page) => page.clock.install();

/**
 * The autosave comes AUTOSAVE_DELAY_MS after the last change: the page's clock is moved past it, not waited for. (Were
 * the timer only set after the move, the clock, still running, would reach it by itself.)
 */
const autosaveDelay = (page: Page) => page.clock.runFor(AUTOSAVE_DELAY_MS);

/** Reloads, answering the browser's "leave this page?" question with "leave"; returns the dialogs seen. */
async function reloadLeaving(page: Page): Promise<string[]> {
  const seen: string[] = [];
  const onDialog = (dialog: import("@playwright/test").Dialog) => {
    seen.push(dialog.type());
    void dialog.accept();
  };
  page.on("dialog", onDialog);
  await page.reload();
  await waitForHydration(page);
  page.off("dialog", onDialog);
  return seen;
}

/** What a reader gets for a story (no session): the published text. */
async function readerTitle(site: RunningSite, request: import("@playwright/test").APIRequestContext, id: string) {
  const response = await request.get(`${site.url}/api/news/${id}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { news: { title: string; fullContent: string } }).news;
}

test.describe("salvamento automático", () => {
  test("/add-news: o texto volta depois de recarregar, com aviso e 'Descartar'", async ({ page, autosaveSite }) => {
    await onTestClock(page);
    await openPage(page, autosaveSite, "/add-news");
    await expect(status(page)).toHaveAttribute("aria-live", "polite");
    await expect(status(page)).toHaveText("");
    const title = unique("Rascunho local");
    await field(page, "Título").fill(title);
    await expect(bodyEditor(page)).toBeVisible();
    await fillBody(page, "Primeiro parágrafo digitado.\n\nSegundo parágrafo.");
    await autosaveDelay(page);
    await expect(status(page)).toHaveText(/^Salvo às \d\d:\d\d$/);
    await expect(page.getByText(t.autosave.savedLocally)).toBeVisible();

    expect(await reloadLeaving(page)).toEqual(["beforeunload"]);
    await expect(field(page, "Título")).toHaveValue(title);
    await expect(bodyEditor(page)).toContainText("Primeiro parágrafo digitado.");
    await expect(bodyEditor(page)).toContainText("Segundo parágrafo.");
    await expect(offer(page)).toContainText("Recuperamos o texto que você digitava neste navegador");

    // "Descartar": the form is empty again, and so is the next one.
    await offer(page).getByRole("button", { name: t.autosave.discard }).click();
    await expect(field(page, "Título")).toHaveValue("");
    await expect(offer(page)).toHaveCount(0);
    expect(await reloadLeaving(page)).toEqual([]);
    await expect(field(page, "Título")).toHaveValue("");
    await expect(offer(page)).toHaveCount(0);
  });

  test("/add-news: o primeiro salvamento de verdade apaga a cópia deste navegador", async ({ page, autosaveSite }) => {
    await onTestClock(page);
    await openPage(page, autosaveSite, "/add-news");
    // Saved for real: on to the story's edit page, and /add-news opens empty.
    const saved = unique("Salva de verdade");
    await field(page, "Título").fill(saved);
    await field(page, "Subtítulo").fill("Subtítulo");
    await fillBody(page, "Texto.");
    await field(page, "Categoria").fill("Vôlei");
    await autosaveDelay(page);
    await expect(status(page)).toHaveText(/^Salvo às/);
    await page.getByRole("button", { name: t.newsForm.saveDraft }).click();
    await expect(page).toHaveURL(/\/edit-news\//);
    await expect(field(page, "Título")).toHaveValue(saved);
    await openPage(page, autosaveSite, "/add-news");
    await expect(field(page, "Título")).toHaveValue("");
    await expect(offer(page)).toHaveCount(0);
  });

  test("notícia publicada: o rascunho automático vai ao servidor, os leitores não o veem; recarregar oferece recuperar", async ({
    page,
    autosaveSite,
    request,
  }) => {
    // Two autosave waits, two reloads and a save: longer than most (about 15 s alone, twice that on a loaded machine).
    test.slow();
    const original = unique("Publicada original");
    const id = await createNewsThroughApi(page.context(), autosaveSite, { title: original, fullContent: "Texto publicado." });
    await onTestClock(page);
    await openPage(page, autosaveSite, `/edit-news/${id}`);
    const autosaves: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(`/api/news/${id}/autosave`) && response.request().method() === "PUT") autosaves.push(response.status());
    });
    const edited = unique("Título em edição");
    await field(page, "Título").fill(edited);
    await fillBody(page, "Texto novo, ainda não publicado.");
    await autosaveDelay(page);
    await expect(status(page)).toHaveText(/^Salvo às \d\d:\d\d$/);
    await expect(page.getByText(t.autosave.savedOnServer)).toBeVisible();
    expect(autosaves.length).toBeGreaterThan(0);
    expect(autosaves.every((code) => code === 200)).toBe(true);
    // Debounced: one save for the whole burst of typing, not one per keystroke.
    expect(autosaves.length).toBeLessThanOrEqual(2);

    // Readers: the story as it was; no new version, no revision.
    expect((await readerTitle(autosaveSite, request, id)).title).toBe(original);
    const [row] = await siteQuery<{ version: number | string }>(autosaveSite, "SELECT version FROM news WHERE id = ?", id);
    expect(Number(row!.version)).toBe(1);
    expect(await siteQuery(autosaveSite, "SELECT id FROM news_revisions WHERE news_id = ?", id)).toEqual([]);

    // Reopened: the form shows the story as saved, and offers the copy.
    expect(await reloadLeaving(page)).toEqual(["beforeunload"]);
    await expect(field(page, "Título")).toHaveValue(original);
    await expect(offer(page)).toContainText(/Há alterações salvas automaticamente às \d\d:\d\d que não foram publicadas\./);
    await offer(page).getByRole("button", { name: t.autosave.recover }).click();
    await expect(field(page, "Título")).toHaveValue(edited);
    await expect(bodyEditor(page)).toContainText("Texto novo, ainda não publicado.");
    expect((await readerTitle(autosaveSite, request, id)).title).toBe(original);

    // A real save: readers see it, and the copy is gone.
    await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/article/${id}`));
    expect((await readerTitle(autosaveSite, request, id)).title).toBe(edited);
    expect(await siteQuery(autosaveSite, "SELECT user_id FROM news_autosaves WHERE news_id = ?", id)).toEqual([]);
    await openPage(page, autosaveSite, `/edit-news/${id}`);
    await expect(offer(page)).toHaveCount(0);
  });

  test("'Descartar' a cópia do servidor a apaga; a notícia continua como estava", async ({ page, autosaveSite }) => {
    const original = unique("Descartar cópia");
    const id = await createNewsThroughApi(page.context(), autosaveSite, { title: original });
    await onTestClock(page);
    await openPage(page, autosaveSite, `/edit-news/${id}`);
    await field(page, "Título").fill(`${original} (editado)`);
    await autosaveDelay(page);
    await expect(status(page)).toHaveText(/^Salvo às/);
    await reloadLeaving(page);
    await offer(page).getByRole("button", { name: t.autosave.discard }).click();
    await expect(offer(page)).toHaveCount(0);
    await expect(field(page, "Título")).toHaveValue(original);
    await expect.poll(() => siteQuery(autosaveSite, "SELECT user_id FROM news_autosaves WHERE news_id = ?", id)).toEqual([]);
    await reloadLeaving(page);
    await expect(offer(page)).toHaveCount(0);
  });
});

test("uma cópia recuperada, digitada antes do salvamento de outra pessoa, dá conflito ao salvar (nada é sobrescrito calado)", async ({
  page,
  browser,
  autosaveSite,
  request,
}) => {
  test.slow();
  const original = unique("Duas pessoas");
  const id = await createNewsThroughApi(page.context(), autosaveSite, { title: original });
  await onTestClock(page);
  await openPage(page, autosaveSite, `/edit-news/${id}`);
  // Someone else saves (version 2) while this form is open on version 1.
  const other = await withSiteServices(autosaveSite, (services) => createAdmin(services));
  const otherContext = await browser.newContext();
  try {
    await signInAsAdmin(otherContext, autosaveSite, other);
    const saved = await otherContext.request.patch(`${autosaveSite.url}/api/news/${id}`, {
      data: { subtitle: "Subtítulo da outra pessoa" },
      headers: { origin: autosaveSite.url },
    });
    expect(saved.status()).toBe(200);
  } finally {
    await otherContext.close();
  }
  // This form keeps typing: its copy is newer than that save, so it is offered.
  const mine = unique("Minha versão");
  await field(page, "Título").fill(mine);
  await autosaveDelay(page);
  await expect(status(page)).toHaveText(/^Salvo às/);
  await reloadLeaving(page);
  await offer(page).getByRole("button", { name: t.autosave.recover }).click();
  await expect(field(page, "Título")).toHaveValue(mine);
  await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
  await expect(page.getByTestId("conflict")).toContainText(t.newsForm.conflict);
  expect((await readerTitle(autosaveSite, request, id)).title).toBe(original);
});

test.describe("sair sem salvar", () => {
  test("clicar no logo com alterações pergunta: 'Continuar editando' mantém o texto, 'Sair sem salvar' sai", async ({ page, autosaveSite }) => {
    await openPage(page, autosaveSite, "/add-news");
    // Nothing typed: the logo just goes home.
    await logo(page).click();
    await expect(page).toHaveURL(`${autosaveSite.url}/`);

    await openPage(page, autosaveSite, "/add-news");
    const title = unique("Não perder");
    await field(page, "Título").fill(title);
    await logo(page).click();
    await expect(leaveDialog(page)).toBeVisible();
    await expect(leaveDialog(page)).toContainText(t.autosave.leaveTitle);
    await leaveDialog(page).getByRole("button", { name: t.autosave.stay }).click();
    await expect(leaveDialog(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/add-news$/);
    await expect(field(page, "Título")).toHaveValue(title);

    // The form's own "Cancelar" link asks too.
    await page.getByRole("link", { name: t.newsForm.cancel }).click();
    await expect(leaveDialog(page)).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page).toHaveURL(/\/add-news$/);

    await logo(page).click();
    await leaveDialog(page).getByRole("button", { name: t.autosave.leave }).click();
    await expect(page).toHaveURL(`${autosaveSite.url}/`);
    // Left before the autosave's wait was over: what was typed was kept as the form went away.
    await openPage(page, autosaveSite, "/add-news");
    await expect(field(page, "Título")).toHaveValue(title);
    await expect(offer(page)).toBeVisible();
  });

  test("recarregar com alterações abre a pergunta do navegador (beforeunload); sem alterações, não", async ({ page, autosaveSite }) => {
    const id = await createNewsThroughApi(page.context(), autosaveSite, { title: unique("Recarregar") });
    await openPage(page, autosaveSite, `/edit-news/${id}`);
    expect(await reloadLeaving(page), "sem alterações").toEqual([]);
    await field(page, "Subtítulo").fill("Subtítulo mudado");
    expect(await reloadLeaving(page), "com alterações").toEqual(["beforeunload"]);

    // Dismissed: the page stays, with the text.
    await field(page, "Subtítulo").fill("Fica na página");
    const dismissed = new Promise<string>((resolve) => {
      page.once("dialog", (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      });
    });
    await page.evaluate(() => {
      window.location.reload();
    });
    expect(await dismissed).toBe("beforeunload");
    await expect(field(page, "Subtítulo")).toHaveValue("Fica na página");
  });

  test("depois de salvar, sair não pergunta", async ({ page, autosaveSite }) => {
    const id = await createNewsThroughApi(page.context(), autosaveSite, { title: unique("Salvar e sair") });
    await openPage(page, autosaveSite, `/edit-news/${id}`);
    let asked = 0;
    page.on("dialog", (dialog) => {
      asked++;
      void dialog.accept();
    });
    await field(page, "Subtítulo").fill("Subtítulo salvo");
    await page.getByRole("button", { name: t.newsForm.submitEdit, exact: true }).click();
    await expect(page.getByTestId("banner-success")).toBeVisible();
    // The form's own way out after a save (on to the story's page) is not held by the question.
    await expect(page).toHaveURL(new RegExp(`/article/${id}`));
    await expect(leaveDialog(page)).toHaveCount(0);
    expect(asked).toBe(0);
  });
});

test.describe("envio recusado", () => {
  test("a 375 px, o envio recusado leva ao primeiro campo inválido (foco, visível) e liga a mensagem a ele", async ({ page, autosaveSite }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await openPage(page, autosaveSite, "/add-news");
    await field(page, "Título").fill(unique("Só o título"));
    const submit = page.getByRole("button", { name: t.newsForm.submitCreate, exact: true });
    await submit.scrollIntoViewIfNeeded();
    await submit.click();
    const subtitle = field(page, "Subtítulo");
    await expect(subtitle).toBeFocused();
    await expect(subtitle).toBeInViewport();
    await expect(subtitle).toHaveAttribute("aria-invalid", "true");
    await expect(subtitle).toHaveAccessibleDescription(t.newsForm.subtitleRequired);
    await expect(field(page, "Título")).not.toHaveAttribute("aria-invalid", "true");

    // Refused by the server (a schedule in the past passes the browser's check): the schedule field, focused.
    await field(page, "Subtítulo").fill("Subtítulo");
    await fillBody(page, "Texto.");
    await field(page, "Categoria").fill("Vôlei");
    await field(page, t.newsForm.publishAt).fill("2020-01-01T10:00");
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept().catch(() => undefined);
    });
    await page.getByRole("button", { name: t.newsForm.schedule, exact: true }).click();
    const schedule = field(page, t.newsForm.publishAt);
    await expect(schedule).toBeFocused();
    await expect(schedule).toBeInViewport();
    await expect(schedule).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText(t.newsForm.publishAtPast, { exact: true })).toBeVisible();
    expect(alerts).toEqual([t.newsForm.submitError(false, t.newsForm.publishAtPast)]);
  });
});
