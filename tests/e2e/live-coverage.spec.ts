/**
 * Live coverage of a story in the browser (issue 20), with the page cache on as in production: an editor posts from
 * the article page itself; two readers' open pages get the update through the site's event stream without reloading
 * (the one at the top sees it on top; the one scrolled into the updates gets a "N novas atualizações" button and the
 * tab title "(N) …" instead of a moving page); the key events summary, the scoreboard's +/- changing the readers'
 * scoreboard live, edits (in the rich-text editor: bold and links survive a changed word) and deletions in place; a
 * reader without JavaScript gets the whole coverage from the server, paged with links; the JSON-LD is a
 * LiveBlogPosting; the home's card carries "AO VIVO". A match told minute by minute (issue 33): the composer's minute
 * and event at 390 px and the same formatting as an edit, "32' ⚽ Gol" (heard as "32 minutos, gol") on the update and
 * in the key events by minute, live and without JavaScript; "Fim de jogo" once a match's coverage ends; the 429 of too
 * many posts keeps what was typed.
 */
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import type { AppServices } from "#app/.server/app.server.ts";
import { insertLiveUpdate } from "#app/.server/news/live/live-updates.queries.server.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { createMember, type TestAccount } from "#tests/factories/auth.ts";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import {
  apiHeaders,
  expect,
  expectNoReload,
  expectNoSeriousViolations,
  markPage,
  openPage,
  runSql,
  signInAsAdmin,
  siteQuery,
  storyBadge,
  t,
  takeOne,
  test as base,
} from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

interface LiveSite extends RunningSite {
  articleId: string;
  editor: TestAccount;
}

const TITLE = "Flamengo x Vasco: acompanhe o clássico ao vivo";
/** Updates already posted when the test starts: more than a page, so the older ones are behind a link. */
const SEEDED = LIVE_LIMITS.pageSize + 4;
const seededText = (i: number) => `Lance número ${i} do clássico: a bola rola no meio-campo, com disputa forte e torcida cantando.`;

// Each test drives two or three browser contexts over event streams (and the two tests on a site of their own start
// it): up to 21 s measured on the 2-core CI machine with two workers, too close to the default 30 s.
base.describe.configure({ timeout: 60_000 });

/**
 * A live story as every test finds it: a match (Flamengo 2–1 Vasco, 2º tempo) with SEEDED updates posted a minute
 * apart by `editor`, the newest five minutes ago, the fourth a key event. Its id.
 */
async function createLiveStory(services: AppServices, editor: TestAccount, mediaId?: string): Promise<string> {
  const articleId = await createNews(services, {
    title: TITLE,
    subtitle: "Minuto a minuto no Maracanã.",
    category: "Futebol",
    media: mediaId ? null : "image",
  });
  const start = Date.now() - (SEEDED + 5) * 60_000;
  await services.database.db
    .updateTable("news")
    .set({
      live_coverage: "live",
      live_started_at: new Date(start).toISOString(),
      live_scoreboard: JSON.stringify({ home: "Flamengo", away: "Vasco", homeScore: 2, awayScore: 1, period: "2º tempo" }),
      ...(mediaId ? { media_id: mediaId } : {}),
    })
    .where("id", "=", articleId)
    .execute();
  for (let i = 0; i < SEEDED; i++) {
    const at = new Date(start + (i + 1) * 60_000).toISOString();
    const text = seededText(i);
    await insertLiveUpdate(services.database.db, {
      id: randomUUID(),
      news_id: articleId,
      body: JSON.stringify(plainTextToDoc(text)),
      text,
      key_event: i === 3 ? 1 : 0,
      pinned: 0,
      author_id: editor.id,
      created_at: at,
      updated_at: at,
    });
  }
  return articleId;
}

/** Stories of one shared site: more than the tests that take one, so a whole run of the file takes one site. */
const SHARED_STORIES = 16;

interface SharedLiveSite {
  site: RunningSite;
  editor: TestAccount;
  /** The stories no test has taken yet. */
  untaken: string[];
}

/**
 * The site most tests share, one per worker (see `takeOne`): each test takes a live story of its own, made with the
 * others before the server started, so no test sees what another did to its story. The tests that read the lists
 * every story is on (the home, a section's page, the menu) have a site of their own (`siteOfItsOwn`). Every story
 * has the same picture (one media record), and the editor's posts are not limited per minute (the limit's own test
 * has a site of its own, with the default).
 */
async function openSharedSite(onClose: (close: () => Promise<unknown>) => void): Promise<SharedLiveSite> {
  let editor!: TestAccount;
  const stories: string[] = [];
  const site = await startSite({
    env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1", LIVE_POSTS_PER_MINUTE: "600" },
    async setup(services) {
      editor = await createMember(services, "editor", { password: "senha-editor-1" });
      const picture = (await services.media.saveImage(await makeTestImage(), "teste.jpg")).id;
      for (let n = 0; n < SHARED_STORIES; n++) stories.push(await createLiveStory(services, editor, picture));
    },
  });
  onClose(() => site.stop());
  return { site, editor, untaken: stories };
}

const test = base.extend<{ siteOfItsOwn: boolean; site: LiveSite; editor: BrowserContext; readers: BrowserContext }>({
  /** Whether the test starts a site of its own (one live story and one without coverage) instead of sharing one. */
  siteOfItsOwn: [false, { option: true }],
  site: [
    async ({ siteOfItsOwn, launchSite, workerShelf }, use) => {
      if (siteOfItsOwn) {
        let articleId = "";
        let editor!: TestAccount;
        const site = await launchSite({
          env: { LOGIN_RATE_LIMIT: "1000", PAGE_CACHE: "1" },
          async setup(services) {
            editor = await createMember(services, "editor", { password: "senha-editor-1" });
            articleId = await createLiveStory(services, editor);
            await createNews(services, { title: "Outra notícia sem cobertura", media: null });
          },
        });
        await use({ ...site, articleId, editor });
        return;
      }
      const { resource: shared, taken: articleId } = await takeOne(workerShelf, "live-coverage", openSharedSite);
      await use({ ...shared.site, articleId, editor: shared.editor });
    },
    // Starting a site is not the test's time (the test's own timeout is set above).
    { timeout: 60_000 },
  ],
  editor: async ({ browser, site }, use) => {
    const context = await browser.newContext();
    await signInAsAdmin(context, site, site.editor);
    await use(context);
    await closeAll(context);
  },
  readers: async ({ browser }, use) => {
    const context = await browser.newContext();
    await use(context);
    await closeAll(context);
  },
});

