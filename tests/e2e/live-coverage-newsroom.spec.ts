/**
 * The newsroom's live coverage controls beyond the article page's composer (issue 20's leftovers): turning the
 * coverage off (the story becomes a normal article again; its updates are kept, not shown), refused to a reporter on
 * someone else's story; the panel on the story's edit page, whose posts, score and coverage changes leave the form's
 * unsaved text alone; without JavaScript, the same controls as plain forms on the edit page and on the article, under
 * the same checks (session, role, the story's owner, Origin).
 */
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext } from "@playwright/test";
import { randomUUID } from "node:crypto";
import type { AppServices } from "#app/.server/app.server.ts";
import { insertLiveUpdate } from "#app/.server/news/live/live-updates.queries.server.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import {
  apiHeaders,
  bodyEditor,
  expect,
  fillBody,
  openPage,
  signInAsAdmin,
  siteQuery,
  storyBadge,
  t,
  takeOne,
  test as base,
} from "./support/fixtures.ts";

interface LiveSite extends RunningSite {
  articleId: string;
  editor: TestAccount;
  reporter: TestAccount;
}

const TITLE = "Grêmio x Internacional: o Gre-Nal minuto a minuto";
const SEEDED = ["Bola rolando no Beira-Rio.", "Cartão amarelo para o volante do Grêmio."];

// Each test drives two or three browser contexts (and the limit's test starts a site): up to 21 s measured on the
// 2-core CI machine with two workers, too close to the default 30 s.
base.describe.configure({ timeout: 60_000 });

/** A live story as every test finds it: a match (Grêmio 0–0 Internacional, 1º tempo) with the SEEDED updates. Its id. */
async function createLiveStory(services: AppServices, editor: TestAccount): Promise<string> {
  const articleId = await createNews(services, { title: TITLE, subtitle: "O clássico gaúcho ao vivo.", category: "Futebol", media: null });
  const start = Date.now() - 10 * 60_000;
  await services.database.db
    .updateTable("news")
    .set({
      live_coverage: "live",
      live_started_at: new Date(start).toISOString(),
      live_scoreboard: JSON.stringify({ home: "Grêmio", away: "Internacional", homeScore: 0, awayScore: 0, period: "1º tempo" }),
    })
    .where("id", "=", articleId)
    .execute();
  for (const [i, text] of SEEDED.entries()) {
    const at = new Date(start + (i + 1) * 60_000).toISOString();
    await insertLiveUpdate(services.database.db, {
      id: randomUUID(),
      news_id: articleId,
      body: JSON.stringify(plainTextToDoc(text)),
      text,
      key_event: 0,
      pinned: 0,
      author_id: editor.id,
      created_at: at,
      updated_at: at,
    });
  }
  return articleId;
}

/** Stories of one shared site: more than the tests that take one, so a whole run of the file takes one site. */
const SHARED_STORIES = 8;

interface SharedLiveSite {
  site: RunningSite;
  editor: TestAccount;
  reporter: TestAccount;
  /** The stories no test has taken yet. */
  untaken: string[];
}

/**
 * The site the tests share, one per worker (see `takeOne`): each test takes a live story of its own, made with the
 * others before the server started, so no test sees what another did to its story. The editor's posts are not
 * limited per minute there (the limit's own test has a site of its own, with the default).
 */
async function openSharedSite(onClose: (close: () => Promise<unknown>) => void): Promise<SharedLiveSite> {
  let editor!: TestAccount;
  let reporter!: TestAccount;
  const stories: string[] = [];
  const site = await startSite({
    env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1", LIVE_POSTS_PER_MINUTE: "600" },
    async setup(services) {
      editor = await createMember(services, "editor", { password: "senha-editor-1" });
      reporter = await createMember(services, "reporter", { password: "senha-reporter-1" });
      for (let n = 0; n < SHARED_STORIES; n++) stories.push(await createLiveStory(services, editor));
    },
  });
  onClose(() => site.stop());
  return { site, editor, reporter, untaken: stories };
}

