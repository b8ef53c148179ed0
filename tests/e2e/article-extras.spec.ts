import type { Page } from "@playwright/test";
import { createNews } from "#tests/factories/news.ts";
import { apiHeaders, expect, expectStatus, openPage, signInAsAdmin, t, test } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

/**
 * The article's extras: the dates with their time of day ("Atualizado em …" after a later edit), the wording of the
 * date line for stories readers do not see yet, and "Leia também" (related stories, never the story itself nor one
 * twice, refreshed when a story changes even with the page cache on).
 */

const MINUTE = 60_000;
let site: RunningSite;
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  site = await startSite({
    // The related list must follow a change through the page cache's invalidation, as readers get it.
    env: { PAGE_CACHE: "1" },
    async setup(services) {
      const { db } = services.database;
      const at = (iso: string) => ({ createdAt: iso, media: null });
      // 25/11/2026 17:05 UTC is 14:05 in Brasília; edited 2 h later.
      ids.main = await createNews(services, {
        ...at("2026-11-25T17:05:00.000Z"),
        category: "Futebol",
        title: "Palmeiras vence o clássico no Allianz Parque",
        subtitle: "Goleada no clássico paulista",
      });
      // Its text corrected 2 h 25 min later: "Atualizado em".
      await db
        .updateTable("news")
        .set({ updated_at: "2026-11-25T19:30:00.000Z", text_updated_at: "2026-11-25T19:30:00.000Z" })
        .where("id", "=", ids.main)
        .execute();
      // Saved again a minute after going out, its text untouched (the highlight, say): no "Atualizado em".
      ids.sameCategoryA = await createNews(services, {
        ...at("2026-11-24T12:00:00.000Z"),
        category: "Futebol",
        title: "Corinthians treina para a final",
      });
      await db
        .updateTable("news")
        .set({ updated_at: new Date(Date.parse("2026-11-24T12:00:00.000Z") + MINUTE).toISOString() })
        .where("id", "=", ids.sameCategoryA)
        .execute();
      ids.sameCategoryB = await createNews(services, {
        ...at("2026-11-23T12:00:00.000Z"),
        category: "Futebol",
        title: "Santos anuncia novo técnico",
      });
      // Another category, sharing words with the main story's title.
      ids.otherWithWords = await createNews(services, {
        ...at("2026-11-22T12:00:00.000Z"),
        category: "Basquete",
        title: "Clássico do basquete no Allianz Parque lota a arena",
      });
      // Another category, nothing in common: never among the related.
      ids.unrelated = await createNews(services, {
        ...at("2026-11-21T12:00:00.000Z"),
        category: "Natação",
        title: "Recorde sul-americano nos 200 m",
      });
      // Same category and the same words, but a draft: never shown to readers.
      ids.draft = await createNews(services, { ...at("2026-11-20T12:00:00.000Z"), category: "Futebol", title: "Palmeiras clássico rascunho" });
      await db.updateTable("news").set({ status: "draft", updated_at: "2026-11-25T20:10:00.000Z" }).where("id", "=", ids.draft).execute();
      ids.review = await createNews(services, { ...at("2026-11-20T12:00:00.000Z"), category: "Vôlei", title: "Em revisão" });
      await db
        .updateTable("news")
        .set({ status: "draft", review_requested_at: "2026-11-25T20:20:00.000Z", updated_at: "2026-11-25T20:20:00.000Z" })
        .where("id", "=", ids.review)
        .execute();
      ids.scheduled = await createNews(services, { ...at("2026-11-20T12:00:00.000Z"), category: "Vôlei", title: "Agendada" });
      await db.updateTable("news").set({ status: "scheduled", published_at: "2036-12-01T13:00:00.000Z" }).where("id", "=", ids.scheduled).execute();
    },
  });
});
test.afterAll(async () => {
  await site?.stop();
});

const dateLines = (page: Page) => page.locator("article header").first().getByTestId("article-date");
const relatedIds = (page: Page) =>
  page
    .getByTestId("read-also")
    .getByTestId("news-card")
    .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-news-id") ?? ""));

