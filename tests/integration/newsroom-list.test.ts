import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { listNewsVersions } from "#app/.server/news/editor/news-revisions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { NEWSROOM_BULK_MAX, NEWSROOM_PAGE_SIZE, TRASH_DAYS } from "#app/lib/limits.ts";
import { DEFAULT_NEWSROOM_QUERY, type NewsroomQuery, parseNewsroomQuery } from "#app/lib/newsroom-query.ts";
import { action as newsroomAction, loader as newsroomLoader } from "#app/routes/admin/newsroom.tsx";
import { createAdmin, createUser } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import * as newsroomMigration from "#migrations/2026-11-27-200-newsroom-list.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { editorActor, testsActor } from "#tests/factories/actors.ts";

/**
 * The newsroom's list (/redacao): filters, keyset paging by publication and by update, search over every status for
 * the newsroom only, and the bulk actions (one transaction each, all or nothing, audited in the revisions).
 */
const open = useTestServices("eef-newsroom-", { SITE_URL: "http://127.0.0.1:4321" });

const query = (fields: Partial<NewsroomQuery> = {}): NewsroomQuery => ({ ...DEFAULT_NEWSROOM_QUERY, ...fields });
const minute = (n: number) => new Date(Date.UTC(2026, 5, 1, 12, 0) + n * 60_000).toISOString();

/** Sets a story's status and times directly (as an import would), so orders are known. */
async function setRow(
  services: TestServices,
  id: string,
  fields: { status?: "draft" | "scheduled" | "published"; published?: string; updated?: string },
) {
  await services.database.db
    .updateTable("news")
    .set({
      // A story set as a draft or a schedule here was never published (the factory writes published rows).
      ...(fields.status ? { status: fields.status, ...(fields.status === "published" ? {} : { first_published_at: null }) } : {}),
      ...(fields.published ? { published_at: fields.published } : {}),
      ...(fields.updated ? { updated_at: fields.updated } : {}),
    })
    .where("id", "=", id)
    .execute();
}

