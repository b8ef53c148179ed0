/**
 * A match announced before it starts (issue 34): on the story's edit page, the desk gives the teams, the kickoff and
 * the competition in a plain form (the same with and without JavaScript); readers then see it under "Jogos de hoje" on
 * the home and its section with the kickoff time. (Its coverage turning live by itself at the kickoff is the
 * scheduler's, tested in tests/integration/live-coverage.test.ts on both databases.)
 */
import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";
import { expect, NEWSROOM_SITE, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";
import { t as newsroom } from "#app/i18n/newsroom.ts";

const TITLE = "Flamengo x Palmeiras: tudo sobre a decisão";

/**
 * A whole-hour time zone where it is about noon now, so a kickoff two hours ahead is later the same day on the site's
 * clock whenever the test runs ("Etc/GMT-3" is UTC+3).
 */
function zoneAtNoon(): { zone: string; offsetHours: number } {
  const offsetHours = 12 - new Date().getUTCHours();
  return { zone: offsetHours >= 0 ? `Etc/GMT-${offsetHours}` : `Etc/GMT+${-offsetHours}`, offsetHours };
}

const { zone, offsetHours } = zoneAtNoon();

let site: RunningSite;
let articleId = "";

test.describe.configure({ mode: "default" });

test.beforeAll(async () => {
  site = await startSite({
    env: { ...NEWSROOM_SITE.env, TIME_ZONE: zone },
    async setup(services) {
      articleId = await createNews(services, { title: TITLE, category: "Futebol", media: null });
    },
  });
});

test.afterAll(async () => {
  await site?.stop();
});

/** Two hours from now on the site's clock, as the form's field takes it. */
function kickoffField(): { value: string; time: string } {
  const local = new Date(Date.now() + (offsetHours + 2) * 3_600_000).toISOString();
  return { value: local.slice(0, 16), time: local.slice(11, 16) };
}

async function announce(page: Page, kickoff: string) {
  const form = page.getByTestId("live-announce");
  await form.getByLabel(newsroom.liveNewsroom.home).fill("Flamengo");
  await form.getByLabel(newsroom.liveNewsroom.away).fill("Palmeiras");
  await form.getByLabel(newsroom.liveNewsroom.kickoffLabel).fill(kickoff);
  await form.getByLabel(newsroom.liveNewsroom.competitionLabel).fill("Copa do Brasil");
  await form.getByRole("button", { name: newsroom.liveNewsroom.announce }).click();
}

test("a redação anuncia a partida na edição; a home e a seção mostram o início em “Jogos de hoje”", async ({ page }) => {
  await signInAsAdmin(page, site);
  await openPage(page, site, `/edit-news/${articleId}`);
  const kickoff = kickoffField();
  await announce(page, kickoff.value);
  await expect(page.getByTestId("live-form-notice")).toHaveText(newsroom.liveNewsroom.announced);
  // The form keeps what was announced, and can take it back.
  const form = page.getByTestId("live-announce");
  await expect(form.getByLabel(newsroom.liveNewsroom.kickoffLabel)).toHaveValue(kickoff.value);
  await expect(form.getByRole("button", { name: newsroom.liveNewsroom.unannounce })).toBeVisible();

  for (const path of ["/", "/categoria/futebol"]) {
    await openPage(page, site, path);
    const match = page.getByTestId("match-strip").getByTestId("match-strip-item");
    await expect(match, path).toHaveCount(1);
    await expect(match).toHaveAttribute("data-state", "next");
    await expect(match).toContainText(kickoff.time);
    await expect(match).toContainText("Copa do Brasil");
    await expect(match).toContainText(`Flamengo${t.live.versus}Palmeiras`);
    // The story's own card says when the match starts.
    const card = page.locator(`[data-testid="news-card"][data-news-id="${articleId}"]`).first();
    await expect(card.getByTestId("card-kickoff")).toContainText(t.live.cardKickoff);
    await expect(card.getByTestId("card-kickoff")).toContainText(kickoff.time);
  }

  // Taken back: the strip is gone.
  await openPage(page, site, `/edit-news/${articleId}`);
  await page.getByTestId("live-announce").getByRole("button", { name: newsroom.liveNewsroom.unannounce }).click();
  await expect(page.getByTestId("live-form-notice")).toHaveText(newsroom.liveNewsroom.unannounced);
  await openPage(page, site, "/");
  await expect(page.getByTestId("match-strip")).toHaveCount(0);
  await expect(page.getByTestId("card-kickoff")).toHaveCount(0);
});

test.describe("sem JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("o mesmo formulário anuncia a partida, e a home a mostra", async ({ page }) => {
    await signInAsAdmin(page, site);
    await page.goto(`${site.url}/edit-news/${articleId}`);
    await announce(page, kickoffField().value);
    await expect(page.getByTestId("live-form-notice")).toHaveText(newsroom.liveNewsroom.announced);
    await page.goto(`${site.url}/`);
    await expect(page.getByTestId("match-strip").getByTestId("match-strip-item")).toHaveCount(1);
  });
});
