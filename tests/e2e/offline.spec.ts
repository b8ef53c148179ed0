/**
 * A reader whose connection drops (issue 36): following a link while offline says "Sem conexão" and how to go on,
 * never the generic "Algo deu errado"; once the connection is back, "Tentar de novo" opens the page.
 */
import { CHECK_SAVED_MESSAGE, OFFLINE_CACHES, OFFLINE_PAGE, READ_LATER_PAGE, SERVICE_WORKER_PATH } from "#app/lib/offline-copies.ts";
import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { expect, expectNoSeriousViolations, openPage, signInAsAdmin, t, test, waitForHydration, withSiteServices } from "./support/fixtures.ts";

test("sem conexão, um card de 'Leia também' leva a 'Sem conexão' com 'Tentar de novo', não a 'Algo deu errado'; de volta, abre a notícia", async ({
  standardSite,
  page,
  context,
}) => {
  await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
  const related = page.getByRole("region", { name: t.article.readAlso });
  const card = related.getByRole("link").first();
  const href = await card.getAttribute("href");
  expect(href).toMatch(/^\/article\//);
  const title = (await card.textContent())?.trim() ?? "";

  await context.setOffline(true);
  await card.click();
  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { name: t.errors.offlineTitle })).toBeVisible();
  await expect(alert).toContainText(t.errors.offlineText);
  await expect(page.getByText(t.errors.genericTitle)).toHaveCount(0);
  // No picture that could not be loaded either.
  await expect(alert.locator("img")).toHaveCount(0);
  // No service worker here (the browser tests block it): no link to a page nothing could answer offline.
  await expect(alert.getByRole("link", { name: t.offline.savedTitle })).toHaveCount(0);
  const retry = alert.getByRole("link", { name: t.errors.retry });
  await expect(retry).toHaveAttribute("href", href!);

  await context.setOffline(false);
  await retry.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(title.slice(0, 20));
});

/** The paths the service worker keeps in one of its caches (Cache Storage, read from the page). */
function cachedPaths(page: Page, cacheName: string): Promise<string[]> {
  return page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname), cacheName);
}