async function closeAll(context: BrowserContext) {
  for (const page of context.pages()) await page.goto("about:blank").catch(() => undefined);
  await context.close();
}

const articlePath = (site: LiveSite) => `/article/${site.articleId}`;

/**
 * Opens the article in a new page of `context`, hydrated and listening to the event stream, and marks it. `prepare`
 * runs on the blank page first (an init script).
 */
async function openLive(context: BrowserContext, site: LiveSite, prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await context.newPage();
  await prepare?.(page);
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === "/events");
  await openPage(page, site, articlePath(site));
  expect((await stream).status()).toBe(200);
  await markPage(page);
  return page;
}

const updates = (page: Page) => page.getByTestId("live-updates").getByTestId("live-update");
/** The key events' summary, one link per event, in the order shown. */
const keyEvents = (page: Page) => page.getByTestId("live-key-events").getByTestId("live-key-event");

/** A key event's link: its minute and event as seen ("32' ⚽ Gol"; what is heard is checked apart), then its first line. */
async function expectKeyEvent(link: Locator, mark: string, summary: string) {
  await expect(link.getByTestId("live-event").locator('[aria-hidden="true"]')).toHaveText(mark);
  await expect(link).toContainText(summary);
}

/** Posts an update over the JSON API as the composer does (201 expected); its id. */
async function postThroughApi(context: BrowserContext, site: LiveSite, data: Record<string, unknown>): Promise<string> {
  const posted = await context.request.post(`${site.url}/api/news/${site.articleId}/updates`, { data, headers: apiHeaders(site) });
  expect(posted.status(), JSON.stringify(data)).toBe(201);
  return ((await posted.json()) as { update: { id: string } }).update.id;
}

/**
 * The composer's "Negrito" button, then back to the text: the editor takes the focus back a frame later (Tiptap's
 * focus command), and what is typed before that goes to the button.
 */
async function toggleBold(composer: Locator) {
  await composer.getByRole("button", { name: t.richText.bold }).click();
  await expect(composer.getByLabel(t.liveNewsroom.textLabel)).toBeFocused();
}

/** The names of a rich-text editor's toolbar buttons, in order. */
const toolbarButtons = (scope: Locator) =>
  scope
    .getByRole("toolbar")
    .getByRole("button")
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label")));

/** The rich-text editor an update opens in when the newsroom edits it (the news body's editor). */
const updateEditor = (update: Locator) => update.getByTestId("live-edit-editor").getByTestId("body-editor");

test("o editor publica da página do artigo; os leitores recebem sem recarregar, quem rolou ganha o botão", async ({ site, editor, readers }) => {
  // Three pages, a site of its own (a PostgreSQL database on the PostgreSQL pass): more than the default 30 s.
  test.slow();
  const top = await openLive(readers, site);
  const scrolled = await openLive(readers, site);
  await expect(updates(top)).toHaveCount(LIVE_LIMITS.pageSize);
  await expect(updates(top).first()).toContainText(seededText(SEEDED - 1));
  // The second reader reads further down, inside the updates.
  const reading = updates(scrolled).nth(8);
  await reading.scrollIntoViewIfNeeded();
  await scrolled.evaluate(() => window.scrollBy(0, 200));
  const readingTop = async () => (await reading.boundingBox())?.y;
  const positionBefore = await readingTop();
  const titleBefore = await scrolled.title();
  // What the readers' pages ask the server for the new update: nothing, the event brings it whole.
  const asked: string[] = [];
  for (const reader of [top, scrolled]) reader.on("request", (request) => asked.push(new URL(request.url()).pathname));

  const newsroom = await editor.newPage();
  await openPage(newsroom, site, articlePath(site));
  const composer = newsroom.getByTestId("live-composer");
  await composer.getByLabel(t.liveNewsroom.textLabel).fill("GOL DO FLAMENGO! Pedro sobe mais alto e cabeceia no canto.");
  await composer.getByLabel(t.liveNewsroom.keyEvent).check();
  await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
  await expect(composer.getByRole("status")).toHaveText(t.liveNewsroom.posted);
  await expect(updates(newsroom).first()).toContainText("GOL DO FLAMENGO!");

  // At the top: on top of the list, marked, and in the key events summary.
  await expect(updates(top).first()).toContainText("GOL DO FLAMENGO!");
  await expect(updates(top).first()).toContainText(t.live.keyEvent);
  await expect(updates(top).first().locator("time")).toHaveText(t.formats.justNow);
  await expect(top.getByTestId("live-key-events")).toContainText("GOL DO FLAMENGO! Pedro sobe mais alto");

  // Scrolled down: the page did not move; a button says what is waiting, and so does the tab.
  const button = scrolled.getByTestId("live-new-updates");
  await expect(button).toHaveText(t.live.newUpdates(1));
  await expect(updates(scrolled).first()).toContainText(seededText(SEEDED - 1));
  expect(await readingTop()).toBe(positionBefore);
  await expect(scrolled).toHaveTitle(t.live.unseenTitle(1, titleBefore));
  await button.click();
  await expect(button).toBeHidden();
  await expect(updates(scrolled).first()).toContainText("GOL DO FLAMENGO!");
  await expect(scrolled).toHaveTitle(titleBefore);

  await expectNoReload(top);
  await expectNoReload(scrolled);
  expect(asked.filter((path) => path.startsWith("/api/news/") || path.endsWith(".data"))).toEqual([]);
});

