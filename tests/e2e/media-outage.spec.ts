/**
 * The news form while the media store is down (a real s3rver, stopped): the form says which store does not answer,
 * a title correction and an unpublish are saved, and only a save with a new file is stopped, naming S3, with the
 * typed text kept. Both databases.
 */
import type { Page } from "@playwright/test";
import { makeTestImage } from "#tests/factories/news.ts";
import { startS3Server } from "#tests/storage/s3-server.ts";
import { createNewsThroughApi, expect, mediaKeysOf, openPage, siteQuery, signInAsAdmin, t, test } from "./support/fixtures.ts";

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const submitEdit = (page: Page) => page.getByRole("button", { name: t.newsForm.submitEdit, exact: true });

test.afterEach(async ({ page }) => {
  await page.goto("about:blank");
});

test("S3 fora do ar: o formulário diz qual armazenamento, salva a correção do título e despublica; com arquivo novo, recusa e mantém o texto", async ({
  launchSite,
  page,
}) => {
  test.slow();
  const s3 = await startS3Server(["midia-queda-e2e"]);
  let stopped = false;
  try {
    const site = await launchSite({ env: s3.env("midia-queda-e2e") });
    await signInAsAdmin(page, site);
    const id = await createNewsThroughApi(
      page.context(),
      site,
      { title: "Clássico no domingo" },
      { name: "foto.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(800, 450) },
    );
    const [key] = await mediaKeysOf(site, id);
    const story = async () => (await siteQuery<{ title: string; status: string }>(site, "SELECT title, status FROM news WHERE id = ?", id))[0];

    await s3.stop();
    stopped = true;
    // A request for the story's picture finds the bucket gone: from then on the store reports not connected.
    expect((await page.request.get(`${site.url}/media/${key}`)).status()).toBe(503);

    await openPage(page, site, `/edit-news/${id}`);
    await expect(page.getByText(t.storage.down.notice("S3"), { exact: true })).toBeVisible();
    await expect(page.getByText(t.newsForm.driveRequired)).toHaveCount(0);

    // A new file: stopped in the browser with the store's message; nothing sent, the typed title stays.
    await field(page, "Título").fill("Clássico no domingo, com foto nova");
    await page
      .locator('input[type="file"][name="media"]')
      .setInputFiles({ name: "nova.jpg", mimeType: "image/jpeg", buffer: await makeTestImage(640, 360) });
    await field(page, t.newsForm.mediaDescription).fill("Foto nova");
    await submitEdit(page).click();
    await expect(page.getByText(t.storage.down.newsFile("S3"), { exact: true })).toBeVisible();
    await expect(field(page, "Título")).toHaveValue("Clássico no domingo, com foto nova");
    expect((await story())?.title).toBe("Clássico no domingo");

    // Text only: the correction is saved.
    await openPage(page, site, `/edit-news/${id}`);
    await field(page, "Título").fill("Clássico no domingo (corrigido)");
    await submitEdit(page).click();
    await expect(page.getByTestId("banner-success")).toBeVisible();
    await expect.poll(async () => (await story())?.title).toBe("Clássico no domingo (corrigido)");

    // The takedown goes through too.
    await openPage(page, site, `/edit-news/${id}`);
    await page.getByRole("button", { name: t.newsForm.unpublish, exact: true }).click();
    await page.getByRole("alertdialog", { name: t.newsForm.unpublishTitle }).getByRole("button", { name: t.newsForm.unpublishConfirm }).click();
    await expect(page.getByTestId("banner-success")).toHaveText(t.newsForm.unpublished);
    expect((await story())?.status).toBe("draft");
  } finally {
    if (!stopped) await s3.stop();
  }
});