test.describe("service worker: leitura sem conexão", () => {
  test.use({ serviceWorkers: "allow" });

  test("as notícias abertas ficam no aparelho e abrem sem internet; o que não foi salvo leva a 'Sem conexão' com a lista; retiradas e correções chegam na próxima visita", async ({
    page,
    context,
    launchSite,
  }) => {
    const ids = { first: "", second: "", third: "", never: "" };
    const site = await launchSite({
      async setup(services) {
        ids.first = await createNews(services, { title: "Primeira lida no celular", media: "image" });
        ids.second = await createNews(services, { title: "Segunda lida no celular", media: null });
        ids.third = await createNews(services, { title: "Terceira, aberta pela capa", media: null });
        ids.never = await createNews(services, { title: "Nunca aberta", media: null });
      },
    });
    const savedKeys = () => cachedPaths(page, OFFLINE_CACHES.articles);

    // First visit: the worker installs after the page, then keeps the article that is open.
    await openPage(page, site, `/article/${ids.first}`);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
    await expect.poll(savedKeys, { timeout: 15_000 }).toContain(`/article/${ids.first}`);
    const picture = page.locator("article img").first();
    await expect(picture).toBeVisible();
    await openPage(page, site, `/article/${ids.second}`);
    await expect.poll(savedKeys).toContain(`/article/${ids.second}`);
    // A third, opened from the home inside the site: the navigation fetches its data; its page is kept for later.
    await openPage(page, site, "/");
    await page.getByRole("link", { name: "Terceira, aberta pela capa" }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terceira, aberta pela capa");
    await expect.poll(savedKeys, { timeout: 15_000 }).toContain(`/article/${ids.third}`);

    await context.setOffline(true);
    // A saved article opens as a page of its own, with its picture.
    await page.goto(`${site.url}/article/${ids.first}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Primeira lida no celular");
    await expect(page.locator("article img").first()).toHaveJSProperty("complete", true);
    expect(
      await page
        .locator("article img")
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);

    // Inside the site, a story never opened: "Sem conexão" in place, with the way to what this phone keeps.
    await page.getByRole("region", { name: t.article.readAlso }).getByRole("link", { name: "Nunca aberta" }).first().click();
    const inPlace = page.getByRole("alert");
    await expect(inPlace.getByRole("heading", { name: t.errors.offlineTitle })).toBeVisible();
    await inPlace.getByRole("link", { name: t.offline.savedTitle }).click();
    await expect(page).toHaveURL(new RegExp(`${OFFLINE_PAGE}\\?`));
    await expect(page.getByRole("region", { name: t.offline.savedTitle }).getByRole("list").getByRole("link")).toHaveCount(3);

    // A page that was never opened, asked for outright: "Sem conexão", the way back to it, and what can be read.
    await page.goto(`${site.url}/article/${ids.never}`);
    await expect(page).toHaveURL(new RegExp(`${OFFLINE_PAGE}\\?`));
    await expect(page.getByRole("alert").getByRole("heading", { name: t.offline.title })).toBeVisible();
    await expect(page.getByText(t.errors.genericTitle)).toHaveCount(0);
    await expect(page.getByRole("alert").getByRole("link", { name: t.errors.retry })).toHaveAttribute("href", `/article/${ids.never}`);
    const saved = page.getByRole("region", { name: t.offline.savedTitle });
    await expect(saved.getByRole("list").getByRole("link")).toHaveText([
      "Terceira, aberta pela capa",
      "Segunda lida no celular",
      "Primeira lida no celular",
    ]);
    await expect(saved.getByRole("link", { name: t.readLater.pageTitle })).toHaveAttribute("href", READ_LATER_PAGE);
    await expectNoSeriousViolations(page, "sem conexão, com as notícias salvas");
    await saved.getByRole("link", { name: "Terceira, aberta pela capa" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terceira, aberta pela capa");
    await page.goBack();
    await saved.getByRole("link", { name: "Segunda lida no celular" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Segunda lida no celular");

    // Meanwhile the desk takes the first story down and corrects the second.
    await withSiteServices(site, async ({ database: { db } }) => {
      await db.updateTable("news").set({ status: "draft" }).where("id", "=", ids.first).execute();
      const corrected = { title: "Segunda, corrigida", updated_at: new Date(Date.now() + 60_000).toISOString() };
      await db.updateTable("news").set(corrected).where("id", "=", ids.second).execute();
    });

    // Back online: on the next visit the worker asks what changed.
    await context.setOffline(false);
    await openPage(page, site, "/");
    await page.evaluate((type) => navigator.serviceWorker.controller?.postMessage({ type }), CHECK_SAVED_MESSAGE);
    await expect.poll(savedKeys, { timeout: 15_000 }).not.toContain(`/article/${ids.first}`);
    const savedTitle = (path: string) =>
      page.evaluate(async ([name, url]) => (await (await (await caches.open(name)).match(url))?.text())?.match(/<h1[^>]*>([^<]*)</)?.[1] ?? null, [
        OFFLINE_CACHES.articles,
        `${site.url}${path}`,
      ] as const);
    await expect.poll(() => savedTitle(`/article/${ids.second}`), { timeout: 15_000 }).toBe("Segunda, corrigida");
    await context.setOffline(true);
    await page.goto(`${site.url}/article/${ids.second}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Segunda, corrigida");
    await page.goto(`${site.url}/article/${ids.first}`);
    await expect(page).toHaveURL(new RegExp(`${OFFLINE_PAGE}\\?`));
  });

  test("instalável: o Chromium não vê impedimento (manifesto, ícones, service worker que responde offline)", async ({ page, standardSite }) => {
    await openPage(page, standardSite, "/");
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);
  });

  test("nada de quem está conectado à redação fica no aparelho, e /sw.js é revalidado a cada visita", async ({ page, standardSite }) => {
    const worker = await page.request.get(`${standardSite.url}${SERVICE_WORKER_PATH}`);
    expect(worker.status()).toBe(200);
    expect(worker.headers()["cache-control"]).toBe("no-cache");
    await signInAsAdmin(page, standardSite);
    await openPage(page, standardSite, `/article/${standardSite.ids.dated}`);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
    await page.reload();
    await waitForHydration(page);
    const keys = await page.evaluate(async (names) => {
      const all: string[] = [];
      for (const name of names) all.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
      return all;
    }, Object.values(OFFLINE_CACHES));
    expect(keys.filter((url) => !url.includes("/media/"))).toEqual([]);
    // The shell is everyone's: its pages were fetched without the member's session (no newsroom menu in them).
    const shellPages = await page.evaluate(
      async (paths) => {
        // Workbox keys a revisioned entry with its revision in the query.
        const found: Array<string | null> = paths.map(() => null);
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            const at = paths.indexOf(new URL(request.url).pathname);
            if (at >= 0) found[at] = (await (await cache.match(request))?.text()) ?? null;
          }
        }
        return found;
      },
      [OFFLINE_PAGE, READ_LATER_PAGE],
    );
    for (const html of shellPages) {
      expect(html).toContain("<html");
      expect(html).not.toContain(t.admin.menu);
    }
  });
});

