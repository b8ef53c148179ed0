/**
 * One transaction per save (issue 24, part 6): the media texts, the news row and its revision are written together,
 * checked against the version, with the event sent by the commit. Both databases.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { recordingLogger } from "#tests/factories/recording-logger.ts";
import { createMemoryEventBus, type EventBus, type SiteEvent } from "#app/.server/events/event-bus.ts";
import { createPostgresEventBus } from "#app/.server/events/postgres-event-bus.server.ts";
import { createNewsEditor } from "#app/.server/news/editor/news-editor.service.server.ts";
import { NewsConflictError } from "#app/.server/news/editor/news-save.server.ts";
import { newsPatchSchema } from "#app/lib/news-schema.ts";
import { createNews } from "#tests/factories/news.ts";
import { countRows, createTestServices, TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-save-trx-");
const patch = (fields: Record<string, unknown>) => newsPatchSchema.parse(fields);

/** The news editor of `services`, with another event bus or store when the test needs one. */
function editorOf(services: TestServices, overrides: Partial<Parameters<typeof createNewsEditor>[0]> = {}) {
  return createNewsEditor({
    db: services.database.db,
    media: services.media,
    store: services.store,
    events: services.events,
    log: services.log,
    defaultAuthor: "Redação",
    timeZone: "America/Sao_Paulo",
    ...overrides,
  });
}

/** What a save could have touched: the row, its media's texts, its revisions, the recorded terms. */
async function snapshot(services: TestServices, id: string) {
  const { db } = services.database;
  const news = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const media = news.media_id
    ? await db.selectFrom("media").select(["description", "caption", "credit"]).where("id", "=", news.media_id).executeTakeFirst()
    : null;
  const revisions = await db.selectFrom("news_revisions").select(["version", "title"]).where("news_id", "=", id).orderBy("version").execute();
  const terms = await db.selectFrom("taxonomy_terms").select(["kind", "slug"]).orderBy("kind").orderBy("slug").execute();
  return { news, media, revisions, terms };
}

/** A news item with an image whose texts are set. */
async function newsWithImage(services: TestServices): Promise<string> {
  const id = await createNews(services, { title: "Original", category: "Futebol" });
  const { media_id } = await services.database.db.selectFrom("news").select("media_id").where("id", "=", id).executeTakeFirstOrThrow();
  await services.database.db
    .updateTable("media")
    .set({ description: "Descrição antiga", caption: "Legenda antiga", credit: "Crédito antigo" })
    .where("id", "=", media_id!)
    .execute();
  return id;
}

/** Makes every insert into `table` fail (a failure in the middle of a save, after other writes of it). */
async function refuseInserts(services: TestServices, table: "news" | "news_revisions"): Promise<void> {
  const { db } = services.database;
  const trigger = sql.id(`eef_test_refuse_${table}`);
  if (services.database.dialect === "postgres") {
    await sql`create or replace function eef_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'insert refused'; end $$`.execute(
      db,
    );
    await sql`create trigger ${trigger} before insert on ${sql.table(table)} for each row execute function eef_test_refuse()`.execute(db);
  } else {
    await sql`create trigger ${trigger} before insert on ${sql.table(table)} begin select raise(abort, 'insert refused'); end`.execute(db);
  }
}

const CHANGES = {
  title: "Título novo",
  category: "Categoria Inédita",
  mediaDescription: "Descrição nova",
  mediaCaption: "Legenda nova",
  mediaCredit: "Crédito novo",
};

