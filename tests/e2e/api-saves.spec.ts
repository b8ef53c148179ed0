/** The JSON API's update semantics over HTTP: PATCH changes only what is sent, PUT replaces, gone is 404. */
import { createNews } from "#tests/factories/news.ts";
import { expect, siteQuery, signInAsAdmin, t, test } from "./support/fixtures.ts";

test("PATCH muda só o que veio; PUT substitui; item inexistente é 404; tipo errado é 400", async ({ launchSite, browser }) => {
  let id = "";
  const site = await launchSite({
    env: { LOGIN_RATE_LIMIT: "1000" },
    async setup(services) {
      id = await createNews(services, {
        title: "Antes",
        fullContent: "Texto que fica",
        category: "Vôlei",
        author: "Ana",
        isHighlighted: true,
        media: null,
      });
    },
  });
  const admin = await browser.newContext();
  await signInAsAdmin(admin, site);
  const headers = { Origin: site.url };
  const read = async () =>
    (
      await siteQuery<Record<string, unknown>>(
        site,
        "SELECT title, subtitle, full_content, category, author, is_highlighted FROM news WHERE id = ?",
        id,
      )
    )[0];

  const patched = await admin.request.patch(`${site.url}/api/news/${id}`, { data: { title: "Depois", subtitle: "Novo sub" }, headers });
  expect(patched.status()).toBe(200);
  expect(await read()).toMatchObject({ title: "Depois", subtitle: "Novo sub", full_content: "Texto que fica", category: "Vôlei", author: "Ana" });
  expect(Number((await read())!.is_highlighted)).toBe(1);

  const replaced = await admin.request.put(`${site.url}/api/news/${id}`, { data: { title: "Inteira", subtitle: "Sub inteiro" }, headers });
  expect(replaced.status()).toBe(200);
  expect(await read()).toMatchObject({ title: "Inteira", full_content: "Sub inteiro", category: t.news.defaultCategory });

  const missing = await admin.request.patch(`${site.url}/api/news/nao-existe`, { data: { title: "X" }, headers });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: "news_not_found", message: t.news.notFound } });

  const wrongType = await admin.request.patch(`${site.url}/api/news/${id}`, { data: { title: { $gt: "" } }, headers });
  expect(wrongType.status()).toBe(400);
  expect(((await wrongType.json()) as { error: { message: string } }).error.message).toBe(t.api.fieldType("title"));
  expect((await read())!.title).toBe("Inteira");
  await admin.close();
});