/** Every page of a query, following the cursors, as ids. */
async function allPages(services: TestServices, base: NewsroomQuery, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  let seen = 0;
  do {
    const page = await services.newsroom.page({ ...base, cursor }, limit);
    pages.push(page.rows.map((row) => row.id));
    // Each page knows its place among all the stories the filters find ("21–40 de 57").
    expect(page.start).toBe(seen + 1);
    seen += page.rows.length;
    if (!page.nextCursor) expect(page.total).toBe(seen);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}

describe("the newsroom list's query", () => {
  it("filters by status, category, author and dates, and pages by publication and by update without gaps or repeats", async () => {
    const services = await open();
    const ids: string[] = [];
    // 12 stories: published at minute i, updated in the reverse order; categories and authors alternate.
    for (let i = 0; i < 12; i++) {
      const id = await createNews(services, {
        title: `Jogo ${i}`,
        category: i % 2 ? "Vôlei" : "Futebol",
        author: i % 3 ? "Ana" : "Bruno",
        media: null,
      });
      await setRow(services, id, {
        status: i % 4 === 0 ? "draft" : i % 4 === 1 ? "scheduled" : "published",
        published: minute(i),
        updated: minute(100 - i),
      });
      ids.push(id);
    }
    const byPublication = [...ids].reverse();
    expect((await allPages(services, query(), 5)).flat()).toEqual(byPublication);
    expect(await allPages(services, query(), 5)).toHaveLength(3);
    // By update: the oldest published first is the most recently updated.
    expect((await allPages(services, query({ ordem: "atualizacao" }), 5)).flat()).toEqual(ids);

    const drafts = (await allPages(services, query({ situacao: "rascunhos" }), 2)).flat();
    expect(drafts).toEqual([ids[8], ids[4], ids[0]]);
    const volei = (await allPages(services, query({ categoria: "volei", ordem: "atualizacao" }), 2)).flat();
    expect(volei).toEqual(ids.filter((_, i) => i % 2 === 1));
    const bruno = (await allPages(services, query({ autor: "bruno", situacao: "publicadas" }), 10)).flat();
    expect(bruno).toEqual([ids[6], ids[3]]);

    // Dates bound the sorted column, on the site's clock (America/Sao_Paulo: 12:00 UTC is 09:00 the same day).
    const all = (await services.newsroom.page(query({ de: "2026-06-01", ate: "2026-06-01" }), 50)).rows;
    expect(all).toHaveLength(12);
    expect((await services.newsroom.page(query({ de: "2026-06-02" }), 50)).rows).toHaveLength(0);
    expect((await services.newsroom.page(query({ ate: "2026-05-31" }), 50)).rows).toHaveLength(0);

    // A made-up cursor is a clear 400.
    await expect(services.newsroom.page(query({ cursor: "nao-e-um-cursor" }), 5)).rejects.toMatchObject({ status: 400 });
  });

  it("reads its filters from the URL and drops what it does not know", () => {
    const parsed = parseNewsroomQuery(
      new URLSearchParams("q=final&situacao=rascunhos&categoria=volei&autor=ana-lima&de=2026-11-01&ate=2026-11-30&ordem=atualizacao&x=1"),
    );
    expect(parsed).toEqual({
      query: {
        q: "final",
        situacao: "rascunhos",
        categoria: "volei",
        autor: "ana-lima",
        de: "2026-11-01",
        ate: "2026-11-30",
        ordem: "atualizacao",
        cursor: null,
      },
      invalidDate: false,
    });
    const odd = parseNewsroomQuery(new URLSearchParams("situacao=lixo&categoria=Não%20é&de=2026-02-31&ordem=x"));
    expect(odd).toEqual({ query: DEFAULT_NEWSROOM_QUERY, invalidDate: true });
  });

  it("searches every status for the newsroom, while readers' search still finds the published story only", async () => {
    const services = await open();
    const published = await createNews(services, { title: "Goleiro defende pênalti na final", media: null });
    const draft = await services.newsEditor.createNews(
      { title: "Goleiro renova contrato (embargo)", subtitle: "Sai amanhã", status: "draft" } as never,
      null,
      testsActor,
    );
    const scheduled = await createNews(services, { title: "Goleiros convocados", media: null });
    await setRow(services, scheduled, { status: "scheduled", published: new Date(Date.now() + 86_400_000).toISOString() });
    await createNews(services, { title: "Atacante marca três", media: null });

    const found = (await services.newsroom.page(query({ q: "goleiro" }), 50)).rows.map((row) => row.id).sort();
    expect(found).toEqual([published, draft.id, scheduled].sort());
    expect((await services.newsroom.page(query({ q: "goleiro", situacao: "rascunhos" }), 50)).rows.map((row) => row.id)).toEqual([draft.id]);
    // Accents and plurals as readers' search: "goleiros" and "pênalti" fold and stem.
    expect((await services.newsroom.page(query({ q: "penalti" }), 50)).rows.map((row) => row.id)).toEqual([published]);
    // Only stop words: nothing.
    expect((await services.newsroom.page(query({ q: "de o a" }), 50)).rows).toEqual([]);

    const readers = await services.search.search({ query: "goleiro" });
    expect(readers.hits.map((hit) => hit.id)).toEqual([published]);

    // Published, the draft moves to readers' index; back to a draft, it leaves it again (and stays in the newsroom's).
    await services.newsEditor.bulkAction("publish", [draft.id], testsActor);
    expect((await services.search.search({ query: "contrato" })).hits.map((hit) => hit.id)).toEqual([draft.id]);
    await services.newsEditor.bulkAction("unpublish", [draft.id], testsActor);
    expect((await services.search.search({ query: "contrato" })).hits).toEqual([]);
    expect((await services.newsroom.page(query({ q: "contrato" }), 50)).rows.map((row) => row.id)).toEqual([draft.id]);
    // Deleted: gone from both.
    await services.newsEditor.bulkAction("delete", [draft.id], testsActor);
    expect((await services.newsroom.page(query({ q: "contrato" }), 50)).rows).toEqual([]);
  });
});

describe("the migration", () => {
  it("goes down and up again: readers' search keeps working between, and the newsroom's index is filled again", async () => {
    const services = await open();
    const db = services.database.db;
    const draft = await services.newsEditor.createNews({ title: "Reforço do goleiro", subtitle: "S", status: "draft" } as never, null, testsActor);
    await newsroomMigration.down(db);
    // Writes still work (the triggers of before), and readers find published stories only.
    const published = await createNews(services, { title: "Goleiro campeão", media: null });
    expect((await services.search.search({ query: "goleiro" })).hits.map((hit) => hit.id)).toEqual([published]);
    await newsroomMigration.up(db);
    const found = (await services.newsroom.page(query({ q: "goleiro" }), 50)).rows.map((row) => row.id).sort();
    expect(found).toEqual([draft.id, published].sort());
    expect((await services.search.search({ query: "goleiro" })).hits.map((hit) => hit.id)).toEqual([published]);
  });
});

describe("bulk actions", () => {
  it("publish and unpublish: one transaction, one event with every story's paths, a revision per story naming who did it", async () => {
    const services = await open();
    const ana = await createAdmin(services, { name: "Ana Editora" });
    const a = await createNews(services, { title: "Primeira", media: null });
    const b = await createNews(services, { title: "Segunda", media: null });
    const live = await createNews(services, { title: "Já no ar", media: null });
    await setRow(services, a, { status: "draft" });
    await setRow(services, b, { status: "scheduled", published: new Date(Date.now() + 86_400_000).toISOString() });
    const events: Array<{ paths?: string[] }> = [];
    services.events.subscribe((event, payload) => {
      if (event === "newsUpdated") events.push((payload ?? {}) as { paths?: string[] });
    });

    const before = Date.now();
    const result = await services.newsEditor.bulkAction("publish", [a, b, live], editorActor(ana.id));
    expect(result).toEqual({ changed: 2, unchanged: 1 });
    for (const id of [a, b]) {
      const story = await services.news.getNews(id);
      expect(story.status).toBe("published");
      expect(Date.parse(story.publishedAt)).toBeGreaterThanOrEqual(before - 1000);
      const versions = await listNewsVersions(services.database.db, id);
      expect(versions?.[0]).toMatchObject({ version: 2, savedBy: "Ana Editora", statusChange: { kind: "published" } });
    }
    // The live story was left alone: no new version.
    expect((await listNewsVersions(services.database.db, live))?.[0]?.version).toBe(1);
    expect(events).toHaveLength(1);
    expect(events[0]?.paths).toEqual(expect.arrayContaining([`/article/${a}`, `/article/${b}`]));
    expect(events[0]?.paths).not.toContain(`/article/${live}`);

    expect(await services.newsEditor.bulkAction("unpublish", [a, live], editorActor(ana.id))).toEqual({ changed: 2, unchanged: 0 });
    await expect(services.news.getNews(a)).rejects.toMatchObject({ status: 404 });
    const history = await listNewsVersions(services.database.db, live);
    expect(history?.[0]).toMatchObject({ status: "draft", savedBy: "Ana Editora", statusChange: { kind: "unpublished" } });
  });

  it("all or nothing: one id that is not a story (or a story saved meanwhile) changes nothing", async () => {
    const services = await open();
    const a = await createNews(services, { title: "Uma", media: null });
    const b = await createNews(services, { title: "Outra", media: null });
    await setRow(services, a, { status: "draft" });
    await setRow(services, b, { status: "draft" });

    await expect(services.newsEditor.bulkAction("publish", [a, b, "nao-existe"], testsActor)).rejects.toMatchObject({
      status: 404,
      message: t.newsroom.missing(1),
    });
    await expect(services.newsEditor.bulkAction("delete", [a, "nao-existe"], testsActor)).rejects.toMatchObject({ status: 404 });
    for (const id of [a, b]) {
      const row = await services.database.db.selectFrom("news").select(["status", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "draft", version: 1 });
    }
    expect(await services.database.db.selectFrom("news_revisions").select("id").execute()).toEqual([]);

    // A failure inside the transaction after some rows were written (a revision that cannot be inserted: its id is
    // taken) rolls back the rows written before it.
    await services.database.db
      .insertInto("news_revisions")
      .values({
        id: "rev-ocupada",
        news_id: b,
        version: 1,
        title: "x",
        subtitle: "x",
        full_content: "x",
        category: "x",
        author: "x",
        is_highlighted: 0,
        media_id: null,
        saved_by: null,
        saved_at: minute(0),
      })
      .execute();
    await expect(services.newsEditor.bulkAction("publish", [a, b], testsActor)).rejects.toBeTruthy();
    for (const id of [a, b]) {
      expect((await services.database.db.selectFrom("news").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("draft");
    }
  });

  it("delete moves the stories to the Lixeira (readers lose them, nothing else is lost); restore brings them back as drafts; erase takes them, their revisions and their media for good", async () => {
    const services = await open();
    const { db } = services.database;
    const a = await createNews(services, { title: "Com imagem" });
    const b = await createNews(services, { title: "Sem imagem", media: null });
    const keep = await createNews(services, { title: "Fica", media: null });
    await services.newsEditor.bulkAction("unpublish", [b], testsActor);
    const mediaId = (await db.selectFrom("news").select("media_id").where("id", "=", a).executeTakeFirstOrThrow()).media_id;
    expect(mediaId).toBeTruthy();
    const ids = async (situacao: string) =>
      (await services.newsroom.page(parseNewsroomQuery(new URLSearchParams({ situacao })).query)).rows.map((row) => row.id);

    expect(await services.newsEditor.bulkAction("delete", [a, b, a], testsActor)).toEqual({ changed: 2, unchanged: 0 });
    // Out of every list but the Lixeira's, out of readers' reach, out of the forms; the rows, history and media stay.
    expect(await ids("todas")).toEqual([keep]);
    expect((await ids("lixeira")).sort()).toEqual([a, b].sort());
    await expect(services.news.getNews(a, { includeUnpublished: true })).rejects.toMatchObject({ status: 404 });
    await expect(services.newsEditor.requireMayEdit(a, testsActor)).rejects.toMatchObject({ status: 404 });
    const trashed = await db.selectFrom("news").select(["id", "status", "deleted_at"]).where("id", "in", [a, b]).execute();
    expect(trashed.every((row) => row.status === "draft" && row.deleted_at)).toBe(true);
    expect(await db.selectFrom("media").select("id").where("id", "=", mediaId!).execute()).toHaveLength(1);
    // Only the Lixeira's actions apply to a trashed story, and only to a trashed one.
    await expect(services.newsEditor.bulkAction("publish", [a], testsActor)).rejects.toMatchObject({ status: 404 });
    await expect(services.newsEditor.bulkAction("restore", [keep], testsActor)).rejects.toMatchObject({ status: 404 });

    expect(await services.newsEditor.bulkAction("restore", [b], testsActor)).toEqual({ changed: 1, unchanged: 0 });
    expect((await ids("rascunhos")).includes(b)).toBe(true);
    expect(await ids("lixeira")).toEqual([a]);

    expect(await services.newsEditor.bulkAction("erase", [a], testsActor)).toEqual({ changed: 1, unchanged: 0 });
    expect((await db.selectFrom("news").select("id").execute()).map((row) => row.id).sort()).toEqual([b, keep].sort());
    expect(await db.selectFrom("news_revisions").select("id").where("news_id", "=", a).execute()).toEqual([]);
    expect(await db.selectFrom("media").select("id").where("id", "=", mediaId!).execute()).toEqual([]);

    await expect(services.newsEditor.bulkAction("publish", [], testsActor)).rejects.toMatchObject({ status: 400, message: t.newsroom.noneSelected });
    const tooMany = Array.from({ length: NEWSROOM_BULK_MAX + 1 }, (_, i) => `id-${i}`);
    await expect(services.newsEditor.bulkAction("delete", tooMany, testsActor)).rejects.toMatchObject({ status: 400, message: t.newsroom.tooMany });
  });

  it(`the purge erases what has been in the Lixeira for more than ${TRASH_DAYS} days, and nothing younger`, async () => {
    const services = await open();
    const { db } = services.database;
    const old = await createNews(services, { title: "Antiga na lixeira", media: null });
    const young = await createNews(services, { title: "Recente na lixeira", media: null });
    await services.newsEditor.bulkAction("delete", [old, young], testsActor);
    const day = 86_400_000;
    await db
      .updateTable("news")
      .set({ deleted_at: new Date(Date.now() - (TRASH_DAYS + 1) * day).toISOString() })
      .where("id", "=", old)
      .execute();
    await db
      .updateTable("news")
      .set({ deleted_at: new Date(Date.now() - (TRASH_DAYS - 1) * day).toISOString() })
      .where("id", "=", young)
      .execute();
    expect(await services.newsEditor.purgeTrash()).toBe(1);
    expect((await db.selectFrom("news").select("id").where("id", "in", [old, young]).execute()).map((row) => row.id)).toEqual([young]);
    expect(await services.newsEditor.purgeTrash()).toBe(0);
  });
});

// ------------------------------------------------------------------------------------------- the route itself

function contextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

async function sessionCookie(services: TestServices, email: string, password: string): Promise<string> {
  const result = await services.auth.signInWithPassword({ email, password, ip: "10.1.0.1", headers: new Headers() });
  if (!result.ok) throw new Error("sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return token;
}

function post(fields: Array<[string, string]>, cookie?: string): Request {
  const body = new URLSearchParams(fields);
  return new Request("http://127.0.0.1:4321/redacao?situacao=rascunhos", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    return { returned: await promise };
  } catch (thrown) {
    return thrown;
  }
}

describe("the /redacao route", () => {
  it("refuses anonymous visitors and signed-in users who are not admins (loader and action), and changes nothing", async () => {
    const services = await open();
    const id = await createNews(services, { title: "Intocável", media: null });
    const context = contextOf(services);
    // A signed-in user who is not an admin (any more): signed in as an admin, then the admin row removed.
    const user = await createUser(services, { admin: true });
    const userCookie = await sessionCookie(services, user.email, user.password);
    await services.database.db.deleteFrom("admins").where("user_id", "=", user.id).execute();
    for (const cookie of [undefined, userCookie]) {
      const headers = cookie ? { Cookie: cookie } : undefined;
      const loaded = await thrownBy(
        newsroomLoader({ request: new Request("http://127.0.0.1:4321/redacao", { headers }), context, params: {} } as never),
      );
      expect(loaded).toBeInstanceOf(Response);
      expect((loaded as Response).status).toBeGreaterThanOrEqual(300);
      expect((loaded as Response).status).toBeLessThan(500);
      const acted = await thrownBy(
        newsroomAction({
          request: post(
            [
              ["intent", "delete"],
              ["id", id],
              ["confirmed", "1"],
            ],
            cookie,
          ),
          context,
          params: {},
        } as never),
      );
      expect(acted).toBeInstanceOf(Response);
      expect([302, 401, 403]).toContain((acted as Response).status);
    }
    expect(await services.database.db.selectFrom("news").select("id").where("id", "=", id).execute()).toHaveLength(1);
  });

  it("asks first (the no-JavaScript step), then acts when confirmed and goes back to the same filters with the result", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const cookie = await sessionCookie(services, admin.email, admin.password);
    const context = contextOf(services);
    const a = await createNews(services, { title: "Rascunho A", media: null });
    const b = await createNews(services, { title: "Rascunho B", media: null });
    await setRow(services, a, { status: "draft" });
    await setRow(services, b, { status: "draft" });

    const asked = (await newsroomAction({
      request: post(
        [
          ["intent", "publish"],
          ["id", a],
          ["id", b],
        ],
        cookie,
      ),
      context,
      params: {},
    } as never)) as { confirm: { action: string; ids: string[]; titles: string[] } };
    expect(asked.confirm).toMatchObject({ action: "publish", ids: [a, b] });
    expect(asked.confirm.titles.sort()).toEqual(["Rascunho A", "Rascunho B"]);
    expect((await services.database.db.selectFrom("news").select("status").where("id", "=", a).executeTakeFirstOrThrow()).status).toBe("draft");

    const done = await thrownBy(
      newsroomAction({
        request: post(
          [
            ["intent", "publish"],
            ["id", a],
            ["id", b],
            ["confirmed", "1"],
          ],
          cookie,
        ),
        context,
        params: {},
      } as never),
    );
    expect(done).toBeInstanceOf(Response);
    expect((done as Response).headers.get("Location")).toBe("/redacao?situacao=rascunhos&feito=publish&n=2");
    expect((await services.news.getNews(a)).status).toBe("published");

    const page = (await newsroomLoader({
      request: new Request("http://127.0.0.1:4321/redacao?feito=publish&n=2", { headers: { Cookie: cookie } }),
      context,
      params: {},
    } as never)) as { done: string; rows: Array<{ id: string }> };
    expect(page.done).toBe(t.newsroom.done.publish(2));
    expect(page.rows.map((row) => row.id).sort()).toEqual([a, b].sort());

    // Keyset paging through the page's own links: 50 a page, "Mais antigas" carries the cursor.
    for (let i = 0; i < NEWSROOM_PAGE_SIZE; i++) await createNews(services, { title: `Mais uma ${i}`, media: null });
    const first = (await newsroomLoader({
      request: new Request("http://127.0.0.1:4321/redacao", { headers: { Cookie: cookie } }),
      context,
      params: {},
    } as never)) as { rows: Array<{ id: string }>; nextCursor: string | null };
    expect(first.rows).toHaveLength(NEWSROOM_PAGE_SIZE);
    expect(first.nextCursor).toBeTruthy();
    const second = (await newsroomLoader({
      request: new Request(`http://127.0.0.1:4321/redacao?cursor=${first.nextCursor}`, { headers: { Cookie: cookie } }),
      context,
      params: {},
    } as never)) as { rows: Array<{ id: string }>; nextCursor: string | null };
    expect(second.rows).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.rows, ...second.rows].map((row) => row.id)).size).toBe(NEWSROOM_PAGE_SIZE + 2);
    // A made-up cursor or date: a 400 with a clear message, not a broken page.
    for (const [search, message] of [
      ["?cursor=xyz", t.newsroom.invalidCursor],
      ["?de=2026-13-45", t.newsroom.invalidDate],
    ]) {
      const bad = (await newsroomLoader({
        request: new Request(`http://127.0.0.1:4321/redacao${search}`, { headers: { Cookie: cookie } }),
        context,
        params: {},
      } as never)) as { data: { error: string }; init: { status: number } };
      expect(bad.data.error).toBe(message);
      expect(bad.init.status).toBe(400);
    }

    // An unknown action and an empty selection: clear pt-BR errors.
    const unknown = (await newsroomAction({
      request: post(
        [
          ["intent", "arquivar"],
          ["id", a],
        ],
        cookie,
      ),
      context,
      params: {},
    } as never)) as {
      data: { error: string };
      init: { status: number };
    };
    expect(unknown.data.error).toBe(t.newsroom.unknownAction);
    expect(unknown.init.status).toBe(400);
  });
});