const test = base.extend<{ siteOfItsOwn: boolean; site: LiveSite; editor: BrowserContext; reporter: BrowserContext }>({
  /** Whether the test starts a site of its own (with one live story) instead of sharing one. */
  siteOfItsOwn: [false, { option: true }],
  site: [
    async ({ siteOfItsOwn, launchSite, workerShelf }, use) => {
      if (siteOfItsOwn) {
        let articleId = "";
        let editor!: TestAccount;
        let reporter!: TestAccount;
        const site = await launchSite({
          env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1" },
          async setup(services) {
            editor = await createMember(services, "editor", { password: "senha-editor-1" });
            reporter = await createMember(services, "reporter", { password: "senha-reporter-1" });
            articleId = await createLiveStory(services, editor);
          },
        });
        await use({ ...site, articleId, editor, reporter });
        return;
      }
      const { resource: shared, taken: articleId } = await takeOne(workerShelf, "live-coverage-newsroom", openSharedSite);
      await use({ ...shared.site, articleId, editor: shared.editor, reporter: shared.reporter });
    },
    // Starting a site is not the test's time (the test's own timeout is set above).
    { timeout: 60_000 },
  ],
  editor: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site, site.editor);
    await use(context);
    await context.close();
  },
  reporter: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site, site.reporter);
    await use(context);
    await context.close();
  },
});

const articlePath = (site: LiveSite) => `/article/${site.articleId}`;

async function coverageState(site: LiveSite): Promise<string | null> {
  const [row] = await siteQuery<{ live_coverage: string | null }>(site, "SELECT live_coverage FROM news WHERE id = ?", site.articleId);
  return row?.live_coverage ?? null;
}

test("o editor desliga a cobertura: a notícia volta a ser matéria comum e as atualizações ficam guardadas", async ({ site, editor, page }) => {
  test.slow();
  await openPage(page, site, articlePath(site));
  await expect(storyBadge(page)).toHaveText(t.live.badge);
  await expect(page.getByTestId("live-coverage")).toBeVisible();

  const newsroom = await editor.newPage();
  await openPage(newsroom, site, articlePath(site));
  const panel = newsroom.getByTestId("live-newsroom");
  // Asked first; "Cancelar" changes nothing.
  await panel.getByRole("button", { name: t.liveNewsroom.turnOff }).click();
  const dialog = newsroom.getByTestId("live-turn-off-dialog");
  await expect(dialog).toContainText(t.liveNewsroom.turnOffText);
  await dialog.getByRole("button", { name: t.liveNewsroom.cancel }).click();
  await expect(dialog).toBeHidden();
  expect(await coverageState(site)).toBe("live");
  await expect(storyBadge(newsroom)).toBeVisible();

  await panel.getByRole("button", { name: t.liveNewsroom.turnOff }).click();
  await dialog.getByRole("button", { name: t.liveNewsroom.turnOffConfirm }).click();
  await expect(dialog).toBeHidden();
  // The newsroom's article: no coverage, only "Iniciar cobertura ao vivo".
  await expect(newsroom.getByTestId("live-coverage")).toHaveCount(0);
  await expect(storyBadge(newsroom)).toHaveCount(0);
  await expect(newsroom.getByTestId("live-newsroom")).toHaveAttribute("data-coverage", "off");
  await expect(newsroom.getByRole("button", { name: t.liveNewsroom.start })).toBeVisible();
  expect(await coverageState(site)).toBeNull();

  // The reader's open page follows (the story's change reloads its data), and a new visit (page cache on) too.
  await expect(storyBadge(page)).toHaveCount(0);
  await expect(page.getByTestId("live-coverage")).toHaveCount(0);
  await openPage(page, site, articlePath(site));
  await expect(page.locator("h1")).toHaveText(TITLE);
  await expect(storyBadge(page)).toHaveCount(0);
  await expect(page.getByTestId("live-coverage")).toHaveCount(0);
  await expect(page.getByTestId("live-scoreboard")).toHaveCount(0);
  await expect(page.getByText(SEEDED[0]!)).toHaveCount(0);
  const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(jsonLd.join("\n")).not.toContain("LiveBlogPosting");

  // What the dialog says: the updates are kept, and come back with the scoreboard if the coverage starts again.
  const [kept] = await siteQuery<{ n: number | string }>(site, "SELECT COUNT(*) AS n FROM news_live_updates WHERE news_id = ?", site.articleId);
  expect(Number(kept?.n)).toBe(SEEDED.length);
  await newsroom.getByRole("button", { name: t.liveNewsroom.start }).click();
  await expect(newsroom.getByTestId("live-updates").getByTestId("live-update")).toHaveCount(SEEDED.length);
  await expect(newsroom.getByTestId("live-scoreboard")).toContainText("Grêmio");
});

