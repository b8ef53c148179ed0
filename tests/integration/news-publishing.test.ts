import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createMemoryEventBus, type SiteEvent } from "../../app/.server/events/event-bus.ts";
import { toApiError } from "../../app/.server/http/api.server.ts";
import { NewsConflictError } from "../../app/.server/news/news-save.server.ts";
import { listNewsVersions } from "../../app/.server/news/news-revisions.server.ts";
import { startNewsScheduler } from "../../app/.server/news/news-scheduler.server.ts";
import { createSyndication } from "../../app/.server/syndication/syndication.server.ts";
import { t } from "../../app/i18n/newsroom.ts";
import { newsInputSchema } from "../../app/lib/news-schema.ts";
import { parsePublishAt, toLocalInputValue } from "../../app/lib/zoned-time.ts";
import { createAdmin } from "../factories/auth.ts";
import { createNews, makeTestImage } from "../factories/news.ts";
import { type TestServices, useTestServices } from "../factories/use-services.ts";

const open = useTestServices("eef-publishing-");
const input = (fields: Record<string, unknown>) => newsInputSchema.parse({ subtitle: "Subtítulo", ...fields });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function text(stream: Readable | null): Promise<string> {
  let out = "";
  for await (const chunk of stream ?? []) out += String(chunk);
  return out;
}

function syndicationOf(services: TestServices) {
  return createSyndication({
    db: services.database.db,
    store: services.store,
    site: { name: "Esporte em Foco", url: "https://esporte.example.com.br", description: "d", defaultAuthor: "Redação" },
  });
}

