/**
 * Clubs (issue: teams): the desk keeps the list (/times), a story is tagged from it on its edit page (with and without
 * JavaScript), and readers find the club everywhere: its page (/time/{slug}: stories and matches), the menu's team
 * row, the article's chips and the club's and the section's RSS. The list's rules (one entry per club whatever the
 * spelling) and the queries run on both databases in tests/integration/teams.test.ts.
 */
import { parseFeed } from "@rowanmanning/feed-parser";
import { createNews } from "#tests/factories/news.ts";
import { expect, expectNoSeriousViolations, NEWSROOM_SITE, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";

const tt = t.teams;

test("a redação monta a lista de times e marca a notícia; o leitor acha o time na página dele, no menu, na notícia e no RSS", async ({
  browser,
  launchSite,
}) => {
  test.setTimeout(90_000);
  let storyId = "";
  const site = await launchSite({
    ...NEWSROOM_SITE,
    async setup(services) {
      storyId = await createNews(services, { title: "Rubro-negro vence o clássico no Maracanã", category: "Futebol", media: null });
      await createNews(services, { title: "Seleção de vôlei na final", category: "Vôlei", media: null });
    },
  });
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  try {
    await signInAsAdmin(context, site);
    const page = await context.newPage();
    await openPage(page, site, "/times");
    await expect(page.getByText(tt.empty)).toBeVisible();
    const add = async (name: string) => {
      await page.getByLabel(tt.nameLabel, { exact: true }).fill(name);
      await page.getByRole("button", { name: tt.add }).click();
    };
    await add("Flamengo");
    await expect(page.getByTestId("banner-success")).toHaveText(tt.added("Flamengo"));
    await add("São Paulo");
    await expect(page.getByTestId("banner-success")).toHaveText(tt.added("São Paulo"));
    // Another spelling of a club in the list is refused, and what was typed is still there to fix.
    await add("sao paulo");
    await expect(page.getByTestId("banner-error")).toHaveText(tt.exists("São Paulo"));
    await expect(page.getByTestId("teams-table").getByRole("row")).toHaveCount(3);
    await expectNoSeriousViolations(page, "/times");

    // The story's edit page: "Times da notícia", saved on its own.
    await openPage(page, site, `/edit-news/${storyId}`);
    const panel = page.getByTestId("story-teams");
    await panel.getByRole("checkbox", { name: "Flamengo" }).check();
    await panel.getByRole("button", { name: tt.save }).click();
    await expect(panel.getByTestId("banner-success")).toHaveText(tt.saved);
    await expectNoSeriousViolations(page, "/edit-news (times)");

    // A reader: the club's page lists the story, the menu has the club, the article links to it.
    const readerContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const reader = await readerContext.newPage();
    await openPage(reader, site, "/time/flamengo");
    await expect(reader.getByRole("heading", { level: 1 })).toHaveText("Flamengo");
    await expect(reader.getByTestId("news-card")).toHaveCount(1);
    await expect(reader.getByTestId("news-card")).toContainText("Rubro-negro vence o clássico");
    const teamRow = reader.getByTestId("team-nav");
    await expect(teamRow.getByRole("link")).toHaveText(["Flamengo"]);
    await expect(teamRow.getByRole("link", { name: "Flamengo" })).toHaveAttribute("aria-current", "page");
    await expectNoSeriousViolations(reader, "/time/flamengo");
    // The club's feed is announced on its page.
    await expect(reader.locator('link[rel="alternate"][type="application/rss+xml"][href="/time/flamengo/rss.xml"]')).toHaveCount(1);
    await reader.getByTestId("news-card").getByRole("link").first().click();
    await expect(reader).toHaveURL(new RegExp(`/article/${storyId}/`));
    const chips = reader.getByTestId("article-teams");
    await expect(chips.getByRole("link")).toHaveText(["Flamengo"]);
    await expectNoSeriousViolations(reader, "artigo com times");
    await chips.getByRole("link", { name: "Flamengo" }).click();
    await expect(reader).toHaveURL(/\/time\/flamengo$/);
    // A club with no story yet: its page exists and says so; one not in the list is a 404.
    await openPage(reader, site, "/time/sao-paulo");
    await expect(reader.getByTestId("term-empty")).toContainText(t.taxonomy.emptyTeam);
    const missing = await reader.goto(`${site.url}/time/nao-existe`);
    expect(missing?.status()).toBe(404);
    await expect(reader.getByRole("heading", { level: 1 })).toHaveText(t.taxonomy.teamNotFound);
    await readerContext.close();

    // The feeds: the club's and the section's, each with its own stories only.
    const teamFeed = await fetch(`${site.url}/time/flamengo/rss.xml`);
    expect(teamFeed.headers.get("content-type")).toContain("application/rss+xml");
    expect(parseFeed(await teamFeed.text()).items.map((item) => item.title)).toEqual(["Rubro-negro vence o clássico no Maracanã"]);
    const sectionFeed = parseFeed(await (await fetch(`${site.url}/categoria/volei/rss.xml`)).text());
    expect(sectionFeed.items.map((item) => item.title)).toEqual(["Seleção de vôlei na final"]);
    expect((await fetch(`${site.url}/time/nao-existe/rss.xml`)).status).toBe(404);

    // Removing the club from the list, confirmed: the story stays, its page and chip go.
    await openPage(page, site, "/times");
    await page.getByRole("button", { name: tt.removeLabel("Flamengo") }).click();
    await expect(page.getByRole("alert")).toContainText(tt.removeConfirm("Flamengo", 1));
    await page.getByRole("alert").getByRole("button", { name: tt.remove }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(tt.removed("Flamengo"));
    expect((await fetch(`${site.url}/time/flamengo`)).status).toBe(404);
    expect((await fetch(`${site.url}/article/${storyId}`)).status).toBe(200);
  } finally {
    await context.close();
  }
});

test("sem JavaScript: marcar os times volta à página de edição com o resultado; mais de seis é recusado sem salvar nada", async ({
  browser,
  launchSite,
}) => {
  test.setTimeout(60_000);
  let storyId = "";
  const site = await launchSite({
    ...NEWSROOM_SITE,
    async setup(services) {
      storyId = await createNews(services, { title: "Rodada do fim de semana", media: null });
      const now = new Date().toISOString();
      for (const name of ["Atlético", "Bahia", "Botafogo", "Ceará", "Cruzeiro", "Fortaleza", "Grêmio"]) {
        const key = name
          .normalize("NFKD")
          .replace(/[\u0300-\u036f]/g, "")
          .toLowerCase();
        await services.database.db.insertInto("teams").values({ slug: key, name, name_key: key, created_at: now, created_by: null }).execute();
      }
    },
  });
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  try {
    await signInAsAdmin(context, site);
    const page = await context.newPage();
    await page.goto(`${site.url}/edit-news/${storyId}`);
    const panel = page.getByTestId("story-teams");
    for (const name of ["Atlético", "Bahia", "Botafogo", "Ceará", "Cruzeiro", "Fortaleza", "Grêmio"]) {
      await panel.getByRole("checkbox", { name }).check();
    }
    await panel.getByRole("button", { name: tt.save }).click();
    await expect(page).toHaveURL(/\?times=teams_too_many#times$/);
    await expect(page.getByTestId("story-teams").getByTestId("banner-error")).toHaveText(tt.tooMany(6));
    await expect(page.getByTestId("story-teams").getByRole("checkbox", { checked: true })).toHaveCount(0);

    await page.getByTestId("story-teams").getByRole("checkbox", { name: "Ceará" }).check();
    await page.getByTestId("story-teams").getByRole("checkbox", { name: "Grêmio" }).check();
    await page.getByTestId("story-teams").getByRole("button", { name: tt.save }).click();
    await expect(page.getByTestId("story-teams").getByTestId("banner-success")).toHaveText(tt.saved);
    await expect(page.getByTestId("story-teams").getByRole("checkbox", { checked: true })).toHaveCount(2);
    const html = await (await fetch(`${site.url}/time/gremio`)).text();
    expect(html).toContain("Rodada do fim de semana");
  } finally {
    await context.close();
  }
});
