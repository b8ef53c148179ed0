/** Every kind of answer carries the security headers: pages (cached or not), sign-in, API, media, assets, events. */
import { createNews } from "../factories/news.ts";
import { expect, test } from "./support/fixtures.ts";

const EXPECTED = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "content-security-policy": "frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
};

test("cabeçalhos de segurança em todo tipo de resposta; o site não pode ser emoldurado por outro", async ({ launchSite, playwright }) => {
  let articleId = "";
  const site = await launchSite({
    env: { PAGE_CACHE: "1" },
    async setup(services) {
      articleId = await createNews(services, { title: "Com imagem" });
    },
  });
  const request = await playwright.request.newContext();
  try {
    const home = await (await request.get(`${site.url}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(home)![0];
    const media = /\/media\/[^" ]+\.webp/.exec(await (await request.get(`${site.url}/article/${articleId}`)).text())![0];
    const paths = ["/", "/", `/article/${articleId}`, "/news-list.data", "/userLicence", "/admin/login", "/add-news", "/api/news", "/nao-existe", asset, media];
    for (const path of paths) {
      const response = await request.get(site.url + path, { maxRedirects: 0 });
      const headers = response.headers();
      expect(headers, `${path} (${response.status()})`).toMatchObject(EXPECTED);
      expect(headers["permissions-policy"], path).toContain("camera=()");
      expect(headers["strict-transport-security"], path).toBeUndefined(); // plain http here
    }
    // The page cache's answers too (the second request of the home is a hit).
    expect((await request.get(`${site.url}/`)).headers()["x-page-cache"]).toBe("hit");
    // The reset link's page adds its stricter Referrer-Policy (the token is in its URL): browsers apply the last
    // policy they recognise in the header (Referrer Policy §8.1), here no-referrer.
    expect((await request.get(`${site.url}/admin/reset-password?token=x`)).headers()["referrer-policy"]).toMatch(/(^|[,\n] *)no-referrer$/);
  } finally {
    await request.dispose();
  }
});
