/**
 * The top of the home as editors arrange it (/capa): placing a story as the manchete reaches readers at once, the
 * page cache included; giving the place back restores the default order. Without JavaScript the page is plain forms.
 */
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";

const tf = t.frontPage;

test("fixar uma notícia como manchete chega aos leitores na hora (também pelo cache); liberar volta à ordem automática; sem JavaScript", async ({
  browser,
  launchSite,
}) => {
  test.setTimeout(90_000);
  const titles = ["Treino aberto no CT", "Rodada do vôlei", "Tabela do returno", "Clássico decide o turno"];
  const site = await launchSite({
    env: { PAGE_CACHE: "1" },
    async setup(services) {
      for (const [index, title] of titles.entries()) {
        await createNews(services, { title, media: null, createdAt: new Date(Date.now() - (10 - index) * 3_600_000) });
      }
    },
  });
  const home = async () => {
    const response = await fetch(`${site.url}/`);
    const html = await response.text();
    return { cache: response.headers.get("x-page-cache"), html };
  };
  // A reader's home, cached: the newest story leads.
  await home();
  const before = await home();
  expect(before.cache).toBe("hit");

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
  try {
    await signInAsAdmin(context, site);
    const page = await context.newPage();
    await page.goto(`${site.url}/capa`);
    await expect(page.getByTestId("front-page-1")).toContainText(titles[3]!);
    await expect(page.getByTestId("front-page-1")).toContainText(tf.automatic);

    // One form: the story, the place (the manchete by default), how long (6 hours by default).
    await page.getByRole("combobox", { name: tf.story, exact: true }).selectOption({ label: titles[0]! });
    await page.getByRole("button", { name: tf.pick, exact: true }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(tf.picked(tf.positions[0]));
    await expect(page.getByTestId("front-page-1")).toContainText(titles[0]!);
    await expect(page.getByTestId("front-page-1")).toContainText("Fixada até");

    // Readers: the cached home was dropped at once (and re-rendered ahead of them): the pick leads, first on the page.
    const after = await home();
    expect(after.html.indexOf(titles[0]!)).toBeGreaterThan(-1);
    expect(after.html.indexOf(titles[0]!)).toBeLessThan(after.html.indexOf(titles[3]!));
    expect(before.html.indexOf(titles[0]!)).toBeGreaterThan(before.html.indexOf(titles[3]!));
    const reader = await browser.newPage();
    await openPage(reader, site, "/");
    await expect(reader.getByRole("region", { name: t.home.recentTitle }).getByTestId("news-card").first()).toContainText(titles[0]!);

    await page.getByRole("button", { name: tf.releaseLabel(tf.positions[0]) }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(tf.released(tf.positions[0]));
    await expect(page.getByTestId("front-page-1")).toContainText(titles[3]!);
    await openPage(reader, site, "/");
    await expect(reader.getByRole("region", { name: t.home.recentTitle }).getByTestId("news-card").first()).toContainText(titles[3]!);
    await reader.close();
  } finally {
    await context.close();
  }
});