test("o repórter não desliga a cobertura de uma notícia que não é dele: o servidor recusa", async ({ site, reporter }) => {
  // Over the API, as the panel sends it.
  const refused = await reporter.request.patch(`${site.url}/api/news/${site.articleId}`, { data: { coverage: null }, headers: { origin: site.url } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
    code: "story_not_yours",
    message: t.roles.notOwnStory,
  });
  expect(await coverageState(site)).toBe("live");

  // From the article page's panel: the dialog's confirmation gets the server's refusal, and the coverage stays.
  const page = await reporter.newPage();
  await openPage(page, site, articlePath(site));
  await page.getByTestId("live-newsroom").getByRole("button", { name: t.liveNewsroom.turnOff }).click();
  await page.getByTestId("live-turn-off-dialog").getByRole("button", { name: t.liveNewsroom.turnOffConfirm }).click();
  await expect(page.getByTestId("live-newsroom").getByRole("alert")).toHaveText(t.roles.notOwnStory);
  await expect(storyBadge(page)).toHaveText(t.live.badge);
  expect(await coverageState(site)).toBe("live");
});

test("na página de edição: publicar uma atualização, mudar o placar e encerrar não mexem no texto não salvo do formulário", async ({
  site,
  editor,
  page,
}) => {
  test.slow();
  const newsroom = await editor.newPage();
  await openPage(newsroom, site, `/edit-news/${site.articleId}`);
  const title = newsroom.getByLabel(t.newsForm.title, { exact: true });
  await expect(title).toHaveValue(TITLE);
  await expect(bodyEditor(newsroom)).toBeVisible();
  // Typed, not saved.
  const typedTitle = `${TITLE} (ainda sem salvar)`;
  const typedBody = "Texto novo da matéria, digitado durante o jogo e ainda não salvo.";
  await title.fill(typedTitle);
  await fillBody(newsroom, typedBody);

  const panel = newsroom.getByTestId("live-edit-panel");
  const composer = panel.getByTestId("live-composer");
  await expect(composer).toBeVisible();
  const axe = await new AxeBuilder({ page: newsroom }).include('[data-testid="live-edit-panel"]').analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
  ).toEqual([]);
  expect(axe.passes.length).toBeGreaterThan(0);
  await composer.getByLabel(t.liveNewsroom.textLabel).fill("GOL DO GRÊMIO! Cabeçada no ângulo aos 12 minutos.");
  await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
  await expect(composer.getByRole("status")).toHaveText(t.liveNewsroom.posted);
  // The rich-text composer (the same editor as an update's edit), emptied once posted.
  await expect(composer.getByLabel(t.liveNewsroom.textLabel)).toHaveText("");

  const scoreEditor = panel.getByTestId("scoreboard-editor");
  await scoreEditor.getByText(t.liveNewsroom.scoreboardTitle, { exact: true }).click();
  await scoreEditor.getByRole("button", { name: t.liveNewsroom.plus("Grêmio") }).click();
  await expect(scoreEditor.getByTestId("scoreboard-home-value")).toHaveText("1");
  await expect
    .poll(async () => (await siteQuery<{ s: string }>(site, "SELECT live_scoreboard AS s FROM news WHERE id = ?", site.articleId))[0]?.s)
    .toContain('"homeScore":1');

  await expect(title).toHaveValue(typedTitle);
  await expect(bodyEditor(newsroom)).toContainText(typedBody);

  // Ending the coverage changes the story's cards: every open page reloads its data (this one too). The form keeps
  // what was typed; the panel shows the coverage as the server has it.
  const reloaded = newsroom.waitForResponse((response) => new URL(response.url()).pathname === `/edit-news/${site.articleId}.data`);
  await panel.getByRole("button", { name: t.liveNewsroom.end }).click();
  await newsroom.getByTestId("live-end-dialog").getByRole("button", { name: t.liveNewsroom.endConfirm }).click();
  await expect(panel.getByRole("button", { name: t.liveNewsroom.resume })).toBeVisible();
  expect((await reloaded).status()).toBe(200);
  await expect(panel.getByTestId("live-newsroom")).toHaveAttribute("data-coverage", "ended");
  await expect(title).toHaveValue(typedTitle);
  await expect(bodyEditor(newsroom)).toContainText(typedBody);
  await expect(newsroom.getByRole("button", { name: t.liveNewsroom.resume })).toBeVisible();

  // Nothing of the form was saved; the reader's article has the update and the score.
  const [row] = await siteQuery<{ title: string }>(site, "SELECT title FROM news WHERE id = ?", site.articleId);
  expect(row?.title).toBe(TITLE);
  await openPage(page, site, articlePath(site));
  await expect(page.locator("h1")).toHaveText(TITLE);
  await expect(page.getByTestId("live-updates").getByTestId("live-update").first()).toContainText("GOL DO GRÊMIO!");
  await expect(page.getByTestId("score-home")).toHaveText("1");
  // A match's coverage (it has a scoreboard) ends as the match does.
  await expect(page.getByTestId("live-ended")).toHaveText(t.live.endedMatch);
});