test("placar com +/-, edição, fixação e exclusão chegam aos leitores no lugar", async ({ site, editor, readers }) => {
  test.slow();
  const reader = await openLive(readers, site);
  await expect(reader.getByTestId("score-home")).toHaveText("2");
  // A score change reaches the open article through its event: the page reloads no data for it (its cards elsewhere do).
  const reloads: string[] = [];
  reader.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith(".data")) reloads.push(path);
  });
  const newsroom = await editor.newPage();
  await newsroom.setViewportSize({ width: 375, height: 800 });
  await openPage(newsroom, site, articlePath(site));
  const scoreEditor = newsroom.getByTestId("scoreboard-editor");
  await scoreEditor.getByText(t.liveNewsroom.scoreboardTitle, { exact: true }).click();
  await scoreEditor.getByRole("button", { name: t.liveNewsroom.plus("Flamengo") }).click();
  await expect(reader.getByTestId("score-home")).toHaveText("3");
  // A goal's save still on its way while the period is typed: its answer does not put the typed period back.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await newsroom.route(
    `**/api/news/${site.articleId}`,
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  await scoreEditor.getByRole("button", { name: t.liveNewsroom.plus("Vasco") }).click();
  await scoreEditor.getByLabel(t.liveNewsroom.period).fill("Fim de jogo");
  release();
  await expect(reader.getByTestId("score-away")).toHaveText("2");
  await expect(scoreEditor.getByRole("button", { name: t.liveNewsroom.saveScoreboard })).toBeEnabled();
  await expect(scoreEditor.getByLabel(t.liveNewsroom.period)).toHaveValue("Fim de jogo");
  await scoreEditor.getByRole("button", { name: t.liveNewsroom.saveScoreboard }).click();
  await expect(reader.getByTestId("scoreboard-period")).toHaveText("Fim de jogo");
  // The +/- buttons fit a 375 px screen (44 px targets, nothing wider than the viewport).
  const plus = await scoreEditor.getByRole("button", { name: t.liveNewsroom.plus("Vasco") }).boundingBox();
  expect(plus && plus.x + plus.width <= 375 && plus.width >= 44).toBe(true);
  expect(await newsroom.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // Edited in place.
  const target = updates(newsroom).filter({ hasText: seededText(SEEDED - 2) });
  await target.getByTestId("live-edit").click();
  await updateEditor(target).click();
  await newsroom.keyboard.press("ControlOrMeta+a");
  await newsroom.keyboard.insertText("Lance revisto: impedimento confirmado pelo VAR.");
  await target.getByTestId("live-edit-save").click();
  await expect(updates(reader).nth(1)).toHaveText(/Lance revisto: impedimento confirmado pelo VAR\./);

  // Pinned: first, apart from the list. (Clicked once the newsroom's list has settled: the editor closing and the
  // list's own refresh move the buttons below it, and a click that lands as they move hits nothing.)
  await expect(updates(newsroom).getByTestId("live-edit-save")).toHaveCount(0);
  await expect(updates(newsroom).filter({ hasText: "Lance revisto: impedimento confirmado pelo VAR." })).toHaveCount(1);
  await Promise.all([
    newsroom.waitForResponse((response) => response.request().method() === "PATCH" && response.url().includes("/updates/")),
    updates(newsroom)
      .filter({ hasText: seededText(SEEDED - 3) })
      .getByTestId("live-pin")
      .click(),
  ]);
  await expect(reader.getByTestId("live-pinned").getByTestId("live-update")).toContainText(seededText(SEEDED - 3));
  await expect(reader.getByTestId("live-pinned").getByTestId("live-update")).toContainText(t.live.pinned);
  await expect(newsroom.getByTestId("live-pinned").getByTestId("live-update")).toContainText(seededText(SEEDED - 3));

  // Deleted: gone from the open page.
  newsroom.once("dialog", (dialog) => void dialog.accept());
  await updates(newsroom).first().getByTestId("live-delete").click();
  await expect(updates(reader).filter({ hasText: seededText(SEEDED - 1) })).toHaveCount(0);
  await expect(updates(reader).first()).toContainText("Lance revisto");
  await expectNoReload(reader);
  expect(reloads).toEqual([]);
});

test.describe("sem JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("o leitor vê placar, lances importantes e atualizações, e pagina por links", async ({ site, page }) => {
    await page.goto(site.url + articlePath(site));
    await expect(storyBadge(page)).toHaveText(t.live.badge);
    await expect(page.getByTestId("live-scoreboard")).toContainText("Flamengo");
    await expect(page.getByTestId("score-home")).toHaveText("2");
    await expect(page.getByTestId("score-away")).toHaveText("1");
    await expect(page.getByTestId("scoreboard-period")).toHaveText("2º tempo");
    await expect(page.getByTestId("live-key-events")).toContainText(seededText(3).slice(0, 40));
    await expect(updates(page)).toHaveCount(LIVE_LIMITS.pageSize);
    await expect(updates(page).first()).toContainText(seededText(SEEDED - 1));
    await expect(updates(page).first().locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    await expect(updates(page).first().locator("time")).toHaveText(/^há \d+ min$/);
    await page.getByRole("link", { name: t.live.olderUpdates }).click();
    await expect(updates(page)).toHaveCount(SEEDED - LIVE_LIMITS.pageSize);
    await expect(updates(page).first()).toContainText(seededText(SEEDED - LIVE_LIMITS.pageSize - 1));
    await expect(updates(page).last()).toContainText(seededText(0));
    await expect(page.getByRole("link", { name: t.live.olderUpdates })).toHaveCount(0);
    await page.getByRole("link", { name: t.live.newestUpdates }).click();
    await expect(updates(page).first()).toContainText(seededText(SEEDED - 1));
  });
});