describe("one transaction per save", () => {
  it("a save refused with 409 (someone saved between its read and its write) changes nothing, media texts included, and sends nothing", async () => {
    const services = await open();
    const id = await newsWithImage(services);
    const received: SiteEvent[] = [];
    services.events.subscribe((event) => {
      if (event !== "resync") received.push(event);
    });
    // Another editor's save lands after this save read the item, before its transaction writes.
    let raced = false;
    const editor = editorOf(services, {
      events: {
        async withCommit(db, work) {
          if (!raced) {
            raced = true;
            await services.newsEditor.patchNews(id, patch({ title: "Do outro editor" }), null, testsActor);
          }
          return services.events.withCommit(db, work);
        },
      },
    });
    const before = await snapshot(services, id);
    expect(before.news.version).toBe(1);
    const error = await editor.patchNews(id, patch({ ...CHANGES, version: 1 }), null, testsActor).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NewsConflictError);
    expect((error as NewsConflictError).current).toMatchObject({ version: 2, title: "Do outro editor" });
    const after = await snapshot(services, id);
    // Exactly the other editor's save: its title and version, its one revision; our texts and category nowhere.
    const { search_document: _a, updated_at: _b, text_updated_at: _c, ...kept } = before.news as typeof before.news & { search_document?: unknown };
    expect(after.news).toMatchObject({ ...kept, title: "Do outro editor", version: 2 });
    // Its title changed: the text's change time is the other editor's save, not ours.
    expect(after.news.text_updated_at).toBe(after.news.updated_at);
    expect(after.media).toEqual(before.media);
    expect(after.revisions).toEqual([{ version: 1, title: "Original" }]);
    expect(after.terms).toEqual(before.terms);
    expect(received).toEqual(["newsUpdated"]);
  });

  it("a failure in the middle of a save (the revision refused after the row and texts were written) leaves nothing half-written", async () => {
    const services = await open();
    const id = await newsWithImage(services);
    const before = await snapshot(services, id);
    const received: SiteEvent[] = [];
    services.events.subscribe((event) => {
      if (event !== "resync") received.push(event);
    });
    await refuseInserts(services, "news_revisions");
    await expect(services.newsEditor.patchNews(id, patch(CHANGES), null, testsActor)).rejects.toMatchObject({
      status: 500,
      code: "news_update_failed",
    });
    expect(await snapshot(services, id)).toEqual(before);
    expect(received).toEqual([]);
  });

  it("a new item is one transaction too: its terms and its row, or nothing (and no event)", async () => {
    const services = await open();
    const received: SiteEvent[] = [];
    services.events.subscribe((event) => {
      if (event !== "resync") received.push(event);
    });
    const terms = await countRows(services, "taxonomy_terms");
    await refuseInserts(services, "news");
    await expect(
      services.newsEditor.createNews(
        { title: "Nova", subtitle: "Sub", category: "Categoria Inédita", author: "Autora Nova", isHighlighted: false, removeMedia: false },
        null,
        testsActor,
      ),
    ).rejects.toMatchObject({ status: 500, code: "news_create_failed" });
    expect(await countRows(services, "news")).toBe(0);
    expect(await countRows(services, "taxonomy_terms")).toBe(terms);
    expect(received).toEqual([]);
  });

  it("a save that commits delivers its event to this instance's subscribers before it answers", async () => {
    const services = await open();
    const id = await newsWithImage(services);
    const received: SiteEvent[] = [];
    services.events.subscribe((event) => {
      if (event !== "resync") received.push(event);
    });
    await services.newsEditor.patchNews(id, patch(CHANGES), null, testsActor);
    expect(received).toEqual(["newsUpdated"]);
    const after = await snapshot(services, id);
    expect(after.news).toMatchObject({ title: "Título novo", category: "Categoria Inédita", version: 2 });
    expect(after.media).toEqual({ description: "Descrição nova", caption: "Legenda nova", credit: "Crédito novo" });
    expect(after.revisions).toEqual([{ version: 1, title: "Original" }]);
  });

  it("a subscriber that throws is logged; the committed save still answers success and the others get the event", async () => {
    const services = await open();
    const id = await newsWithImage(services);
    const { log, lines } = recordingLogger();
    const bus = createMemoryEventBus(log);
    const received: SiteEvent[] = [];
    bus.subscribe(() => {
      throw new Error("broken subscriber");
    });
    bus.subscribe((event) => received.push(event));
    const saved = await editorOf(services, { events: bus }).patchNews(id, patch({ title: "Salvo mesmo assim" }), null, testsActor);
    expect(saved.version).toBe(2);
    expect(received).toEqual(["newsUpdated"]);
    expect(lines.some((line) => line.msg === "site event listener failed")).toBe(true);
    expect((await snapshot(services, id)).news.title).toBe("Salvo mesmo assim");
  });
});

describe.runIf(TEST_DATABASE === "postgres")("the notification goes with the commit (PostgreSQL)", () => {
  it("other instances hear a save that committed, and nothing of one that rolled back", async () => {
    const services = await open();
    const url = services.config.database.kind === "postgres" ? services.config.database.url : "";
    const other = await createTestServices(undefined, { DATABASE_URL: url });
    try {
      const received: SiteEvent[] = [];
      const bus = other.events as ReturnType<typeof createPostgresEventBus>;
      bus.subscribe((event) => received.push(event));
      await bus.listening();
      const id = await newsWithImage(services);
      await refuseInserts(services, "news_revisions");
      await expect(services.newsEditor.patchNews(id, patch(CHANGES), null, testsActor)).rejects.toMatchObject({ status: 500 });
      await sql`drop trigger eef_test_refuse_news_revisions on news_revisions`.execute(services.database.db);
      await services.newsEditor.patchNews(id, patch({ title: "Agora sim" }), null, testsActor);
      // PostgreSQL delivers notifications in the order their transactions committed: one sent after the good save
      // comes after anything the failed save or the good one sent, and nothing but the good save's comes before it.
      await services.events.publish("sponsorsUpdated");
      await expect.poll(() => received, { timeout: 5000 }).toEqual(["newsUpdated", "sponsorsUpdated"]);
    } finally {
      await other.close();
    }
  });

  it("a notification PostgreSQL refuses is logged; the save commits, answers success and reaches this instance", async () => {
    const services = await open();
    const id = await newsWithImage(services);
    const { log, lines } = recordingLogger();
    const url = services.config.database.kind === "postgres" ? services.config.database.url : "";
    // PostgreSQL refuses pg_notify on a channel name longer than 63 bytes: every notification of this bus fails.
    const bus: EventBus = createPostgresEventBus({ url, db: services.database.db, log, channel: "c".repeat(70) });
    const received: SiteEvent[] = [];
    try {
      bus.subscribe((event) => {
        if (event !== "resync") received.push(event);
      });
      const saved = await editorOf(services, { events: bus }).patchNews(id, patch({ title: "Gravado apesar do aviso" }), null, testsActor);
      expect(saved.version).toBe(2);
      expect(received).toEqual(["newsUpdated"]);
      expect((await snapshot(services, id)).news.title).toBe("Gravado apesar do aviso");
      const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg);
      expect(warnings).toContain("event notification refused inside the transaction; retried after the commit");
      expect(warnings).toContain("event notification failed after the commit");
    } finally {
      await bus.close();
    }
  });
});
