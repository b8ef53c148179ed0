import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { RouterContextProvider } from "react-router";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import { migrations } from "#migrations/index.ts";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { type Actor, requireRole, requireRoleApi } from "#app/.server/auth/permissions.server.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import type { Role } from "#app/lib/roles.ts";
import { handle as sponsorsApiHandle } from "#app/routes/api/sponsors.ts";
import { handle as newsApiHandle } from "#app/routes/api/news.ts";
import { handle as sponsorManagerHandle } from "#app/routes/admin/sponsor-manager.tsx";
import { handle as historyHandle } from "#app/routes/admin/news-history.tsx";
import { createMember, createUser } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";

/**
 * What each role may do, at the service level (the news editor that every route calls with the request's member)
 * and at the guards (the role a route's facts ask for). Real services on a fresh database, both databases.
 */
const open = useTestServices("eef-roles-", { SITE_URL: "http://127.0.0.1:4321" });

const input = (fields: Record<string, unknown>) =>
  newsInputSchema.parse({ title: "Pauta do repórter", subtitle: "Subtítulo", fullContent: "Texto", category: "Vôlei", ...fields });
const patch = (fields: Record<string, unknown>) => newsPatchSchema.parse(fields);

async function member(services: TestServices, role: Role): Promise<{ kind: "member"; userId: string; role: Role; email: string; password: string }> {
  const account = await createMember(services, role);
  return { kind: "member", userId: account.id, role, email: account.email, password: account.password };
}

/** The refusal of a promise: an error with this HTTP status and stable code. */
async function refused(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toMatchObject({ status: 403, code });
}

async function rowOf(services: TestServices, id: string) {
  return services.database.db
    .selectFrom("news")
    .select(["status", "version", "title", "owner_id", "review_requested_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describe("repórter", () => {
  it("cria rascunhos (é o dono), edita os próprios, envia para revisão; nunca publica, agenda nem despublica", async () => {
    const services = await open();
    const reporter = await member(services, "reporter");
    const { newsEditor } = services;

    // Creating: a draft or a story in review; without a status the API's default (publish) is refused.
    const draft = await newsEditor.createNews(input({ status: "draft" }), null, reporter);
    expect(draft.status).toBe("draft");
    expect((await rowOf(services, draft.id)).owner_id).toBe(reporter.userId);
    await refused(newsEditor.createNews(input({}), null, reporter), "publish_forbidden");
    await refused(newsEditor.createNews(input({ status: "published" }), null, reporter), "publish_forbidden");
    await refused(
      newsEditor.createNews(input({ status: "scheduled", publishAt: new Date(Date.now() + 3_600_000).toISOString() }), null, reporter),
      "publish_forbidden",
    );
    const count = await services.database.db
      .selectFrom("news")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);

    // Own draft: edited; publishing it is refused and changes nothing.
    const edited = await newsEditor.patchNews(draft.id, patch({ title: "Pauta revista" }), null, reporter);
    expect(edited).toMatchObject({ status: "draft", version: 2 });
    await refused(newsEditor.patchNews(draft.id, patch({ status: "published" }), null, reporter), "publish_forbidden");
    await refused(
      newsEditor.updateNews(draft.id, input({ title: "Publicar já", status: "published", version: 2 }), null, reporter),
      "publish_forbidden",
    );
    expect(await rowOf(services, draft.id)).toMatchObject({ status: "draft", version: 2, title: "Pauta revista" });

    // "Enviar para revisão": stored as a draft with the time it was sent, shown as review.
    const sent = await newsEditor.patchNews(draft.id, patch({ status: "review", version: 2 }), null, reporter);
    expect(sent.status).toBe("review");
    const row = await rowOf(services, draft.id);
    expect(row.status).toBe("draft");
    expect(row.review_requested_at).not.toBeNull();
    // A save without a status keeps it in review; "Salvar rascunho" takes it back.
    expect((await newsEditor.patchNews(draft.id, patch({ title: "Pauta em revisão" }), null, reporter)).status).toBe("review");
    expect((await services.news.getNews(draft.id, { includeUnpublished: true })).status).toBe("review");
    expect((await newsEditor.patchNews(draft.id, patch({ status: "draft" }), null, reporter)).status).toBe("draft");
    expect((await rowOf(services, draft.id)).review_requested_at).toBeNull();

    // Created straight into review.
    expect((await newsEditor.createNews(input({ status: "review" }), null, reporter)).status).toBe("review");
    // Restoring a version is an editor's.
    await refused(newsEditor.restoreRevision(draft.id, "qualquer", reporter), "restore_forbidden");
  });

  it("não toca nas notícias dos outros (de outro repórter, de um editor, sem dono) e só exclui os próprios rascunhos", async () => {
    const services = await open();
    const reporter = await member(services, "reporter");
    const colleague = await member(services, "reporter");
    const editor = await member(services, "editor");
    const { newsEditor } = services;

    const theirs = await newsEditor.createNews(input({ status: "draft" }), null, colleague);
    const editors = await newsEditor.createNews(input({ status: "draft" }), null, editor);
    const ownerless = await createNews(services, { title: "Sem dono", media: null });
    for (const id of [theirs.id, editors.id, ownerless]) {
      await refused(newsEditor.patchNews(id, patch({ title: "Invadida" }), null, reporter), "story_not_yours");
      await refused(newsEditor.updateNews(id, input({ title: "Invadida", status: "draft" }), null, reporter), "story_not_yours");
      await refused(newsEditor.deleteNews(id, reporter), "story_not_yours");
      await refused(newsEditor.requireMayEdit(id, reporter), "story_not_yours");
      expect((await rowOf(services, id)).title).not.toBe("Invadida");
    }

    // Own draft: deleted.
    const mine = await newsEditor.createNews(input({ status: "draft" }), null, reporter);
    await newsEditor.requireMayEdit(mine.id, reporter);
    await newsEditor.deleteNews(mine.id, reporter);
    await expect(services.news.getNews(mine.id, { includeUnpublished: true })).rejects.toMatchObject({ status: 404 });

    // Own story, once an editor published it: the reporter corrects it (it stays live), but never takes it offline
    // nor deletes it (reporter-corrections.test.ts covers the correction).
    const published = await newsEditor.createNews(input({ status: "review" }), null, reporter);
    await newsEditor.patchNews(published.id, patch({ status: "published" }), null, editor);
    expect(await newsEditor.patchNews(published.id, patch({ title: "Corrigida" }), null, reporter)).toMatchObject({ status: "published" });
    await refused(newsEditor.patchNews(published.id, patch({ status: "draft" }), null, reporter), "publish_forbidden");
    await refused(newsEditor.deleteNews(published.id, reporter), "delete_forbidden");
    expect(await rowOf(services, published.id)).toMatchObject({ status: "published", owner_id: reporter.userId, title: "Corrigida" });
  });
});