test.describe("sem JavaScript: a partida minuto a minuto", () => {
  test.use({ javaScriptEnabled: false });

  test("a redação publica minuto e lance pelo formulário; o leitor vê 90+4' 🏁 Fim de jogo e os lances pelo minuto", async ({
    site,
    browser,
    page,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      await signInAsAdmin(context, site, site.editor);
      const newsroom = await context.newPage();
      await newsroom.goto(site.url + articlePath(site));
      const forms = newsroom.getByTestId("live-forms");
      await forms.getByLabel(t.liveNewsroom.minuteLabel).fill("12");
      await forms.getByLabel(t.liveNewsroom.eventLabel).selectOption({ label: t.live.events.goal });
      await forms.getByLabel(t.liveNewsroom.textLabel).fill("GOL DO FLAMENGO! Pedro abre o placar.");
      await forms.getByRole("button", { name: t.liveNewsroom.post }).click();
      await expect(newsroom.getByTestId("live-form-notice")).toHaveText(t.liveNewsroom.posted);
      // Refused by the server's rules: back with the reason, nothing posted.
      await forms.getByLabel(t.liveNewsroom.minuteLabel).fill("noventa");
      await forms.getByLabel(t.liveNewsroom.textLabel).fill("Não entra.");
      await forms.getByRole("button", { name: t.liveNewsroom.post }).click();
      await expect(newsroom).toHaveURL(/\?cobertura=live_minute_invalid#cobertura-ao-vivo$/);
      await expect(newsroom.getByTestId("live-form-notice")).toHaveText(
        t.liveNewsroom.minuteInvalid(LIVE_LIMITS.minuteMax, LIVE_LIMITS.addedTimeMax),
      );
      await forms.getByLabel(t.liveNewsroom.minuteLabel).fill("90+4");
      await forms.getByLabel(t.liveNewsroom.eventLabel).selectOption("full_time");
      await forms.getByLabel(t.liveNewsroom.textLabel).fill("Fim de jogo no Maracanã.");
      await forms.getByRole("button", { name: t.liveNewsroom.post }).click();
      await expect(newsroom.getByTestId("live-form-notice")).toHaveText(t.liveNewsroom.posted);
    } finally {
      await context.close();
    }

    await page.goto(site.url + articlePath(site));
    const end = updates(page).first();
    await expect(end).toContainText("Fim de jogo no Maracanã.");
    await expect(end.getByTestId("live-event")).toContainText("90+4' 🏁 Fim de jogo");
    await expect(end.getByTestId("live-event")).toMatchAriaSnapshot("- text: 90 minutos e 4 de acréscimo, fim de jogo");
    await expect(updates(page).nth(1).getByTestId("live-event")).toContainText("12' ⚽ Gol");
    await expect(updates(page).nth(1).getByTestId("live-event")).toMatchAriaSnapshot("- text: 12 minutos, gol");
    await expect(page.getByText("Não entra.")).toHaveCount(0);
    // The summary: by minute, the latest in the match first, the seeded key event (no minute, posted first) last.
    await expect(keyEvents(page)).toHaveCount(3);
    await expectKeyEvent(keyEvents(page).nth(0), "90+4' 🏁 Fim de jogo", "Fim de jogo no Maracanã.");
    await expectKeyEvent(keyEvents(page).nth(1), "12' ⚽ Gol", "GOL DO FLAMENGO! Pedro abre o placar.");
    await expect(keyEvents(page).nth(2)).toContainText(seededText(3).slice(0, 40));
    await keyEvents(page).nth(1).click();
    await expect(page).toHaveURL(new RegExp(`#atualizacao-${await updates(page).nth(1).getAttribute("data-update-id")}$`));
  });
});

// It reads the lists every story is on (the home, the section's page and menu): on a site where its story is the only
// live one.
test.describe(() => {
  test.use({ siteOfItsOwn: true });

  test("JSON-LD LiveBlogPosting, 'Atualizado há', e o selo AO VIVO com o placar no cartão da home e no menu de seções", async ({
    site,
    page,
    editor,
  }) => {
    await openPage(page, site, articlePath(site));
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const posting = blocks.map((text) => JSON.parse(text) as Record<string, unknown>).find((block) => block["@type"] === "LiveBlogPosting");
    expect(posting).toBeDefined();
    expect(posting).toMatchObject({ headline: TITLE, coverageStartTime: expect.stringMatching(/^\d{4}-/) });
    expect(posting).not.toHaveProperty("coverageEndTime");
    const entries = posting!.liveBlogUpdate as Array<Record<string, unknown>>;
    expect(entries).toHaveLength(LIVE_LIMITS.jsonLdUpdates);
    expect(entries[0]).toMatchObject({
      "@type": "BlogPosting",
      headline: seededText(SEEDED - 1),
      articleBody: seededText(SEEDED - 1),
      datePublished: expect.stringMatching(/^\d{4}-/),
    });

    // Under the scoreboard: how old the news is, and a plain way to load it again.
    await expect(page.getByTestId("live-updated-ago")).toContainText(t.live.updatedAgo(""));
    await expect(page.getByTestId("live-updated-ago").getByRole("link", { name: t.live.refresh })).toBeVisible();

    // The section's page has the strip of its matches.
    await openPage(page, site, "/categoria/futebol");
    await expect(page.getByTestId("match-strip").getByTestId("match-strip-item")).toHaveCount(1);

    await openPage(page, site, "/");
    await markPage(page);
    const card = page.getByTestId("news-card").filter({ hasText: TITLE }).first();
    await expect(card.getByTestId("live-badge")).toHaveText(t.live.badge);
    // The score on the card: "AO VIVO 2–1, 2º tempo", heard with the teams.
    const score = card.getByTestId("card-score");
    await expect(score).toContainText("2–1, 2º tempo");
    await expect(score).toContainText(t.live.scoreSpoken("Flamengo", 2, "Vasco", 1));
    await expect(page.getByTestId("news-card").filter({ hasText: "Outra notícia sem cobertura" }).first().getByTestId("live-badge")).toHaveCount(0);
    // "Jogos de hoje" at the top: the match, live, with its score and period; a link to the story.
    const strip = page.getByTestId("match-strip");
    await expect(strip.getByRole("heading", { name: t.live.matchesToday })).toBeVisible();
    const match = strip.getByTestId("match-strip-item");
    await expect(match).toHaveCount(1);
    await expect(match).toHaveAttribute("data-state", "live");
    await expect(match).toContainText("2º tempo");
    await expect(match.getByRole("link")).toHaveAttribute("href", new RegExp(`^${articlePath(site)}/`));
    // The section menu says it too, on the story's section only.
    const menu = page.getByTestId("section-nav");
    await expect(menu.getByRole("link", { name: `Futebol ${t.live.badge}` })).toBeVisible();
    await expect(menu.getByTestId("section-live")).toHaveCount(1);
    // A goal: the open home's card follows it, without a reload (page cache on).
    const goal = await editor.request.patch(`${site.url}/api/news/${site.articleId}`, {
      data: { scoreboard: { home: "Flamengo", away: "Vasco", homeScore: 3, awayScore: 1, period: "2º tempo" } },
      headers: { origin: site.url },
    });
    expect(goal.status()).toBe(200);
    await expect(score).toContainText("3–1, 2º tempo");
    await expect(match).toContainText("Flamengo3–1Vasco");
    await expectNoReload(page);
    // Once the coverage ends, the card says "Encerrado 3–1" and the next page's menu no longer says "AO VIVO".
    const ended = await editor.request.patch(`${site.url}/api/news/${site.articleId}`, {
      data: { coverage: "ended" },
      headers: { origin: site.url },
    });
    expect(ended.status()).toBe(200);
    await expect(score).toHaveAttribute("data-state", "ended");
    await expect(score).toContainText(`${t.live.cardEnded}3–1`);
    await openPage(page, site, "/");
    await expect(page.getByTestId("section-nav").getByTestId("section-live")).toHaveCount(0);
    await expect(page.getByTestId("news-card").filter({ hasText: TITLE }).first().getByTestId("card-score")).toContainText("3–1");
  });
});

test("uma atualização renova só as páginas da notícia no cache: a home e a lista continuam servidas da memória", async ({
  site,
  editor,
  request,
}) => {
  const article = articlePath(site);
  for (const path of ["/", "/news-list", article, `/api/news/${site.articleId}/updates`, "/rss.xml"]) {
    await request.get(site.url + path);
    expect((await request.get(site.url + path)).headers()["x-page-cache"], path).toBe("hit");
  }
  const feedBefore = await (await request.get(`${site.url}/rss.xml`)).text();
  const posted = await editor.request.post(`${site.url}/api/news/${site.articleId}/updates`, {
    data: { text: "Substituição no Vasco: entra o camisa 9." },
    headers: { origin: site.url },
  });
  expect(posted.status()).toBe(201);
  for (const path of ["/", "/news-list"]) expect((await request.get(site.url + path)).headers()["x-page-cache"], path).toBe("hit");
  expect(await (await request.get(site.url + article)).text()).toContain("Substituição no Vasco: entra o camisa 9.");
  const page = (await (await request.get(`${site.url}/api/news/${site.articleId}/updates`)).json()) as { updates: Array<{ text: string }> };
  expect(page.updates[0]?.text).toBe("Substituição no Vasco: entra o camisa 9.");
  // The feed dates a live story by its last change: renewed with the update, not left for the cache's expiry. (The
  // story's own item: the other stories of a shared site have theirs.)
  const modified = (feed: string) =>
    feed
      .split("<item>")
      .find((item) => item.includes(`/article/${site.articleId}`))
      ?.match(/<dcterms:modified>([^<]+)<\/dcterms:modified>/)?.[1];
  await expect.poll(async () => modified(await (await request.get(`${site.url}/rss.xml`)).text())).not.toBe(modified(feedBefore));
});

test("depois de uma reconexão, a página busca o que perdeu", async ({ site, readers }) => {
  test.slow();
  const reader = await openLive(readers, site);
  await expect(updates(reader).first()).toContainText(seededText(SEEDED - 1));
  // Posted while this page's stream was down (the server stopped): no event ever reaches it.
  await site.whileStopped(async () => {
    const at = new Date().toISOString();
    const text = "Postada enquanto a conexão caiu";
    await runSql(
      site,
      "INSERT INTO news_live_updates (id, news_id, body, text, key_event, pinned, author_id, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0, NULL, ?, ?)",
      randomUUID(),
      site.articleId,
      JSON.stringify(plainTextToDoc(text)),
      text,
      at,
      at,
    );
  });
  // The event stream reconnects by itself; the page then fetches the updates.
  await expect(updates(reader).first()).toContainText("Postada enquanto a conexão caiu", { timeout: 15_000 });
  await expectNoReload(reader);
});

test("editar o texto de uma atualização com vídeo incorporado mantém o vídeo", async ({ site, editor }) => {
  const posted = await editor.request.post(`${site.url}/api/news/${site.articleId}/updates`, {
    data: {
      text: {
        type: "doc",
        content: [
          { type: "paragraph", content: [{ type: "text", text: "O gol em vídeo" }] },
          { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
        ],
      },
    },
    headers: { origin: site.url },
  });
  expect(posted.status()).toBe(201);
  const newsroom = await editor.newPage();
  await openPage(newsroom, site, articlePath(site));
  const update = updates(newsroom).first();
  await expect(update.getByText(t.embed.load("YouTube"))).toBeVisible();
  await update.getByTestId("live-edit").click();
  // The editor holds the update as it is: its text, and the video as a block of its own.
  const box = updateEditor(update);
  await expect(box.locator("p").first()).toHaveText("O gol em vídeo");
  await expect(box.getByTestId("editor-embed")).toBeVisible();
  await box.locator("p").first().click();
  await newsroom.keyboard.press("End");
  await newsroom.keyboard.insertText(", de outro ângulo");
  await update.getByTestId("live-edit-save").click();
  await expect(update).toContainText("O gol em vídeo, de outro ângulo");
  await expect(update.getByText(t.embed.load("YouTube"))).toBeVisible();
});

test("editar uma palavra de uma atualização com negrito e link: o leitor vê a troca com o negrito e o link", async ({ site, editor, readers }) => {
  test.slow();
  const href = "https://ge.globo.com/futebol/times/flamengo/";
  const doc = (first: string) => ({
    type: "doc",
    content: [
      {
        type: "paragraph",
        content: [
          { type: "text", text: `${first} de ` },
          { type: "text", text: "Pedro", marks: [{ type: "bold" }] },
          { type: "text", text: " aos 30 minutos. Veja a " },
          { type: "text", text: "ficha do jogo", marks: [{ type: "link", attrs: { href } }] },
          { type: "text", text: "." },
        ],
      },
    ],
  });
  const posted = await editor.request.post(`${site.url}/api/news/${site.articleId}/updates`, {
    data: { text: doc("Gol") },
    headers: { origin: site.url },
  });
  expect(posted.status()).toBe(201);
  const updateId = ((await posted.json()) as { update: { id: string } }).update.id;
  const reader = await openLive(readers, site);
  const read = updates(reader).and(reader.locator(`[data-update-id="${updateId}"]`));
  await expect(read).toContainText("Gol de Pedro aos 30 minutos.");

  const newsroom = await editor.newPage();
  await openPage(newsroom, site, articlePath(site));
  const update = updates(newsroom).and(newsroom.locator(`[data-update-id="${updateId}"]`));
  // Emptied, it is refused with the server's words and nothing changes; "Cancelar" drops what was typed.
  await update.getByTestId("live-edit").click();
  await updateEditor(update).click();
  await newsroom.keyboard.press("ControlOrMeta+a");
  await newsroom.keyboard.press("Delete");
  await update.getByTestId("live-edit-save").click();
  await expect(update.getByRole("alert")).toHaveText(t.liveNewsroom.textRequired);
  await expect(updateEditor(update)).toHaveAttribute("aria-invalid", "true");
  await update.getByRole("button", { name: t.liveNewsroom.cancel }).click();
  await expect(update.getByTestId("live-edit-editor")).toHaveCount(0);
  await expect(read).toContainText("Gol de Pedro aos 30 minutos.");

  await update.getByTestId("live-edit").click();
  // The editor starts from the update's document, not its plain text: the bold word and the link are in it.
  const box = updateEditor(update);
  await expect(box).toHaveText("Gol de Pedro aos 30 minutos. Veja a ficha do jogo.");
  await expect(box.locator("strong")).toHaveText("Pedro");
  await expect(box.locator("a")).toHaveAttribute("href", href);
  const axe = await new AxeBuilder({ page: newsroom }).include('[data-testid="live-edit-editor"]').analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
  ).toEqual([]);
  expect(axe.passes.length).toBeGreaterThan(0);
  // One word changed, as an editor does it: the first three letters selected and typed over.
  await box.click();
  await newsroom.keyboard.press("Home");
  for (let i = 0; i < 3; i++) await newsroom.keyboard.press("Shift+ArrowRight");
  await newsroom.keyboard.insertText("Golaço");
  await update.getByTestId("live-edit-save").click();
  await expect(update.getByTestId("live-edit-editor")).toHaveCount(0);
  await expect(update).toContainText("Golaço de Pedro aos 30 minutos.");

  // The open reader page, in place: the new word, the bold and the link.
  await expect(read).toContainText("Golaço de Pedro aos 30 minutos. Veja a ficha do jogo.");
  await expect(read.locator("strong")).toHaveText("Pedro");
  await expect(read.getByRole("link", { name: "ficha do jogo" })).toHaveAttribute("href", href);
  await expectNoReload(reader);
  // Stored so, and so for the next reader (page cache on: the edit renewed the article).
  const [row] = await siteQuery<{ body: string }>(site, "SELECT body FROM news_live_updates WHERE id = ?", updateId);
  expect(JSON.parse(row!.body)).toEqual(doc("Golaço"));
  const fresh = await readers.newPage();
  await openPage(fresh, site, articlePath(site));
  const freshUpdate = updates(fresh).and(fresh.locator(`[data-update-id="${updateId}"]`));
  await expect(freshUpdate.locator("strong")).toHaveText("Pedro");
  await expect(freshUpdate.getByRole("link", { name: "ficha do jogo" })).toHaveAttribute("href", href);
  await expect(freshUpdate).toContainText("Golaço de Pedro");
});

test.describe("a partida minuto a minuto", () => {
  const PHONE = { width: 390, height: 844 };

  test("no celular, o compositor tem minuto e lance numa linha e a formatação da edição; o leitor vê 32' ⚽ Gol ao vivo e nos lances, pelo minuto", async ({
    site,
    editor,
    readers,
  }) => {
    test.slow();
    const reader = await openLive(readers, site);
    const newsroom = await editor.newPage();
    await newsroom.setViewportSize(PHONE);
    await openPage(newsroom, site, articlePath(site));
    const composer = newsroom.getByTestId("live-composer");
    const minute = composer.getByLabel(t.liveNewsroom.minuteLabel);
    const event = composer.getByLabel(t.liveNewsroom.eventLabel);
    await expect(composer.getByLabel(t.liveNewsroom.textLabel)).toBeVisible();

    // Compact on a 390 px phone: the two fields side by side, on one line, tall enough to tap, nothing wider than the screen.
    const minuteBox = (await minute.boundingBox())!;
    const eventBox = (await event.boundingBox())!;
    expect(Math.abs(minuteBox.y - eventBox.y)).toBeLessThanOrEqual(2);
    expect(minuteBox.x + minuteBox.width).toBeLessThan(eventBox.x);
    expect(eventBox.x + eventBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(Math.min(minuteBox.height, eventBox.height)).toBeGreaterThanOrEqual(44);
    await expect(event.locator("option")).toHaveText([t.liveNewsroom.eventNone, ...Object.values(t.live.events)]);
    expect(await newsroom.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The composer formats as editing an update does: the same editor, the same toolbar.
    const target = updates(newsroom).filter({ hasText: seededText(SEEDED - 1) });
    await target.getByTestId("live-edit").click();
    const editing = target.getByTestId("live-edit-editor");
    await expect(editing.getByLabel(t.liveNewsroom.minuteLabel)).toHaveValue("");
    await expect(composer.getByRole("toolbar")).toBeVisible();
    await expect(editing.getByRole("toolbar")).toBeVisible();
    const composing = await toolbarButtons(composer);
    expect(composing).toEqual(await toolbarButtons(editing));
    expect(composing).toEqual(expect.arrayContaining([t.richText.bold, t.richText.italic, t.richText.link, t.richText.bulletList]));
    await target.getByRole("button", { name: t.liveNewsroom.cancel }).click();

    // A goal at 32, its scorer in bold (the toolbar's button), typed as a reporter types.
    const text = composer.getByLabel(t.liveNewsroom.textLabel);
    await text.click();
    await newsroom.keyboard.insertText("GOL DO FLAMENGO! ");
    await toggleBold(composer);
    await newsroom.keyboard.insertText("Pedro");
    await toggleBold(composer);
    await newsroom.keyboard.insertText(" sobe mais alto e cabeceia no canto.");
    await minute.fill("32");
    await event.selectOption({ label: t.live.events.goal });
    await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
    await expect(composer.getByRole("status")).toHaveText(t.liveNewsroom.posted);
    await expect(minute).toHaveValue("");
    await expect(event).toHaveValue("");

    // The reader's open page, through the event stream: "32' ⚽ Gol", heard as "32 minutos, gol", the bold kept.
    const goal = updates(reader).first();
    await expect(goal).toContainText("GOL DO FLAMENGO! Pedro sobe mais alto");
    await expect(goal.locator("strong")).toHaveText("Pedro");
    const mark = goal.getByTestId("live-event");
    await expect(mark).toContainText("32' ⚽ Gol");
    await expect(mark).toMatchAriaSnapshot("- text: 32 minutos, gol");
    // In the key events, linked to the update on the page.
    const goalId = await goal.getAttribute("data-update-id");
    await expectKeyEvent(keyEvents(reader).first(), "32' ⚽ Gol", "GOL DO FLAMENGO! Pedro sobe mais alto");
    await expect(keyEvents(reader).first()).toHaveAttribute("href", `#atualizacao-${goalId}`);

    // Told later, out of the match's order: the summary goes by the minute, the latest in the match first; the key
    // event marked before minutes existed (the seeded one) goes by when it was posted.
    await postThroughApi(editor, site, { text: "Intervalo no Maracanã.", minute: "45+2", eventType: "half_time" });
    await postThroughApi(editor, site, {
      text: "Amarelo para o lateral do Vasco, que tinha ficado sem registro.",
      minute: "20",
      eventType: "yellow_card",
    });
    await expect(keyEvents(reader)).toHaveCount(4);
    await expectKeyEvent(keyEvents(reader).nth(0), "45+2' ⏸️ Intervalo", "Intervalo no Maracanã.");
    await expectKeyEvent(keyEvents(reader).nth(1), "32' ⚽ Gol", "GOL DO FLAMENGO!");
    await expectKeyEvent(keyEvents(reader).nth(2), "20' 🟨 Cartão amarelo", "Amarelo para o lateral do Vasco");
    await expect(keyEvents(reader).nth(3)).toContainText(seededText(3).slice(0, 40));
    await expect(keyEvents(reader).nth(0).getByTestId("live-event")).toMatchAriaSnapshot("- text: 45 minutos e 2 de acréscimo, intervalo");
    await keyEvents(reader).nth(1).click();
    await expect(reader).toHaveURL(new RegExp(`#atualizacao-${goalId}$`));
    await expectNoReload(reader);

    // Edited: the card was red, and it was at 21. The reader's page follows, summary included.
    const card = updates(newsroom).filter({ hasText: "Amarelo para o lateral do Vasco" });
    await card.getByTestId("live-edit").click();
    const fields = card.getByTestId("live-edit-editor");
    await expect(fields.getByLabel(t.liveNewsroom.minuteLabel)).toHaveValue("20");
    await expect(fields.getByLabel(t.liveNewsroom.eventLabel)).toHaveValue("yellow_card");
    await fields.getByLabel(t.liveNewsroom.minuteLabel).fill("21");
    await fields.getByLabel(t.liveNewsroom.eventLabel).selectOption("red_card");
    await card.getByTestId("live-edit-save").click();
    await expect(card.getByTestId("live-edit-editor")).toHaveCount(0);
    await expectKeyEvent(keyEvents(reader).nth(2), "21' 🟥 Cartão vermelho", "Amarelo para o lateral do Vasco");
    await expect(updates(reader).filter({ hasText: "Amarelo para o lateral do Vasco" }).getByTestId("live-event")).toContainText(
      "21' 🟥 Cartão vermelho",
    );
    await expectNoReload(reader);
  });

  test("um minuto inválido é recusado pelo servidor com o motivo, no campo; nada se perde", async ({ site, editor }) => {
    const newsroom = await editor.newPage();
    await newsroom.setViewportSize(PHONE);
    await openPage(newsroom, site, articlePath(site));
    const composer = newsroom.getByTestId("live-composer");
    await composer.getByLabel(t.liveNewsroom.textLabel).fill("Pênalti para o Flamengo!");
    const minute = composer.getByLabel(t.liveNewsroom.minuteLabel);
    await minute.fill("45+45");
    await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
    const refusal = t.liveNewsroom.minuteInvalid(LIVE_LIMITS.minuteMax, LIVE_LIMITS.addedTimeMax);
    await expect(composer.getByRole("alert")).toHaveText(refusal);
    await expect(minute).toHaveAttribute("aria-invalid", "true");
    await expect(minute).toHaveAccessibleDescription(new RegExp(refusal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    await expect(minute).toHaveValue("45+45");
    await expect(composer.getByLabel(t.liveNewsroom.textLabel)).toHaveText("Pênalti para o Flamengo!");
    expect(await siteQuery(site, "SELECT id FROM news_live_updates WHERE text = ?", "Pênalti para o Flamengo!")).toEqual([]);
    // Corrected, it goes out.
    await minute.fill("45+4");
    await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
    await expect(composer.getByRole("status")).toHaveText(t.liveNewsroom.posted);
    await expect(updates(newsroom).first().getByTestId("live-event")).toContainText("45+4'");
  });

  // The limit as a newsroom has it (the shared site lifts it): on a site of its own.
  test.describe(() => {
    test.use({ siteOfItsOwn: true });

    test(`depois de ${LIVE_LIMITS.postsPerMinute} atualizações num minuto, a recusa (429) diz quanto esperar e o texto, a formatação, o minuto e o lance ficam`, async ({
      site,
      editor,
    }) => {
      for (let n = 1; n <= LIVE_LIMITS.postsPerMinute; n++) await postThroughApi(editor, site, { text: `Lance ${n}` });
      const newsroom = await editor.newPage();
      await newsroom.setViewportSize(PHONE);
      await openPage(newsroom, site, articlePath(site));
      const composer = newsroom.getByTestId("live-composer");
      const text = composer.getByLabel(t.liveNewsroom.textLabel);
      await text.click();
      await toggleBold(composer);
      await newsroom.keyboard.insertText("GOL!");
      await toggleBold(composer);
      await newsroom.keyboard.insertText(" E a rede balança de novo no Maracanã.");
      await composer.getByLabel(t.liveNewsroom.minuteLabel).fill("88");
      await composer.getByLabel(t.liveNewsroom.eventLabel).selectOption("goal");
      const answered = newsroom.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/updates"));
      await composer.getByRole("button", { name: t.liveNewsroom.post }).click();
      const refused = await answered;
      expect(refused.status()).toBe(429);
      const wait = Number(refused.headers()["retry-after"]);
      expect(wait).toBeGreaterThan(0);
      await expect(composer.getByRole("alert")).toHaveText(t.liveNewsroom.rateLimited(wait));
      await expect(text).toHaveText("GOL! E a rede balança de novo no Maracanã.");
      await expect(text.locator("strong")).toHaveText("GOL!");
      await expect(composer.getByLabel(t.liveNewsroom.minuteLabel)).toHaveValue("88");
      await expect(composer.getByLabel(t.liveNewsroom.eventLabel)).toHaveValue("goal");
      await expect(composer.getByRole("button", { name: t.liveNewsroom.post })).toBeEnabled();
      const [count] = await siteQuery<{ n: number | string }>(site, "SELECT COUNT(*) AS n FROM news_live_updates WHERE news_id = ?", site.articleId);
      expect(Number(count?.n)).toBe(SEEDED + LIVE_LIMITS.postsPerMinute);
    });
  });

  test("fim de jogo: a cobertura encerrada de uma partida diz 'Fim de jogo' na página aberta do leitor; sem placar, 'Encerrada'", async ({
    site,
    editor,
    readers,
  }) => {
    const reader = await openLive(readers, site);
    await expect(storyBadge(reader)).toHaveText(t.live.badge);
    await postThroughApi(editor, site, { text: "Apita o árbitro: fim de jogo no Maracanã.", minute: "90+5", eventType: "full_time" });
    await expect(updates(reader).first().getByTestId("live-event")).toContainText("90+5' 🏁 Fim de jogo");
    const ended = await editor.request.patch(`${site.url}/api/news/${site.articleId}`, { data: { coverage: "ended" }, headers: apiHeaders(site) });
    expect(ended.status()).toBe(200);
    // The open page follows (ending the coverage reloads its data): the badge and the notice say the match is over.
    await expect(storyBadge(reader)).toHaveText(t.live.endedMatchBadge);
    await expect(reader.getByTestId("live-ended")).toHaveText(t.live.endedMatch);
    await expectNoReload(reader);

    // A coverage without a scoreboard is not a match: it keeps the words of any ended coverage.
    const noScore = await editor.request.patch(`${site.url}/api/news/${site.articleId}`, { data: { scoreboard: null }, headers: apiHeaders(site) });
    expect(noScore.status()).toBe(200);
    await openPage(reader, site, articlePath(site));
    await expect(storyBadge(reader)).toHaveText(t.live.ended);
    await expect(reader.getByTestId("live-ended")).toHaveText(t.live.endedNotice);
  });
});

/**
 * Whether the tab is hidden, under the test's control. Headless Chromium never hides a page: another page of the same
 * context brought to the front, a tab opened from it, or its window minimized through the DevTools protocol all leave
 * `document.visibilityState` "visible" and send no `visibilitychange` (tried on Chromium 156). So the page's
 * `document.visibilityState` is the test's, and switching it sends the event a browser sends.
 */
async function controlVisibility(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let state: DocumentVisibilityState = "visible";
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
    (window as unknown as { setTabVisibility: (next: DocumentVisibilityState) => void }).setTabVisibility = (next) => {
      state = next;
      document.dispatchEvent(new Event("visibilitychange"));
    };
  });
}

const setTabVisibility = (page: Page, state: DocumentVisibilityState) =>
  page.evaluate((next) => (window as unknown as { setTabVisibility: (next: DocumentVisibilityState) => void }).setTabVisibility(next), state);

test("com a aba escondida, o título conta as atualizações novas; de volta à aba, a contagem some", async ({ site, editor, readers }) => {
  test.slow();
  const reader = await openLive(readers, site, controlVisibility);
  const title = await reader.title();
  expect(title).toContain(TITLE);
  expect(title).not.toMatch(/^\(\d+\) /);
  const post = async (text: string) => {
    const posted = await editor.request.post(`${site.url}/api/news/${site.articleId}/updates`, { data: { text }, headers: { origin: site.url } });
    expect(posted.status()).toBe(201);
  };

  await setTabVisibility(reader, "hidden");
  await post("Escanteio para o Vasco, a bola passa por todo mundo.");
  await expect(updates(reader).first()).toContainText("Escanteio para o Vasco");
  await expect(reader).toHaveTitle(t.live.unseenTitle(1, title));
  await post("Cartão amarelo para o lateral do Flamengo.");
  await expect(updates(reader).first()).toContainText("Cartão amarelo para o lateral");
  await expect(reader).toHaveTitle(t.live.unseenTitle(2, title));

  // Back on the tab: seen.
  await setTabVisibility(reader, "visible");
  await expect(reader).toHaveTitle(title);
  // With the tab in sight (and the list at the top), a new update is seen as it arrives: no count.
  await post("Substituição no Flamengo: entra o camisa 11.");
  await expect(updates(reader).first()).toContainText("Substituição no Flamengo");
  expect(await reader.title()).toBe(title);
  // Hidden again, the count starts over.
  await setTabVisibility(reader, "hidden");
  await post("Impedimento marcado no ataque do Vasco.");
  await expect(updates(reader).first()).toContainText("Impedimento marcado");
  await expect(reader).toHaveTitle(t.live.unseenTitle(1, title));
  await expectNoReload(reader);
});

test("uma notícia ao vivo retirada do ar: as atualizações guardadas no cache deixam de ser servidas na hora", async ({ site, editor, request }) => {
  const json = `${site.url}/api/news/${site.articleId}/updates`;
  await request.get(json);
  expect((await request.get(json)).headers()["x-page-cache"]).toBe("hit");
  const unpublished = await editor.request.patch(`${site.url}/api/news/${site.articleId}`, {
    data: { status: "draft" },
    headers: { origin: site.url },
  });
  expect(unpublished.status()).toBe(200);
  const after = await request.get(json);
  expect(after.status()).toBe(404);
  expect(((await after.json()) as { error: { code: string } }).error.code).toBe("news_not_found");
});

// One test per page: each axe pass over the live article takes ~10 s on the 2-core CI machine.
test("acessibilidade (axe): o artigo ao vivo do leitor, sem violações sérias", async ({ site, page }) => {
  await openPage(page, site, articlePath(site));
  await expectNoSeriousViolations(page, "o artigo ao vivo do leitor");
});

test("acessibilidade (axe): o artigo ao vivo da redação, sem violações sérias", async ({ site, editor }) => {
  const newsroom = await editor.newPage();
  await openPage(newsroom, site, articlePath(site));
  await newsroom.getByTestId("live-composer").waitFor();
  await newsroom.getByTestId("scoreboard-editor").getByText(t.liveNewsroom.scoreboardTitle, { exact: true }).click();
  await expectNoSeriousViolations(newsroom, "o artigo ao vivo da redação");
});