async function statusOf(services: TestServices, id: string) {
  return services.database.db.selectFrom("news").select(["status", "published_at", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
}

describe("drafts and scheduled news are invisible to readers", () => {
  it("a draft and a scheduled item appear in no reader listing, feed, sitemap or search; the newsroom sees them", async () => {
    const services = await open();
    const published = await createNews(services, { title: "Final publicada do vôlei", media: null });
    const draft = await services.newsEditor.createNews(input({ title: "Rascunho secreto do vôlei", status: "draft" }), null);
    const scheduled = await services.newsEditor.createNews(
      input({ title: "Agendada secreta do vôlei", status: "scheduled", publishAt: inAnHour() }),
      null,
    );
    expect(draft.status).toBe("draft");
    expect(scheduled.status).toBe("scheduled");

    const readerList = await services.news.listNewsPage({ limit: 50 });
    expect(readerList.items.map((item) => item.id)).toEqual([published]);
    const home = await services.news.getHome();
    // Shown once (no block repeats a story above it), and the draft's and scheduled item's categories are no section.
    expect([...home.recent, ...home.highlights, ...home.sections.flatMap((section) => section.items)].map((item) => item.id)).toEqual([published]);
    for (const id of [draft.id, scheduled.id]) {
      await expect(services.news.getNews(id)).rejects.toMatchObject({ status: 404, code: "news_not_found" });
      expect((await services.news.getNews(id, { includeUnpublished: true })).id).toBe(id);
    }
    expect((await services.search.search({ query: "volei" })).hits.map((hit) => hit.id)).toEqual([published]);

    const syndication = syndicationOf(services);
    const feed = await syndication.rss({ highlightedOnly: false });
    expect(feed).toContain("Final publicada do vôlei");
    expect(feed).not.toContain("secret");
    const sitemap = await text(await syndication.sitemapArticles(1));
    expect(sitemap).toContain(published);
    expect(sitemap).not.toContain(draft.id);
    expect(sitemap).not.toContain(scheduled.id);
    expect(await text(await syndication.sitemapNews())).not.toContain(draft.id);

    // The admin list: every status, or one.
    expect((await services.news.listNewsPage({ limit: 50, status: null })).items.map((item) => item.id).sort()).toEqual(
      [published, draft.id, scheduled.id].sort(),
    );
    expect((await services.news.listNewsPage({ limit: 50, status: "draft" })).items.map((item) => item.id)).toEqual([draft.id]);
    expect((await services.news.listNewsPage({ limit: 50, status: "scheduled" })).items.map((item) => item.id)).toEqual([scheduled.id]);
  });

  it("the publication date: a draft published gets 'now'; an edit of a published item keeps its date", async () => {
    const services = await open();
    const draft = await services.newsEditor.createNews(input({ title: "Rascunho", status: "draft" }), null);
    const before = Date.now();
    const published = await services.newsEditor.updateNews(draft.id, input({ title: "Publicada", status: "published" }), null);
    expect(published.status).toBe("published");
    expect(new Date(published.publishedAt).getTime()).toBeGreaterThanOrEqual(before - 1);
    const edited = await services.newsEditor.updateNews(draft.id, input({ title: "Editada" }), null);
    expect(edited).toMatchObject({ status: "published", publishedAt: published.publishedAt, version: 3 });
    expect((await services.news.getNews(draft.id)).publishedAt).toBe(published.publishedAt);
  });

  it("a schedule needs a time in the future", async () => {
    const services = await open();
    await expect(services.newsEditor.createNews(input({ title: "Sem hora", status: "scheduled" }), null)).rejects.toMatchObject({
      status: 400,
      code: "publish_at_required",
    });
    await expect(
      services.newsEditor.createNews(input({ title: "No passado", status: "scheduled", publishAt: "2020-01-01T10:00" }), null),
    ).rejects.toMatchObject({ status: 400, code: "publish_at_past", message: t.newsForm.publishAtPast });
    expect(newsInputSchema.safeParse({ title: "x", subtitle: "y", publishAt: "amanhã" }).success).toBe(false);
    expect(newsInputSchema.safeParse({ title: "x", subtitle: "y", status: "arquivada" }).success).toBe(false);
  });

  it("a schedule without a zone is on the site's clock", () => {
    expect(parsePublishAt("2026-11-25T10:00", "America/Sao_Paulo")?.toISOString()).toBe("2026-11-25T13:00:00.000Z");
    expect(parsePublishAt("2026-07-01T10:00", "Europe/Lisbon")?.toISOString()).toBe("2026-07-01T09:00:00.000Z");
    expect(parsePublishAt("2026-11-25T10:00:00-05:00", "America/Sao_Paulo")?.toISOString()).toBe("2026-11-25T15:00:00.000Z");
    expect(parsePublishAt("2026-02-31T10:00", "America/Sao_Paulo")).toBeNull();
    expect(toLocalInputValue("2026-11-25T13:00:00.000Z", "America/Sao_Paulo")).toBe("2026-11-25T10:00");
  });
});

describe("the scheduler", () => {
  it("publishes a due item once, whichever of several instances looks first, and only the one that did sends the event", async () => {
    const services = await open();
    const id = (await services.newsEditor.createNews(input({ title: "Agendada", status: "scheduled", publishAt: inAnHour() }), null)).id;
    const later = () => new Date(Date.now() + 2 * 3_600_000);
    const log = { info: () => {}, error: () => {} };
    const buses = [createMemoryEventBus(), createMemoryEventBus(), createMemoryEventBus()];
    const seen: SiteEvent[][] = buses.map(() => []);
    for (const [index, bus] of buses.entries()) bus.subscribe((event) => seen[index]!.push(event));
    // Each scheduler starts by publishing what is due; with the clock two hours ahead, the item is due.
    const schedulers = buses.map((events) => startNewsScheduler({ db: services.database.db, events, log, clock: later }));
    try {
      const results = await Promise.all(schedulers.map((scheduler) => scheduler.publishDue()));
      await new Promise((resolve) => setTimeout(resolve, 200));
      // (The schedulers' own first look may have published it already: then these find nothing.)
      expect(results.flat().length).toBeLessThanOrEqual(1);
      expect(await statusOf(services, id)).toMatchObject({ status: "published", version: 2 });
      expect(seen.flat().filter((event) => event === "newsUpdated")).toHaveLength(1);
      expect((await services.news.listNewsPage({ limit: 10 })).items.map((item) => item.id)).toEqual([id]);
    } finally {
      for (const scheduler of schedulers) scheduler.stop();
    }
  });

  it("goes live at its time by itself (a timer, no request), and the shown date is the scheduled one", async () => {
    const services = await open();
    const events: SiteEvent[] = [];
    services.events.subscribe((event) => events.push(event));
    // On PostgreSQL, events come back through LISTEN: wait until it listens.
    await (services.events as { listening?: () => Promise<void> }).listening?.();
    const scheduler = startNewsScheduler({ db: services.database.db, events: services.events, log: services.log });
    try {
      const publishAt = new Date(Date.now() + 1_500).toISOString();
      const { id } = await services.newsEditor.createNews(input({ title: "Em instantes", status: "scheduled", publishAt }), null);
      expect((await services.news.listNewsPage({ limit: 10 })).items).toEqual([]);
      const deadline = Date.now() + 10_000;
      while ((await statusOf(services, id)).status !== "published" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await statusOf(services, id)).toMatchObject({ status: "published", published_at: publishAt });
      expect((await services.news.getNews(id)).publishedAt).toBe(publishAt);
      // One event for the save, one for going live (on PostgreSQL they come back through LISTEN/NOTIFY, a moment later).
      await expect.poll(() => events.filter((event) => event === "newsUpdated").length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      scheduler.stop();
    }
  });
});

describe("no lost edits", () => {
  it("a save based on an older version is a 409 with a stable code and what is saved now; a deliberate overwrite works", async () => {
    const services = await open();
    const id = await createNews(services, { title: "Original", media: null });
    const loaded = await services.news.getNews(id);
    expect(loaded.version).toBe(1);
    // The first editor saves.
    await services.newsEditor.updateNews(id, input({ title: "Primeira edição", version: 1 }), null);
    // The second, from version 1 too, is refused.
    const error = await services.newsEditor.updateNews(id, input({ title: "Segunda edição", version: 1 }), null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NewsConflictError);
    const response = toApiError(error, new Request("http://localhost/api/news/x"), services.log);
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: { code: string; message: string; current: { title: string; version: number } } };
    expect(body.error).toMatchObject({
      code: "news_version_conflict",
      message: t.newsForm.conflict,
      current: { title: "Primeira edição", version: 2 },
    });
    expect((await services.news.getNews(id)).title).toBe("Primeira edição");
    // Overwriting on purpose names the version now saved.
    await services.newsEditor.updateNews(id, input({ title: "Segunda edição", version: body.error.current.version }), null);
    expect(await services.news.getNews(id)).toMatchObject({ title: "Segunda edição", version: 3 });
    // PATCH is checked the same way; without a version a save is not checked (older API clients).
    await expect(services.newsEditor.patchNews(id, { title: "Velha", version: 2 }, null)).rejects.toBeInstanceOf(NewsConflictError);
    await services.newsEditor.patchNews(id, { title: "Sem versão" }, null);
    expect(await services.news.getNews(id)).toMatchObject({ title: "Sem versão", version: 4 });
  });
});

describe("revisions", () => {
  it("every save keeps the version it replaces (texts, media, who, when); a restore is a new version", async () => {
    const services = await open();
    const account = await createAdmin(services, { name: "Bia Editora" });
    const admin = { userId: account.id, name: "Bia Editora" };
    const image = await services.media.saveImage(await makeTestImage(600, 400), "a.jpg");
    const created = await services.newsEditor.createNews(
      input({ title: "Versão um", fullContent: "Texto original", category: "Vôlei", author: "Ana" }),
      null,
      admin.userId,
    );
    const id = created.id;
    await services.database.db.updateTable("news").set({ media_id: image.id }).where("id", "=", id).execute();
    await services.newsEditor.updateNews(
      id,
      input({ title: "Versão dois", fullContent: "Texto mudado", category: "Futebol", removeMedia: true, version: 1 }),
      null,
      admin.userId,
    );
    await services.newsEditor.patchNews(id, { subtitle: "Outro subtítulo" }, null, null);

    const versions = (await listNewsVersions(services.database.db, id))!;
    expect(versions.map((version) => [version.version, version.title])).toEqual([
      [3, "Versão dois"],
      [2, "Versão dois"],
      [1, "Versão um"],
    ]);
    expect(versions[2]).toMatchObject({ fullContent: "Texto original", category: "Vôlei", author: "Ana", mediaId: image.id, savedBy: admin.name });
    expect(versions[1]).toMatchObject({ mediaId: null, savedBy: admin.name });
    expect(versions[0]).toMatchObject({ subtitle: "Outro subtítulo", savedBy: null });
    // The replaced media was not removed: the revision can bring it back.
    expect(await services.database.db.selectFrom("media").select("id").where("id", "=", image.id).executeTakeFirst()).toBeDefined();

    const restored = await services.newsEditor.restoreRevision(id, versions[2]!.revisionId!, admin.userId, 3);
    expect(restored.version).toBe(4);
    expect(await services.news.getNews(id)).toMatchObject({
      title: "Versão um",
      fullContent: "Texto original",
      category: "Vôlei",
      author: "Ana",
      mediaId: image.id,
      status: "published",
      version: 4,
    });
    const after = (await listNewsVersions(services.database.db, id))!;
    expect(after.map((version) => version.version)).toEqual([4, 3, 2, 1]);
    expect(after[1]).toMatchObject({ title: "Versão dois", subtitle: "Outro subtítulo" });
    // A restore based on an older version is a conflict too; another item's revision is not found.
    await expect(services.newsEditor.restoreRevision(id, versions[1]!.revisionId!, admin.userId, 3)).rejects.toBeInstanceOf(NewsConflictError);
    const other = await createNews(services, { media: null });
    await expect(services.newsEditor.restoreRevision(other, versions[1]!.revisionId!, admin.userId)).rejects.toMatchObject({ status: 404 });
    // Deleting the item deletes its revisions.
    await services.newsEditor.deleteNews(id);
    expect(await services.database.db.selectFrom("news_revisions").select("id").where("news_id", "=", id).execute()).toEqual([]);
  });
});