test.describe("Ler depois", () => {
  test.use({ serviceWorkers: "allow" });

  test("marcar no artigo guarda no aparelho; a lista abre sem internet e a notícia marcada também, mesmo fora das últimas abertas; remover tira", async ({
    page,
    context,
    launchSite,
  }) => {
    const ids = { kept: "", other: "" };
    const site = await launchSite({
      async setup(services) {
        ids.kept = await createNews(services, { title: "Para ler no ônibus", media: null });
        ids.other = await createNews(services, { title: "Outra notícia", media: null });
      },
    });
    const forLaterKeys = () => cachedPaths(page, OFFLINE_CACHES.readLater);

    await openPage(page, site, `/article/${ids.kept}`);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
    const mark = page.getByRole("button", { name: t.readLater.save, exact: true });
    await expect(mark).toHaveAttribute("aria-pressed", "false");
    await mark.click();
    await expect(page.getByRole("button", { name: t.readLater.saved, exact: true })).toHaveAttribute("aria-pressed", "true");
    await expect.poll(forLaterKeys, { timeout: 15_000 }).toEqual([`/article/${ids.kept}`]);

    // From a card on the home: the same mark, named after its story.
    await openPage(page, site, "/");
    const onCard = page.getByRole("button", { name: t.readLater.saveStory("Outra notícia") });
    await expect(onCard).toHaveAttribute("aria-pressed", "false");
    await onCard.click();
    await expect(onCard).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("button", { name: t.readLater.saveStory("Para ler no ônibus") })).toHaveAttribute("aria-pressed", "true");

    // The list, from the footer's link, newest first.
    await page.getByRole("contentinfo").getByRole("link", { name: t.readLater.pageTitle }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.readLater.pageTitle })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link")).toHaveText(["Outra notícia", "Para ler no ônibus"]);
    await page.getByRole("button", { name: t.readLater.removeStory("Outra notícia") }).click();
    await expect(page.getByRole("main").getByRole("link")).toHaveText(["Para ler no ônibus"]);

    // Many stories opened since: the last opened ones no longer hold it (here: dropped outright). Offline, the list
    // and the story still open.
    await page.evaluate(
      async (names) => Promise.all(names.map((name) => caches.delete(name))),
      [OFFLINE_CACHES.articles, OFFLINE_CACHES.articleData],
    );
    await context.setOffline(true);
    await page.goto(`${site.url}${READ_LATER_PAGE}`);
    await expect(page.getByRole("main").getByRole("link", { name: "Para ler no ônibus" })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Para ler no ônibus" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Para ler no ônibus");
    // Not marked, not among the last opened: "Sem conexão".
    await page.goto(`${site.url}/article/${ids.other}`);
    await expect(page).toHaveURL(new RegExp(`${OFFLINE_PAGE}\\?`));

    // Removed from the list: gone from the phone too.
    await context.setOffline(false);
    await openPage(page, site, READ_LATER_PAGE);
    await expectNoSeriousViolations(page, "Ler depois");
    await page.getByRole("button", { name: t.readLater.removeStory("Para ler no ônibus") }).click();
    await expect(page.getByText(t.readLater.empty)).toBeVisible();
    await expect.poll(forLaterKeys, { timeout: 15_000 }).toEqual([]);
  });
});
