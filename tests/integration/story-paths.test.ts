/**
 * The addresses a change to a story sends with its `newsUpdated` event (what the page cache removes at once, on
 * every instance): the old and the new ones. Real services on SQLite and on PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { SiteEventDetail } from "#app/.server/events/event-bus.ts";
import { startNewsScheduler } from "#app/.server/news/publishing/news-scheduler.server.ts";
import { storyPaths } from "#app/.server/news/story-paths.server.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-story-paths-");
const input = (fields: Record<string, unknown>) => newsInputSchema.parse({ subtitle: "Subtítulo", ...fields });

describe("the paths of a story's newsUpdated event", () => {
  it("create, correct the title, category and author, unpublish, delete: each event names the old and new addresses", async () => {
    const services = await open();
    const details: SiteEventDetail[] = [];
    services.events.subscribe((event, detail) => {
      if (event === "newsUpdated") details.push(detail);
    });
    const { id } = await services.newsEditor.createNews(
      input({ title: "Final da Copa", category: "Vôlei", author: "Ana Repórter" }),
      null,
      testsActor,
    );
    expect(details.at(-1)?.paths?.sort()).toEqual(
      [`/article/${id}`, `/article/${id}/final-da-copa`, "/autor/ana-reporter", "/categoria/volei"].sort(),
    );

    await services.newsEditor.patchNews(id, { title: "Final da Copa corrigida", category: "Futebol", author: "Bia" }, null, testsActor);
    expect(details.at(-1)?.paths?.sort()).toEqual(
      [
        `/article/${id}`,
        `/article/${id}/final-da-copa`,
        `/article/${id}/final-da-copa-corrigida`,
        "/autor/ana-reporter",
        "/autor/bia",
        "/categoria/futebol",
        "/categoria/volei",
      ].sort(),
    );

    await services.newsEditor.patchNews(id, { status: "draft" }, null, testsActor);
    expect(details.at(-1)?.paths).toContain(`/article/${id}/final-da-copa-corrigida`);

    await services.newsEditor.setHighlight(id, true);
    expect(details.at(-1)?.paths).toEqual([`/article/${id}`]);

    // A deleted story's own pages and its category's and author's go at once (the row is read before the delete).
    await services.newsEditor.deleteNews(id, testsActor);
    expect(details.at(-1)?.paths?.sort()).toEqual(
      [`/article/${id}`, `/article/${id}/final-da-copa-corrigida`, "/autor/bia", "/categoria/futebol"].sort(),
    );
  });

  it("the scheduler names the articles it put live", async () => {
    const services = await open();
    let clock = new Date();
    const { id } = await services.newsEditor.createNews(
      input({ title: "Agendada", status: "scheduled", publishAt: new Date(clock.getTime() + 60_000).toISOString() }),
      null,
      testsActor,
    );
    const details: SiteEventDetail[] = [];
    services.events.subscribe((event, detail) => {
      if (event === "newsUpdated") details.push(detail);
    });
    clock = new Date(clock.getTime() + 120_000);
    const scheduler = startNewsScheduler({ db: services.database.db, events: services.events, log: services.log, clock: () => clock });
    try {
      await expect.poll(() => details.some((detail) => detail.paths?.includes(`/article/${id}`))).toBe(true);
    } finally {
      scheduler.stop();
    }
  });

  it("storyPaths: one of each, an id that needs encoding encoded", () => {
    expect(storyPaths({ id: "a b", title: "Gol!" }, { id: "a b", title: "Gol!" }, null)).toEqual(["/article/a%20b", "/article/a%20b/gol"]);
  });
});