describe("editor e administrador", () => {
  it("o editor vê a notícia em revisão, publica a de um repórter, agenda, despublica e exclui qualquer uma", async () => {
    const services = await open();
    const reporter = await member(services, "reporter");
    const editor = await member(services, "editor");
    const admin: Actor = await member(services, "admin");
    const { newsEditor, news } = services;

    const story = await newsEditor.createNews(input({ title: "Final em revisão", status: "review" }), null, reporter);
    const inReview = await news.listNewsPage({ cursor: null, limit: 10, status: "review" });
    expect(inReview.items.map((item) => [item.id, item.status])).toEqual([[story.id, "review"]]);
    expect((await news.listNewsPage({ cursor: null, limit: 10, status: "draft" })).items).toEqual([]);
    expect(await news.countInReview()).toBe(1);

    const published = await newsEditor.patchNews(story.id, patch({ status: "published" }), null, editor);
    expect(published.status).toBe("published");
    expect((await rowOf(services, story.id)).review_requested_at).toBeNull();
    expect(await news.countInReview()).toBe(0);
    expect((await news.getNews(story.id)).title).toBe("Final em revisão");
    await newsEditor.patchNews(story.id, patch({ status: "draft" }), null, editor);
    await newsEditor.patchNews(story.id, patch({ status: "scheduled", publishAt: new Date(Date.now() + 3_600_000).toISOString() }), null, editor);
    await newsEditor.requireMayEdit(story.id, editor);
    await newsEditor.deleteNews(story.id, editor);

    const ownerless = await createNews(services, { title: "Da importação", media: null });
    expect((await newsEditor.patchNews(ownerless, patch({ title: "Editada pelo admin" }), null, admin)).version).toBe(2);
    await newsEditor.deleteNews(ownerless, admin);
  });

  it("uma notícia em revisão não existe para os leitores: página, listas, busca e feeds", async () => {
    const services = await open();
    const reporter = await member(services, "reporter");
    const story = await services.newsEditor.createNews(input({ title: "Embargo absoluto da final", status: "review" }), null, reporter);
    await expect(services.news.getNews(story.id)).rejects.toMatchObject({ status: 404 });
    expect((await services.news.listNewsPage({ cursor: null, limit: 10 })).items).toEqual([]);
    expect((await services.search.search({ query: "embargo" })).hits).toEqual([]);
    const syndication = createSyndication({ db: services.database.db, store: services.store, site: services.config.site });
    expect(await syndication.rss({ highlightedOnly: false })).not.toContain("Embargo");
    // The newsroom's "all" sees it.
    expect((await services.news.listNewsPage({ cursor: null, limit: 10, status: null })).items.map((item) => item.status)).toEqual(["review"]);
  });
});

