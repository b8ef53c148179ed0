/**
 * What readers see after the newsroom changes a story, with the page cache on (decision record 003): a story taken
 * down (deleted, or back to draft) is gone for the very next reader, its cached copy and ETag included; a corrected
 * title moves the old address (the one shared and indexed) to the new one at once; the first reader after a publish
 * gets the new home. Each reader is a real browser; SQLite and PostgreSQL.
 */
import { createNews } from "#tests/factories/news.ts";
import { apiHeaders, createNewsThroughApi, expect, expectStatus, signInAsAdmin, t, test } from "./support/fixtures.ts";

test.describe("o cache de páginas depois de uma mudança", () => {
  for (const takedown of ["DELETE", "PATCH rascunho"] as const) {
    test(`notícia retirada (${takedown}): o próximo leitor recebe 404, nunca a cópia guardada`, async ({ launchSite, browser, page, playwright }) => {
      let id = "";
      const site = await launchSite({
        env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
        async setup(services) {
          id = await createNews(services, { title: "Denúncia que o tribunal mandou retirar", media: null });
        },
      });
      const articleUrl = `${site.url}/article/${id}/denuncia-que-o-tribunal-mandou-retirar`;
      // Read by readers: cached, with its ETag.
      expect((await page.goto(articleUrl))?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Denúncia que o tribunal mandou retirar" })).toBeVisible();
      const reader = await playwright.request.newContext();
      const cached = await reader.get(articleUrl);
      expect(cached.headers()["x-page-cache"]).toBe("hit");
      const etag = cached.headers().etag!;

      const admin = await browser.newContext();
      await signInAsAdmin(admin, site);
      const change =
        takedown === "DELETE"
          ? await admin.request.delete(`${site.url}/api/news/${id}`, { headers: apiHeaders(site) })
          : await admin.request.patch(`${site.url}/api/news/${id}`, { data: { status: "draft" }, headers: apiHeaders(site) });
      await expectStatus(change, takedown === "DELETE" ? 204 : 200, takedown);

      // At once: no stale copy, and the old ETag does not bring it back.
      const gone = await page.goto(articleUrl);
      expect(gone?.status()).toBe(404);
      await expect(page.getByText(t.article.notFound).first()).toBeVisible();
      await expect(page.getByText("Denúncia que o tribunal mandou retirar")).toHaveCount(0);
      const revalidated = await reader.get(articleUrl, { headers: { "If-None-Match": etag } });
      expect(revalidated.status()).toBe(404);
      expect((await reader.get(`${site.url}/article/${id}`)).status()).toBe(404);
      await admin.close();
      await reader.dispose();
    });
  }

  test("título corrigido: o endereço antigo leva ao novo na hora (301), com o texto corrigido", async ({ launchSite, browser, page, playwright }) => {
    let id = "";
    const site = await launchSite({
      env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        id = await createNews(services, { title: "Técnico Joao Silva é demitido", media: null });
      },
    });
    const oldUrl = `${site.url}/article/${id}/tecnico-joao-silva-e-demitido`;
    const reader = await playwright.request.newContext();
    await reader.get(oldUrl);
    expect((await reader.get(oldUrl)).headers()["x-page-cache"]).toBe("hit");

    const admin = await browser.newContext();
    await signInAsAdmin(admin, site);
    const patched = await admin.request.patch(`${site.url}/api/news/${id}`, {
      data: { title: "Técnico João Souza é demitido" },
      headers: apiHeaders(site),
    });
    await expectStatus(patched, 200, "PATCH title");

    const moved = await reader.get(oldUrl, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`/article/${id}/tecnico-joao-souza-e-demitido`);
    const response = await page.goto(oldUrl);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${site.url}/article/${id}/tecnico-joao-souza-e-demitido`);
    await expect(page.getByRole("heading", { name: "Técnico João Souza é demitido" })).toBeVisible();
    await admin.close();
    await reader.dispose();
  });

  test("o primeiro leitor depois de uma publicação já vê a notícia na home e no feed; query inventada e cookie forjado não furam o cache", async ({
    launchSite,
    browser,
    page,
    playwright,
  }) => {
    const site = await launchSite({
      env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        await createNews(services, { title: "Notícia de ontem", media: null });
      },
    });
    const reader = await playwright.request.newContext();
    for (const path of ["/", "/rss.xml"]) {
      await reader.get(`${site.url}${path}`);
      expect((await reader.get(`${site.url}${path}`)).headers()["x-page-cache"], path).toBe("hit");
    }
    // A made-up query string and a forged session cookie (not signed by this site) get the same stored page.
    const forged = `eef.session_token=${encodeURIComponent(`forjado.${Buffer.alloc(32, 1).toString("base64")}`)}`;
    for (const [path, headers] of [
      [`/?${Math.random()}=1`, {}],
      ["/", { Cookie: forged }],
    ] as const) {
      expect((await reader.get(`${site.url}${path}`, { headers })).headers()["x-page-cache"], path).toBe("hit");
    }
    const admin = await browser.newContext();
    await signInAsAdmin(admin, site);
    await createNewsThroughApi(admin, site, { title: "Gol no último minuto decide a final" });
    // The very first request after the publish, no waiting and no retry.
    const first = await page.goto(`${site.url}/`);
    expect(first?.headers()["x-page-cache"]).not.toBe("stale");
    await expect(page.getByText("Gol no último minuto decide a final").first()).toBeVisible();
    // The feed too (cached like the pages).
    const feed = await reader.get(`${site.url}/rss.xml`);
    expect(feed.headers()["x-page-cache"]).not.toBe("stale");
    expect(await feed.text()).toContain("Gol no último minuto decide a final");
    await admin.close();
    await reader.dispose();
  });
});