test.describe("datas do artigo", () => {
  test("data com hora de Brasília e 'Atualizado em' quando editada depois", async ({ page }) => {
    await openPage(page, site, `/article/${ids.main}`);
    await expect(dateLines(page)).toHaveText([
      `${t.article.publishedOn} 25 de novembro de 2026, 14:05`,
      `${t.article.updatedOn} 25 de novembro de 2026, 16:30`,
    ]);
    const times = dateLines(page).locator("time");
    await expect(times.first()).toHaveAttribute("datetime", "2026-11-25T17:05:00.000Z");
    await expect(times.last()).toHaveAttribute("datetime", "2026-11-25T19:30:00.000Z");
  });

  test("salva de novo logo depois de publicada: sem 'Atualizado em'", async ({ page }) => {
    await openPage(page, site, `/article/${ids.sameCategoryA}`);
    await expect(dateLines(page)).toHaveText([`${t.article.publishedOn} 24 de novembro de 2026, 09:00`]);
  });

  test("rascunho, em revisão e agendada: a linha de data nunca diz 'Publicado em'", async ({ page }) => {
    await signInAsAdmin(page.context(), site);
    const cases = [
      [ids.draft, `${t.article.draftSavedOn} 25 de novembro de 2026, 17:10`],
      [ids.review, `${t.article.reviewSavedOn} 25 de novembro de 2026, 17:20`],
      [ids.scheduled, `${t.article.scheduledFor} 1 de dezembro de 2036, 10:00`],
    ] as const;
    for (const [id, line] of cases) {
      await openPage(page, site, `/article/${id}`);
      await expect(page.getByTestId("status-banner")).toBeVisible();
      await expect(dateLines(page)).toHaveText([line]);
      await expect(page.locator("article header").first()).not.toContainText(t.article.publishedOn);
    }
  });
});

test.describe("Leia também", () => {
  test("mesma categoria primeiro, depois palavras em comum; nunca a própria, repetidas ou rascunhos", async ({ page }) => {
    await openPage(page, site, `/article/${ids.main}`);
    await expect(page.getByRole("heading", { level: 2, name: t.article.readAlso })).toBeVisible();
    const shown = await relatedIds(page);
    expect(shown).toEqual([ids.sameCategoryA, ids.sameCategoryB, ids.otherWithWords]);
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown).not.toContain(ids.main);
    expect(shown).not.toContain(ids.draft);
    expect(shown).not.toContain(ids.unrelated);
    // The list's own cards: a link to the story and its time.
    const first = page.getByTestId("read-also").getByTestId("news-card").first();
    await expect(first.getByRole("link", { name: "Corinthians treina para a final" })).toHaveAttribute(
      "href",
      new RegExp(`/article/${ids.sameCategoryA}`),
    );
    await expect(first.locator("time")).toHaveText("24/11/2026");
  });

  test("uma notícia excluída sai da lista na hora, mesmo com o cache de páginas", async ({ page, browser }) => {
    await openPage(page, site, `/article/${ids.main}`);
    expect(await relatedIds(page)).toContain(ids.sameCategoryB);
    // Served from the cache now: the next reader gets the stored copy until a change.
    await expect.poll(async () => (await page.request.get(`${site.url}/article/${ids.main}`)).headers()["x-page-cache"]).toBe("hit");

    const newsroom = await browser.newContext();
    try {
      await signInAsAdmin(newsroom, site);
      const removed = await newsroom.request.delete(`${site.url}/api/news/${ids.sameCategoryB}`, { headers: apiHeaders(site) });
      await expectStatus(removed, 204, "DELETE /api/news/:id");
    } finally {
      await newsroom.close();
    }
    await openPage(page, site, `/article/${ids.main}`);
    const shown = await relatedIds(page);
    expect(shown).not.toContain(ids.sameCategoryB);
    expect(shown).toEqual([ids.sameCategoryA, ids.otherWithWords]);
  });
});
