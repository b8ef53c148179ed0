import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import { createMemoryEventBus, type SiteEvent } from "#app/.server/events/event-bus.ts";
import { toApiError } from "#app/.server/http/api.server.ts";
import { NewsConflictError } from "#app/.server/news/editor/news-save.server.ts";
import { listNewsVersions } from "#app/.server/news/editor/news-revisions.server.ts";
import { startNewsScheduler } from "#app/.server/news/publishing/news-scheduler.server.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { parsePublishAt, toLocalInputValue } from "#app/lib/zoned-time.ts";
import { migrations } from "#migrations/index.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { createNews, eraseNews, makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { editorActor, testsActor } from "#tests/factories/actors.ts";

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
    const draft = await services.newsEditor.createNews(input({ title: "Rascunho secreto do vôlei", status: "draft" }), null, testsActor);
    const scheduled = await services.newsEditor.createNews(
      input({ title: "Agendada secreta do vôlei", status: "scheduled", publishAt: inAnHour() }),
      null,
      testsActor,
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
    const draft = await services.newsEditor.createNews(input({ title: "Rascunho", status: "draft" }), null, testsActor);
    const before = Date.now();
    const published = await services.newsEditor.updateNews(draft.id, input({ title: "Publicada", status: "published" }), null, testsActor);
    expect(published.status).toBe("published");
    expect(new Date(published.publishedAt).getTime()).toBeGreaterThanOrEqual(before - 1);
    const edited = await services.newsEditor.updateNews(draft.id, input({ title: "Editada" }), null, testsActor);
    expect(edited).toMatchObject({ status: "published", publishedAt: published.publishedAt, version: 3 });
    expect((await services.news.getNews(draft.id)).publishedAt).toBe(published.publishedAt);
  });

  it("published again (a save, the bulk action, the scheduler), a story keeps its first publication date and its place in the list", async () => {
    const services = await open();
    const { newsEditor, news, database } = services;
    const first = await newsEditor.createNews(input({ title: "Primeira a sair", status: "published" }), null, testsActor);
    const second = await newsEditor.createNews(input({ title: "Segunda a sair", status: "published" }), null, testsActor);
    const third = await newsEditor.createNews(input({ title: "Terceira a sair", status: "published" }), null, testsActor);
    const order = async () => (await news.listNewsPage({ limit: 10 })).items.map((item) => item.id);
    expect(await order()).toEqual([third.id, second.id, first.id]);
    const dateOf = async (id: string) => (await statusOf(services, id)).published_at;
    const firstDate = await dateOf(first.id);
    expect(firstDate).toBe(first.publishedAt);

    // Unpublished and published again through a save: its first date, its old place.
    await newsEditor.updateNews(first.id, input({ title: "Primeira a sair", unpublish: true }), null, testsActor);
    expect((await statusOf(services, first.id)).status).toBe("draft");
    const again = await newsEditor.updateNews(first.id, input({ title: "Primeira a sair", status: "published" }), null, testsActor);
    expect(again.publishedAt).toBe(firstDate);
    expect(await order()).toEqual([third.id, second.id, first.id]);

    // In bulk: unpublished and republished, every one back at its own date.
    const dates = await Promise.all([first.id, second.id, third.id].map(dateOf));
    expect(await newsEditor.bulkAction("unpublish", [first.id, second.id, third.id], testsActor)).toMatchObject({ changed: 3 });
    expect(await order()).toEqual([]);
    expect(await newsEditor.bulkAction("publish", [first.id, second.id, third.id], testsActor)).toMatchObject({ changed: 3 });
    expect(await Promise.all([first.id, second.id, third.id].map(dateOf))).toEqual(dates);
    expect(await order()).toEqual([third.id, second.id, first.id]);

    // Unpublished, then scheduled: when the scheduler puts it back, it is at its first date too.
    await newsEditor.updateNews(second.id, input({ title: "Segunda a sair", unpublish: true }), null, testsActor);
    await newsEditor.updateNews(second.id, input({ title: "Segunda a sair", status: "scheduled", publishAt: inAnHour() }), null, testsActor);
    const scheduler = startNewsScheduler({
      db: database.db,
      events: createMemoryEventBus(),
      log: { info: () => {}, error: () => {} },
      clock: () => new Date(Date.now() + 2 * 3_600_000),
    });
    try {
      await scheduler.publishDue();
    } finally {
      scheduler.stop();
    }
    expect(await statusOf(services, second.id)).toMatchObject({ status: "published", published_at: dates[1] });
    expect(await order()).toEqual([third.id, second.id, first.id]);

    // A story scheduled from the start goes out at its planned time, which becomes its first publication.
    const planned = await newsEditor.createNews(input({ title: "Planejada", status: "scheduled", publishAt: inAnHour() }), null, testsActor);
    const row = await database.db
      .selectFrom("news")
      .select(["published_at", "first_published_at"])
      .where("id", "=", planned.id)
      .executeTakeFirstOrThrow();
    expect(row.first_published_at).toBeNull();
  });

  it("'Atualizado em' follows what readers read: a text change after publication says when, a highlight or category change does not", async () => {
    const services = await open();
    const { newsEditor, news } = services;
    const story = await newsEditor.createNews(input({ title: "Clássico no domingo", category: "Futebol", status: "published" }), null, testsActor);
    expect((await news.getNews(story.id)).textUpdatedAt).toBeNull();
    await newsEditor.updateNews(story.id, input({ title: "Clássico no domingo", category: "Esportes", isHighlighted: true }), null, testsActor);
    expect((await news.getNews(story.id)).textUpdatedAt).toBeNull();
    await newsEditor.updateNews(
      story.id,
      input({ title: "Clássico no domingo às 16h", category: "Esportes", isHighlighted: true }),
      null,
      testsActor,
    );
    const corrected = await news.getNews(story.id);
    expect(corrected.textUpdatedAt).not.toBeNull();
    expect(Date.parse(corrected.textUpdatedAt!)).toBeGreaterThan(Date.parse(corrected.publishedAt));
  });

  it("a schedule needs a time in the future", async () => {
    const services = await open();
    await expect(services.newsEditor.createNews(input({ title: "Sem hora", status: "scheduled" }), null, testsActor)).rejects.toMatchObject({
      status: 400,
      code: "publish_at_required",
    });
    await expect(
      services.newsEditor.createNews(input({ title: "No passado", status: "scheduled", publishAt: "2020-01-01T10:00" }), null, testsActor),
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
    const id = (await services.newsEditor.createNews(input({ title: "Agendada", status: "scheduled", publishAt: inAnHour() }), null, testsActor)).id;
    const later = () => new Date(Date.now() + 2 * 3_600_000);
    const log = { info: () => {}, error: () => {} };
    const buses = [createMemoryEventBus(), createMemoryEventBus(), createMemoryEventBus()];
    const seen: SiteEvent[][] = buses.map(() => []);
    for (const [index, bus] of buses.entries()) bus.subscribe((event) => seen[index]!.push(event));
    // Each scheduler starts by publishing what is due; with the clock two hours ahead, the item is due.
    const schedulers = buses.map((events) => startNewsScheduler({ db: services.database.db, events, log, clock: later }));
    try {
      const results = await Promise.all(schedulers.map((scheduler) => scheduler.publishDue()));
      // Their own first looks done too (and the events they sent).
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
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
      const { id } = await services.newsEditor.createNews(input({ title: "Em instantes", status: "scheduled", publishAt }), null, testsActor);
      expect((await services.news.listNewsPage({ limit: 10 })).items).toEqual([]);
      await expect
        .poll(async () => (await statusOf(services, id)).status, { timeout: 10_000, interval: 100, message: "a notícia agendada entrou no ar" })
        .toBe("published");
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
    await services.newsEditor.updateNews(id, input({ title: "Primeira edição", version: 1 }), null, testsActor);
    // The second, from version 1 too, is refused.
    const error = await services.newsEditor.updateNews(id, input({ title: "Segunda edição", version: 1 }), null, testsActor).catch((e: unknown) => e);
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
    await services.newsEditor.updateNews(id, input({ title: "Segunda edição", version: body.error.current.version }), null, testsActor);
    expect(await services.news.getNews(id)).toMatchObject({ title: "Segunda edição", version: 3 });
    // PATCH is checked the same way; without a version a save is not checked (older API clients).
    await expect(services.newsEditor.patchNews(id, { title: "Velha", version: 2 }, null, testsActor)).rejects.toBeInstanceOf(NewsConflictError);
    await services.newsEditor.patchNews(id, { title: "Sem versão" }, null, testsActor);
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
      editorActor(admin.userId),
    );
    const id = created.id;
    await services.database.db.updateTable("news").set({ media_id: image.id }).where("id", "=", id).execute();
    await services.newsEditor.updateNews(
      id,
      input({ title: "Versão dois", fullContent: "Texto mudado", category: "Futebol", removeMedia: true, version: 1 }),
      null,
      editorActor(admin.userId),
    );
    await services.newsEditor.patchNews(id, { subtitle: "Outro subtítulo" }, null, testsActor);

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

    const restored = await services.newsEditor.restoreRevision(id, versions[2]!.revisionId!, editorActor(admin.userId), 3);
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
    await expect(services.newsEditor.restoreRevision(id, versions[1]!.revisionId!, editorActor(admin.userId), 3)).rejects.toBeInstanceOf(
      NewsConflictError,
    );
    const other = await createNews(services, { media: null });
    await expect(services.newsEditor.restoreRevision(other, versions[1]!.revisionId!, editorActor(admin.userId))).rejects.toMatchObject({
      status: 404,
    });
    // Deleting the item deletes its revisions.
    await eraseNews(services, id);
    expect(await services.database.db.selectFrom("news_revisions").select("id").where("news_id", "=", id).execute()).toEqual([]);
  });
});