test.describe("sem JavaScript", () => {
  // The reader's page too; the newsroom's context is made below with JavaScript off as well.
  test.use({ javaScriptEnabled: false });

  test("a página de edição tem os controles em formulários: publicar, placar, encerrar, retomar, desligar e iniciar", async ({
    site,
    browser,
    page,
  }) => {
    test.slow();
    const context = await browser.newContext({ javaScriptEnabled: false });
    await signInAsAdmin(context, site, site.editor);
    const newsroom = await context.newPage();
    const editPath = `/edit-news/${site.articleId}`;
    await newsroom.goto(site.url + editPath);
    const forms = newsroom.getByTestId("live-forms");
    await expect(forms).toHaveAttribute("data-coverage", "live");
    await expect(newsroom.getByTestId("live-newsroom")).toHaveCount(0);
    const notice = newsroom.getByTestId("live-form-notice");
    const landed = (outcome: string) => expect(newsroom).toHaveURL(`${site.url}${editPath}?cobertura=${outcome}#cobertura-ao-vivo`);

    // An update: plain text, two paragraphs, a key event.
    await forms.getByLabel(t.liveNewsroom.textLabel).fill("Fim do primeiro tempo no Beira-Rio.\n\nO Grêmio vai ao vestiário na frente.");
    await forms.getByLabel(t.liveNewsroom.keyEvent).check();
    await forms.getByRole("button", { name: t.liveNewsroom.post }).click();
    await landed("posted");
    await expect(notice).toHaveText(t.liveNewsroom.posted);
    await expect(notice).toHaveAttribute("role", "status");
    const [posted] = await siteQuery<{ text: string; key_event: number | string; author_id: string }>(
      site,
      "SELECT text, key_event, author_id FROM news_live_updates WHERE news_id = ? ORDER BY created_at DESC LIMIT 1",
      site.articleId,
    );
    expect(posted).toEqual({
      text: "Fim do primeiro tempo no Beira-Rio.\n\nO Grêmio vai ao vestiário na frente.",
      key_event: 1,
      author_id: site.editor.id,
    });

    // Refused by the server's rules (only blanks): back with the reason, nothing posted.
    await forms.getByLabel(t.liveNewsroom.textLabel).fill("   ");
    await forms.getByRole("button", { name: t.liveNewsroom.post }).click();
    await landed("live_text_required");
    await expect(notice).toHaveText(t.liveNewsroom.textRequired);
    await expect(notice).toHaveAttribute("role", "alert");
    const [count] = await siteQuery<{ n: number | string }>(site, "SELECT COUNT(*) AS n FROM news_live_updates WHERE news_id = ?", site.articleId);
    expect(Number(count?.n)).toBe(SEEDED.length + 1);

    // The scoreboard, filled with what is saved.
    await expect(forms.getByLabel(t.liveNewsroom.home, { exact: true })).toHaveValue("Grêmio");
    await forms.getByLabel(t.liveNewsroom.homeScore).fill("2");
    await forms.getByLabel(t.liveNewsroom.period).fill("Intervalo");
    await forms.getByRole("button", { name: t.liveNewsroom.saveScoreboard }).click();
    await landed("scoreboard");
    await expect(notice).toHaveText(t.liveNewsroom.scoreboardSaved);
    await expect(forms.getByLabel(t.liveNewsroom.homeScore)).toHaveValue("2");

    // The reader's article (no JavaScript either) has it all.
    await page.goto(site.url + articlePath(site));
    await expect(page.getByTestId("live-updates").getByTestId("live-update").first()).toContainText("Fim do primeiro tempo no Beira-Rio.");
    await expect(page.getByTestId("live-key-events")).toContainText("Fim do primeiro tempo no Beira-Rio.");
    await expect(page.getByTestId("score-home")).toHaveText("2");
    await expect(page.getByTestId("scoreboard-period")).toHaveText("Intervalo");

    // Ended (the box checked first: unchecked, the server refuses), then resumed.
    await forms.getByLabel(t.liveNewsroom.endConfirmBox).check();
    await forms.getByRole("button", { name: t.liveNewsroom.end }).click();
    await landed("ended");
    await expect(notice).toHaveText(t.liveNewsroom.ended);
    expect(await coverageState(site)).toBe("ended");
    await page.reload();
    await expect(page.getByTestId("live-ended")).toBeVisible();
    await forms.getByRole("button", { name: t.liveNewsroom.resume }).click();
    await landed("live");
    await expect(notice).toHaveText(t.liveNewsroom.started);
    expect(await coverageState(site)).toBe("live");

    // Turned off: only with the box checked (the browser asks for it; the server too).
    await forms.getByRole("button", { name: t.liveNewsroom.turnOff }).click();
    await expect(newsroom).toHaveURL(`${site.url}${editPath}?cobertura=live#cobertura-ao-vivo`);
    expect(await coverageState(site)).toBe("live");
    const unconfirmed = await context.request.post(`${site.url}/api/news/${site.articleId}/live`, {
      form: { intent: "off" },
      headers: { origin: site.url },
      maxRedirects: 0,
    });
    expect(unconfirmed.status()).toBe(303);
    expect(unconfirmed.headers().location).toBe(`${editPath}?cobertura=live_off_unconfirmed#cobertura-ao-vivo`);
    expect(await coverageState(site)).toBe("live");
    await forms.getByLabel(t.liveNewsroom.turnOffConfirmBox).check();
    await forms.getByRole("button", { name: t.liveNewsroom.turnOff }).click();
    await landed("off");
    await expect(notice).toHaveText(t.liveNewsroom.turnedOff);
    expect(await coverageState(site)).toBeNull();
    await expect(forms).toHaveAttribute("data-coverage", "off");
    await expect(forms.getByLabel(t.liveNewsroom.textLabel)).toHaveCount(0);
    await page.reload();
    await expect(page.locator("h1")).toHaveText(TITLE);
    await expect(storyBadge(page)).toHaveCount(0);
    await expect(page.getByTestId("live-coverage")).toHaveCount(0);

    // Started again.
    await forms.getByRole("button", { name: t.liveNewsroom.start }).click();
    await landed("live");
    expect(await coverageState(site)).toBe("live");
    await context.close();
  });

  test("no artigo: o repórter cobre a própria notícia publicada pelos formulários; o leitor não os vê", async ({ site, browser, page }) => {
    // The story is the reporter's (they created it): published, and still theirs to correct and to cover.
    await siteQuery(site, "UPDATE news SET owner_id = ? WHERE id = ?", site.reporter.id, site.articleId);
    const context = await browser.newContext({ javaScriptEnabled: false });
    await signInAsAdmin(context, site, site.reporter);
    const newsroom = await context.newPage();
    expect((await newsroom.goto(`${site.url}/edit-news/${site.articleId}`))?.status()).toBe(200);
    await newsroom.goto(site.url + articlePath(site));
    const forms = newsroom.getByTestId("live-forms");
    await expect(forms).toHaveAttribute("data-coverage", "live");
    await expect(forms).toContainText(t.liveNewsroom.noScriptNote);
    const landed = (outcome: string) => expect(newsroom).toHaveURL(`${site.url}${articlePath(site)}?cobertura=${outcome}#cobertura-ao-vivo`);

    await forms.getByLabel(t.liveNewsroom.textLabel).fill("Do repórter na beira do campo: o Inter pressiona.");
    await forms.getByLabel(t.liveNewsroom.pinned).check();
    await forms.getByRole("button", { name: t.liveNewsroom.post }).click();
    await landed("posted");
    await expect(newsroom.getByTestId("live-form-notice")).toHaveText(t.liveNewsroom.posted);
    await expect(newsroom.getByTestId("live-pinned").getByTestId("live-update")).toContainText("Do repórter na beira do campo");

    await forms.getByLabel(t.liveNewsroom.endConfirmBox).check();
    await forms.getByRole("button", { name: t.liveNewsroom.end }).click();
    await landed("ended");
    await expect(newsroom.getByTestId("live-form-notice")).toHaveText(t.liveNewsroom.ended);
    await expect(newsroom.getByTestId("live-ended")).toBeVisible();
    await expect(forms.getByRole("button", { name: t.liveNewsroom.resume })).toBeVisible();
    expect(await coverageState(site)).toBe("ended");

    // A reader (no session): the coverage, never the forms nor a notice, whatever the address says.
    await page.goto(`${site.url}${articlePath(site)}?cobertura=posted`);
    await expect(page.getByTestId("live-pinned").getByTestId("live-update")).toContainText("Do repórter na beira do campo");
    await expect(page.getByTestId("live-forms")).toHaveCount(0);
    await expect(page.getByTestId("live-form-notice")).toHaveCount(0);
    await context.close();
  });

  test("os formulários passam pelas mesmas verificações: sessão, papel, dono da notícia e origem", async ({ site, reporter, editor, request }) => {
    const url = `${site.url}/api/news/${site.articleId}/live`;
    const form = { intent: "post", text: "Não deveria entrar." };
    const updates = async () =>
      Number((await siteQuery<{ n: number | string }>(site, "SELECT COUNT(*) AS n FROM news_live_updates WHERE news_id = ?", site.articleId))[0]?.n);
    const before = await updates();

    const anonymous = await request.post(url, { form, headers: { origin: site.url }, maxRedirects: 0 });
    expect(anonymous.status()).toBe(401);
    // A reporter, on a story that is not theirs.
    const notYours = await reporter.request.post(url, { form, headers: { origin: site.url }, maxRedirects: 0 });
    expect(notYours.status()).toBe(403);
    expect(((await notYours.json()) as { error: { code: string } }).error.code).toBe("story_not_yours");
    const notYoursOff = await reporter.request.post(url, { form: { intent: "off", confirm: "on" }, headers: { origin: site.url }, maxRedirects: 0 });
    expect(notYoursOff.status()).toBe(403);
    // The editor's session, from another site's page.
    const foreign = await editor.request.post(url, { form, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
    expect(foreign.status()).toBe(403);
    expect(await updates()).toBe(before);
    expect(await coverageState(site)).toBe("live");

    // Control: the editor's own form post goes through.
    const allowed = await editor.request.post(url, { form, headers: { origin: site.url }, maxRedirects: 0 });
    expect(allowed.status()).toBe(303);
    expect(await updates()).toBe(before + 1);
  });
});

// The limit as a newsroom has it (the shared site lifts it): on a site of its own.
test.describe(() => {
  test.use({ siteOfItsOwn: true });

  test(`depois de ${LIVE_LIMITS.postsPerMinute} atualizações num minuto, a seguinte é recusada com o motivo e o texto fica no campo`, async ({
    site,
    editor,
  }) => {
    // The minute's posts, through the JSON API as the composer sends them.
    for (let n = 1; n <= LIVE_LIMITS.postsPerMinute; n++) {
      const posted = await editor.request.post(`${site.url}/api/news/${site.articleId}/updates`, {
        data: { text: `Lance ${n}` },
        headers: apiHeaders(site),
      });
      expect(posted.status(), `atualização ${n}`).toBe(201);
    }
    const newsroom = await editor.newPage();
    await openPage(newsroom, site, articlePath(site));
    const composer = newsroom.getByTestId("live-composer");
    const text = "GOL! E a rede balança mais uma vez no Beira-Rio.";
    await composer.getByLabel(t.liveNewsroom.textLabel).fill(text);
    await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
    await expect(composer.getByText(/^Muitas atualizações em pouco tempo: espere \d+ segundos? e publique de novo\./)).toBeVisible();
    await expect(composer.getByLabel(t.liveNewsroom.textLabel)).toHaveText(text);
    expect(await siteQuery(site, "SELECT id FROM news_live_updates WHERE text = ?", text)).toEqual([]);
    await newsroom.goto("about:blank");
  });
});
