/**
 * The focus point of a story's image: the editor picks it on the edit page (a click on the picture, or the sliders),
 * saves it, and the very next reader's cards crop the photo around it (page cache on); the API refuses what is not
 * a point. SQLite and PostgreSQL.
 */
import { createNews } from "#tests/factories/news.ts";
import { apiHeaders, expect, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";

test("o editor escolhe o ponto de foco da imagem e os cards do leitor cortam a foto em volta dele", async ({
  launchSite,
  browser,
  page,
  playwright,
}) => {
  let id = "";
  const site = await launchSite({
    env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
    async setup(services) {
      id = await createNews(services, { title: "Goleiro salva no último lance", media: "image" });
    },
  });
  const reader = await playwright.request.newContext();
  const cardImage = () => page.locator(`[data-news-id="${id}"] img`).first();
  await openPage(page, site, "/");
  // No point chosen: the centre (no object-position of its own).
  await expect(cardImage()).not.toHaveAttribute("style", /object-position/);
  await reader.get(`${site.url}/`);

  const editor = await browser.newContext();
  await signInAsAdmin(editor, site);
  const form = await editor.newPage();
  await openPage(form, site, `/edit-news/${id}`);
  const focus = form.getByRole("group", { name: t.mediaFocus.title });
  await expect(focus).toBeVisible();
  // A click on the picture moves the point there.
  const picture = focus.locator("img").first();
  // Measured once the picture has arrived: before, its box is not the one the click lands on.
  await picture.evaluate((image: HTMLImageElement) => image.decode());
  const box = (await picture.boundingBox())!;
  await picture.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
  await expect(focus.getByLabel(t.mediaFocus.horizontal)).toHaveValue(/^(24|25|26)$/);
  await expect(focus.getByLabel(t.mediaFocus.vertical)).toHaveValue(/^(74|75|76)$/);
  // The sliders set it exactly (the keyboard's way).
  await focus.getByLabel(t.mediaFocus.horizontal).fill("20");
  await focus.getByLabel(t.mediaFocus.vertical).fill("80");
  await focus.getByRole("button", { name: t.mediaFocus.save }).click();
  await expect(focus.getByRole("status")).toHaveText(t.mediaFocus.saved);

  // The next reader, from the page cache, already gets the cropped card.
  await openPage(page, site, "/");
  await expect(cardImage()).toHaveCSS("object-position", "20% 80%");
  // Back to the centre.
  await focus.getByRole("button", { name: t.mediaFocus.center }).click();
  await expect(focus.getByRole("status")).toHaveText(t.mediaFocus.saved);
  await openPage(page, site, "/");
  await expect(cardImage()).toHaveCSS("object-position", "50% 50%");

  // The API takes a point (or two nulls), nothing else.
  for (const data of [{ focusX: 120, focusY: 10 }, { focusX: 10 }, { focusX: "10", focusY: "20" }, { focusX: null, focusY: 5 }]) {
    const refused = await editor.request.put(`${site.url}/api/news/${id}/media-focus`, { data, headers: apiHeaders(site) });
    expect(refused.status(), JSON.stringify(data)).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_focus");
  }
  await editor.close();
  await reader.dispose();
});
