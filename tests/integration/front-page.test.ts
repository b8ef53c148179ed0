import { describe, expect, it } from "vitest";
import type { SiteEvent } from "#app/.server/events/event-bus.ts";
import { frontPageChoices, pickForFrontPage, releaseFrontPage } from "#app/.server/news/desk/front-page.server.ts";
import { findFrontPage } from "#app/.server/news/news.service.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-front-page-");
const HOUR = 3_600_000;
const NOW = new Date();
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * HOUR);

/** Five stories an hour apart (newest last), none highlighted, none live. */
async function desk(services: TestServices) {
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) {
    ids.push(await createNews(services, { title: `Notícia ${index + 1}`, media: null, createdAt: hoursAgo(10 - index) }));
  }
  return ids;
}

const topOf = async (services: TestServices, now = NOW) => (await findFrontPage(services.database.db, now)).map((row) => row.id);
const deps = (services: TestServices) => ({ db: services.database.db, events: services.events, log: services.log });

describe("o topo da página inicial sem escolha de editor", () => {
  it("as três mais novas; a manchete vai para a notícia ao vivo, senão para a destacada nas últimas 24 h", async () => {
    const services = await open();
    const { db } = services.database;
    const ids = await desk(services);
    expect(await topOf(services)).toEqual([ids[4], ids[3], ids[2]]);

    // Highlighted long ago: not a lead any more. Highlighted today: leads.
    const old = await createNews(services, { title: "Destaque antigo", media: null, isHighlighted: true, createdAt: hoursAgo(30) });
    expect(await topOf(services)).toEqual([ids[4], ids[3], ids[2]]);
    await db.updateTable("news").set({ is_highlighted: 1 }).where("id", "=", ids[1]!).execute();
    expect(await topOf(services)).toEqual([ids[1], ids[4], ids[3]]);

    // A live match outranks the highlight, however old it is.
    await db.updateTable("news").set({ live_coverage: "live" }).where("id", "=", old).execute();
    expect(await topOf(services)).toEqual([old, ids[4], ids[3]]);
    // Ended: back to the highlight.
    await db.updateTable("news").set({ live_coverage: "ended" }).where("id", "=", old).execute();
    expect(await topOf(services)).toEqual([ids[1], ids[4], ids[3]]);
  });
});

describe("o topo escolhido em /capa", () => {
  it("uma escolha vale na sua posição pelo tempo pedido; trocar, mover, liberar; uma notícia fora do ar não conta", async () => {
    const services = await open();
    const ids = await desk(services);
    const heard: SiteEvent[] = [];
    services.events.subscribe((event) => heard.push(event));

    await pickForFrontPage(deps(services), { newsId: ids[0]!, position: 1, hold: "2h" }, null, NOW);
    expect(await topOf(services)).toEqual([ids[0], ids[4], ids[3]]);
    // Past its time the choice no longer holds.
    expect(await topOf(services, new Date(NOW.getTime() + 2 * HOUR + 1000))).toEqual([ids[4], ids[3], ids[2]]);

    // Another story in the 3rd place; the first moved to the 2nd (one place per story).
    await pickForFrontPage(deps(services), { newsId: ids[1]!, position: 3, hold: "sempre" }, null, NOW);
    await pickForFrontPage(deps(services), { newsId: ids[0]!, position: 2, hold: "6h" }, null, NOW);
    expect(await topOf(services)).toEqual([ids[4], ids[0], ids[1]]);
    const { picks } = await frontPageChoices(services.database.db, NOW);
    expect(picks.map((pick) => [pick.position, pick.newsId, pick.until === null])).toEqual([
      [2, ids[0], false],
      [3, ids[1], true],
    ]);

    // Taken off the air: its place goes back to the default order.
    await services.newsEditor.bulkAction("unpublish", [ids[1]!], testsActor);
    expect(await topOf(services)).toEqual([ids[4], ids[0], ids[3]]);

    await releaseFrontPage(deps(services), 2, null);
    expect(await topOf(services)).toEqual([ids[4], ids[3], ids[2]]);
    // Every change reached the site's events (page cache, CDN, the home's memo): 3 picks, the unpublish, 1 release.
    expect(heard.filter((event) => event === "newsUpdated")).toHaveLength(5);
    // The home itself follows.
    await pickForFrontPage(deps(services), { newsId: ids[2]!, position: 1, hold: "6h" }, null, NOW);
    expect((await services.news.getHome()).recent.map((story) => story.id)).toEqual([ids[2], ids[4], ids[3]]);
  });

  it("recusa posição e tempo fora das listas (400) e uma notícia que não está no ar (404), em português", async () => {
    const services = await open();
    const ids = await desk(services);
    await expect(pickForFrontPage(deps(services), { newsId: ids[0]!, position: 4, hold: "6h" }, null)).rejects.toMatchObject({
      status: 400,
      message: t.frontPage.invalidPosition,
    });
    await expect(pickForFrontPage(deps(services), { newsId: ids[0]!, position: 1, hold: "3 dias" }, null)).rejects.toMatchObject({
      status: 400,
      message: t.frontPage.invalidHold,
    });
    await services.newsEditor.bulkAction("unpublish", [ids[0]!], testsActor);
    await expect(pickForFrontPage(deps(services), { newsId: ids[0]!, position: 1, hold: "6h" }, null)).rejects.toMatchObject({
      status: 404,
      message: t.frontPage.notPublished,
    });
    expect((await frontPageChoices(services.database.db)).picks).toEqual([]);
  });
});
