import { refusal } from "#tests/factories/refusal.ts";
import { describe, expect, it } from "vitest";
import { setStoryMediaFocus } from "#app/.server/media/media-focus.server.ts";
import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { memberActor } from "#app/.server/auth/permissions.server.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-media-focus-");

const focusOf = (services: TestServices, id: string) => services.news.getNews(id).then((article) => article.media?.focus ?? null);

/** The events sent while `work` runs. */
async function eventsDuring(services: TestServices, work: () => Promise<unknown>) {
  const seen: Array<[SiteEvent, SiteEventDetail]> = [];
  const stop = services.events.subscribe((event, detail) => seen.push([event, detail]));
  try {
    await work();
  } finally {
    stop();
  }
  return seen;
}

describe("the focus point of a story's image", () => {
  it("is stored with the image, read back on the article, and back to the centre with null; the story's pages are told", async () => {
    const services = await open();
    const id = await createNews(services, { title: "Goleiro defende pênalti" });
    expect(await focusOf(services, id)).toBeNull();
    const target = { db: services.database.db, events: services.events };
    const events = await eventsDuring(services, () => setStoryMediaFocus(target, id, { x: 20, y: 35 }, testsActor));
    expect(await focusOf(services, id)).toEqual({ x: 20, y: 35 });
    expect(events).toHaveLength(1);
    expect(events[0]![0]).toBe("newsUpdated");
    expect(events[0]![1].paths).toContain(`/article/${id}`);
    await setStoryMediaFocus(target, id, null, testsActor);
    expect(await focusOf(services, id)).toBeNull();
  });

  it("a reporter sets it only on their own draft; a story without an image or unknown is refused, nothing stored", async () => {
    const services = await open();
    const target = { db: services.database.db, events: services.events };
    const published = await createNews(services);
    const reporter = { userId: "reporter-1", role: "reporter" as const };
    expect(await refusal(() => setStoryMediaFocus(target, published, { x: 10, y: 10 }, memberActor(reporter)))).toEqual({
      code: "story_not_yours",
      status: 403,
    });
    await services.database.db.updateTable("news").set({ owner_id: "reporter-1", status: "draft" }).where("id", "=", published).execute();
    await setStoryMediaFocus(target, published, { x: 10, y: 90 }, memberActor(reporter));
    expect((await services.news.getNews(published, { includeUnpublished: true })).media?.focus).toEqual({ x: 10, y: 90 });

    const video = await createNews(services, { media: "video" });
    expect(await refusal(() => setStoryMediaFocus(target, video, { x: 1, y: 1 }, testsActor))).toEqual({ code: "media_not_image", status: 409 });
    const none = await createNews(services, { media: null });
    expect(await refusal(() => setStoryMediaFocus(target, none, { x: 1, y: 1 }, testsActor))).toEqual({ code: "media_not_image", status: 409 });
    expect(await refusal(() => setStoryMediaFocus(target, "nao-existe", { x: 1, y: 1 }, testsActor))).toEqual({
      code: "news_not_found",
      status: 404,
    });
  });
});