describe("guardas: o papel que as rotas pedem", () => {
  function contextOf(services: AppServices): RouterContextProvider {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    return context;
  }

  async function cookieOf(services: TestServices, account: { email: string; password: string }): Promise<string> {
    const result = await services.auth.signInWithPassword({ ...account, ip: "10.7.0.1", headers: new Headers() });
    if (!result.ok) throw new Error(`sign-in failed: ${result.message}`);
    return /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")![0];
  }

  it("repórter e editor: 403 com código nos patrocinadores; o repórter, no histórico; conta sem papel: 403 forbidden", async () => {
    const services = await open();
    const context = contextOf(services);
    const request = (cookie: string, path = "/api/sponsors") => new Request(`http://127.0.0.1:4321${path}`, { headers: { cookie } });
    const reporter = await cookieOf(services, await member(services, "reporter"));
    const editor = await cookieOf(services, await member(services, "editor"));
    const admin = await cookieOf(services, await member(services, "admin"));

    for (const cookie of [reporter, editor]) {
      const answer = await requireRoleApi(request(cookie), context, sponsorsApiHandle).catch((thrown: unknown) => thrown);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(403);
      expect(await (answer as Response).json()).toEqual({
        error: { code: "role_forbidden", message: expect.stringMatching(/^Seu papel \((Repórter|Editor)\)/) },
      });
      const page = await requireRole(request(cookie, "/SponsorManager"), context, sponsorManagerHandle).catch((thrown: unknown) => thrown);
      expect(page).toMatchObject({ init: { status: 403 }, data: { code: "role_forbidden" } });
    }
    expect((await requireRoleApi(request(admin), context, sponsorsApiHandle)).role).toBe("admin");
    expect((await requireRole(request(editor, "/edit-news/x/historico"), context, historyHandle)).role).toBe("editor");
    expect(await requireRole(request(reporter, "/edit-news/x/historico"), context, historyHandle).catch((thrown: unknown) => thrown)).toMatchObject({
      init: { status: 403 },
    });
    expect((await requireRoleApi(request(reporter, "/api/news"), context, newsApiHandle)).role).toBe("reporter");

    // An account with no role never reaches here: sign-in ends its session. Its role removed after signing in, the
    // same session is refused as before roles existed.
    const outsider = await createUser(services, { role: "reporter" });
    const outsiderCookie = await cookieOf(services, outsider);
    await services.database.db.deleteFrom("admins").where("user_id", "=", outsider.id).execute();
    const noRole = (await requireRoleApi(request(outsiderCookie, "/api/news"), context, newsApiHandle).catch(
      (thrown: unknown) => thrown,
    )) as Response;
    expect(noRole.status).toBe(403);
    expect(((await noRole.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  });
});

describe("a migração dos papéis (2026-11-27-401-roles)", () => {
  it("quem era administrador continua administrador; notícias existentes ficam sem dono e fora de revisão", async () => {
    const dataDir = makeDataDir("eef-roles-migration-");
    const postgres = TEST_DATABASE === "postgres" ? await createPostgresDatabase() : null;
    const handle = openDatabase({
      database: postgres ? { kind: "postgres", url: postgres.url, poolSize: 2 } : { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") },
    });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-27-401"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      await db.insertInto("admins").values({ user_id: "admin-antigo", created_at: "2026-01-01T00:00:00.000Z" }).execute();
      const at = "2026-01-02T00:00:00.000Z";
      await db
        .insertInto("news")
        .values({
          id: "n1",
          title: "t",
          subtitle: "s",
          full_content: "c",
          category: "C",
          author: "A",
          is_highlighted: 0,
          created_at: at,
          updated_at: at,
          published_at: at,
          status: "draft",
        })
        .execute();
      expect(await migrateToLatest(db)).toContain("2026-11-27-401-roles");
      expect(await db.selectFrom("admins").select(["user_id", "role"]).execute()).toEqual([{ user_id: "admin-antigo", role: "admin" }]);
      expect(await db.selectFrom("news").select(["id", "status", "owner_id", "review_requested_at"]).execute()).toEqual([
        { id: "n1", status: "draft", owner_id: null, review_requested_at: null },
      ]);
    } finally {
      await handle.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