describe("the migration 2026-11-28-961 (publication history)", () => {
  it("fills in the first publication date and the last text change from the stories and their revisions", async () => {
    const dataDir = makeDataDir("eef-publication-history-");
    const postgres = TEST_DATABASE === "postgres" ? await createPostgresDatabase() : null;
    const handle = openDatabase({
      database: postgres ? { kind: "postgres", url: postgres.url, poolSize: 2 } : { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") },
    });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-28-961"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      const story = (id: string, status: string, published_at: string, title = id) => ({
        id,
        title,
        subtitle: "",
        full_content: "",
        category: "Vôlei",
        category_slug: "volei",
        author: "Ana",
        author_slug: "ana",
        is_highlighted: 0,
        media_id: null,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-03-01T00:00:00.000Z",
        status,
        published_at,
      });
      await db
        .insertInto("news")
        .values([
          story("publicada", "published", "2026-01-10T00:00:00.000Z"),
          story("republicada-hoje", "published", "2026-02-20T00:00:00.000Z"),
          story("despublicada", "draft", "2026-02-01T00:00:00.000Z"),
          story("nunca-publicada", "draft", "2026-01-05T00:00:00.000Z"),
          story("corrigida", "published", "2026-01-10T00:00:00.000Z", "Título corrigido"),
        ])
        .execute();
      const revision = (news_id: string, status: string, published_at: string, saved_at: string, title = news_id) => ({
        id: `${news_id}-${saved_at}`,
        news_id,
        version: 1,
        title,
        subtitle: "",
        full_content: "",
        category: "Vôlei",
        author: "Ana",
        is_highlighted: 0,
        media_id: null,
        saved_by: null,
        saved_at,
        status,
        published_at,
      });
      await db
        .insertInto("news_revisions")
        .values([
          revision("republicada-hoje", "published", "2026-01-15T00:00:00.000Z", "2026-01-16T00:00:00.000Z"),
          revision("despublicada", "published", "2026-01-12T00:00:00.000Z", "2026-01-20T00:00:00.000Z"),
          revision("nunca-publicada", "draft", "2026-01-05T00:00:00.000Z", "2026-01-06T00:00:00.000Z"),
          revision("corrigida", "published", "2026-01-10T00:00:00.000Z", "2026-02-01T00:00:00.000Z", "Título com erro"),
        ])
        .execute();
      expect(await migrateToLatest(db)).toContain("2026-11-28-961-publication-history");
      const rows = await db.selectFrom("news").select(["id", "first_published_at", "text_updated_at"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "corrigida", first_published_at: "2026-01-10T00:00:00.000Z", text_updated_at: "2026-03-01T00:00:00.000Z" },
        { id: "despublicada", first_published_at: "2026-01-12T00:00:00.000Z", text_updated_at: null },
        { id: "nunca-publicada", first_published_at: null, text_updated_at: null },
        { id: "publicada", first_published_at: "2026-01-10T00:00:00.000Z", text_updated_at: null },
        { id: "republicada-hoje", first_published_at: "2026-01-15T00:00:00.000Z", text_updated_at: null },
      ]);
    } finally {
      await handle.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
