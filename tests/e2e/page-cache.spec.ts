/**
 * The page cache on the real server: anonymous readers get public pages from memory (ETag, 304, brotli), signed-in
 * admins never do, and a change made through the newsroom is on the next anonymous request.
 */
import { createNews } from "#tests/factories/news.ts";
import { createNewsThroughApi, expect, signInAsAdmin, test } from "./support/fixtures.ts";

test("leitores anônimos recebem a página da memória; administradores, sempre a página nova", async ({ launchSite, browser, playwright }) => {
  let articleId = "";
  const site = await launchSite({
    env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
    async setup(services) {
      articleId = await createNews(services, { title: "Goleada no clássico de domingo", media: null });
    },
  });
  const reader = await playwright.request.newContext();
  try {
    const first = await reader.get(`${site.url}/article/${articleId}`, { headers: { "Accept-Encoding": "br" } });
    expect(first.status()).toBe(200);
    expect(first.headers()["x-page-cache"]).toBe("miss");
    expect(await first.text()).toContain("Goleada no clássico de domingo");
    const second = await reader.get(`${site.url}/article/${articleId}?utm_source=whatsapp`, { headers: { "Accept-Encoding": "br" } });
    expect(second.headers()).toMatchObject({ "x-page-cache": "hit", "content-encoding": "br", etag: first.headers().etag });
    const notModified = await reader.get(`${site.url}/article/${articleId}`, { headers: { "If-None-Match": first.headers().etag! } });
    expect(notModified.status()).toBe(304);

    // An admin (session cookie) gets the page rendered for them: with the admin-only "Editar".
    const admin = await browser.newContext();
    await signInAsAdmin(admin, site);
    const adminPage = await admin.request.get(`${site.url}/article/${articleId}`);
    expect(adminPage.headers()["x-page-cache"]).toBeUndefined();
    expect(adminPage.headers()["cache-control"]).toMatch(/private/);
    expect(await adminPage.text()).toContain(">Editar<");
    expect(await (await reader.get(`${site.url}/article/${articleId}`)).text()).not.toContain(">Editar<");

    // A change through the newsroom (newsUpdated): the very next anonymous request shows it.
    // First the home must be held. The admin account above was written by this test process, another connection to
    // the SQLite file: the server hears of it within a second (data_version, a resync) and re-renders its pages, so
    // a request right then can be a miss. Asked until the cache answers.
    await expect.poll(async () => (await reader.get(`${site.url}/`)).headers()["x-page-cache"]).toBe("hit");
    await createNewsThroughApi(admin, site, { title: "Virada histórica nos acréscimos" });
    // The very next reader gets the new home: rendered for them ("miss"), the re-render ahead of readers waited for,
    // or that re-render already stored ("hit", when it finished first). Never the copy from before the change.
    const after = await reader.get(`${site.url}/`);
    expect(await after.text()).toContain("Virada histórica nos acréscimos");
    await admin.close();
  } finally {
    await reader.dispose();
  }
});

test("PAGE_CACHE=0 desliga o cache", async ({ launchSite, playwright }) => {
  const site = await launchSite({ env: { PAGE_CACHE: "0" } });
  const reader = await playwright.request.newContext();
  await reader.get(`${site.url}/`);
  expect((await reader.get(`${site.url}/`)).headers()["x-page-cache"]).toBeUndefined();
  await reader.dispose();
});
