import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext } from "#app/.server/context.server.ts";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import * as profileRoute from "#app/routes/admin/profile.tsx";
import { deleteMediaIfUnreferenced } from "#app/.server/media/media.queries.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { PROFILE_LIMITS } from "#app/lib/limits.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import type { Role } from "#app/lib/roles.ts";
import { migrations } from "#migrations/index.ts";
import { createMember } from "#tests/factories/auth.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { memberActor } from "#app/.server/auth/permissions.server.ts";

/** Members' public profiles: who edits whose, what the fields accept, the photo, and a story's author as a member. */
const open = useTestServices("eef-profiles-");

async function member(services: TestServices, role: Role, name?: string) {
  const account = await createMember(services, role, name ? { name } : {});
  return { userId: account.id, role, email: account.email };
}

async function photo(services: TestServices): Promise<UploadedFile> {
  const file = path.join(services.dataDir, `perfil-${Date.now()}-${Math.random()}.jpg`);
  fs.writeFileSync(file, await makeTestImage(400, 400));
  return {
    path: file,
    size: fs.statSync(file).size,
    originalName: "eu.jpg",
    declaredType: "image/jpeg",
    mimeType: "image/jpeg",
    kind: "image",
    extension: "jpg",
    cleanup: () => fs.promises.rm(file, { force: true }),
  };
}

/** The field errors of a refused save. */
async function fieldErrors(promise: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await promise.then(
    () => {
      throw new Error("esperava uma recusa");
    },
    (caught: unknown) => caught as { status: number; fields: Record<string, string[]> },
  );
  expect(error.status).toBe(400);
  return error.fields;
}

describe("validação do perfil (servidor)", () => {
  it("nome obrigatório e com limite, minibiografia com limite, links só http/https sem usuário e senha", async () => {
    const services = await open();
    const ana = await member(services, "reporter");
    const save = (fields: Record<string, string>) => services.profiles.save(ana, ana.userId, fields, null);

    expect((await fieldErrors(save({ displayName: "   " }))).displayName).toEqual([t.profile.displayNameRequired]);
    expect((await fieldErrors(save({ displayName: "a".repeat(PROFILE_LIMITS.displayName + 1) }))).displayName).toEqual([
      t.profile.displayNameTooLong,
    ]);
    expect((await fieldErrors(save({ displayName: "Ana", bio: "b".repeat(PROFILE_LIMITS.bio + 1) }))).bio).toEqual([t.profile.bioTooLong]);
    for (const bad of ["javascript:alert(1)", "ftp://exemplo.com", "data:text/html,oi", "exemplo.com", "mailto:ana@exemplo.com"]) {
      expect((await fieldErrors(save({ displayName: "Ana", linkSite: bad }))).linkSite, bad).toEqual([t.profile.linkInvalid]);
    }
    expect((await fieldErrors(save({ displayName: "Ana", linkX: "https://ana:senha@x.com/ana" }))).linkX).toEqual([t.profile.linkCredentials]);
    expect(
      (await fieldErrors(save({ displayName: "Ana", linkInstagram: `https://instagram.com/${"a".repeat(PROFILE_LIMITS.link)}` }))).linkInstagram,
    ).toEqual([t.profile.linkTooLong]);
    // Only a character that cannot be cleaned is refused (a private-use one), naming its word.
    expect((await fieldErrors(save({ displayName: "Ana\uE000" }))).displayName).toEqual([
      t.newsForm.unsaveableCharacter(t.profile.displayName, "Ana\uE000", "U+E000"),
    ]);
    // Nothing of a refused save is kept.
    expect(await services.database.db.selectFrom("member_profiles").selectAll().execute()).toEqual([]);

    const saved = await save({
      // What a paste brings along and nobody sees (a zero-width space, an override, a soft hyphen) is cleaned.
      displayName: "  Ana\u200B Repórter\u202E ",
      bio: "Cobre vôlei há dez\u00AD anos.\r\nMora em Campinas.",
      linkX: "https://x.com/ana",
      linkInstagram: "",
      linkSite: "http://ana.example",
    });
    expect(saved).toMatchObject({
      name: "Ana Repórter",
      slug: "ana-reporter",
      bio: "Cobre vôlei há dez anos.\nMora em Campinas.",
      links: { x: "https://x.com/ana", instagram: null, site: "http://ana.example" },
      photo: null,
    });
  });

  it("cada um edita o próprio perfil; só o administrador edita o de outra pessoa; nome de outro membro é recusado", async () => {
    const services = await open();
    const reporter = await member(services, "reporter");
    const editor = await member(services, "editor");
    const admin = await member(services, "admin");
    await expect(services.profiles.save(reporter, editor.userId, { displayName: "Outro" }, null)).rejects.toMatchObject({
      status: 403,
      code: "profile_not_yours",
    });
    await expect(services.profiles.save(editor, reporter.userId, { displayName: "Outro" }, null)).rejects.toMatchObject({ status: 403 });
    await expect(services.profiles.formOf(reporter, admin.userId)).rejects.toMatchObject({ status: 403 });
    expect((await services.profiles.save(admin, reporter.userId, { displayName: "Bia Repórter" }, null)).name).toBe("Bia Repórter");
    expect((await services.profiles.formOf(reporter, reporter.userId)).person.name).toBe("Bia Repórter");
    // The same name, spelled differently, is the same author page: refused for another member.
    const taken = await fieldErrors(services.profiles.save(editor, editor.userId, { displayName: "BIA reporter" }, null));
    expect(taken.displayName).toEqual([t.profile.displayNameTaken]);
    // An account outside the team has no profile to edit.
    const outsider = await createMember(services, "reporter");
    await services.team.revoke({ userId: admin.userId, email: admin.email }, outsider.id);
    await expect(services.profiles.save(admin, outsider.id, { displayName: "Fora" }, null)).rejects.toMatchObject({ status: 404 });
  });

  it("a foto passa pela mídia do site, a varredura de órfãos não a apaga, e a trocada é removida", async () => {
    const services = await open();
    const ana = await member(services, "reporter");
    const first = await services.profiles.save(ana, ana.userId, { displayName: "Ana Foto" }, await photo(services));
    expect(first.photo).toMatchObject({ kind: "image" });
    const firstId = (await services.database.db.selectFrom("member_profiles").select("photo_media_id").executeTakeFirstOrThrow()).photo_media_id!;
    expect(await deleteMediaIfUnreferenced(services.database.db, firstId)).toBe(false);

    await services.profiles.save(ana, ana.userId, { displayName: "Ana Foto" }, await photo(services));
    const secondId = (await services.database.db.selectFrom("member_profiles").select("photo_media_id").executeTakeFirstOrThrow()).photo_media_id!;
    expect(secondId).not.toBe(firstId);
    expect(await services.database.db.selectFrom("media").select("id").where("id", "=", firstId).executeTakeFirst()).toBeUndefined();

    // Saved without a new file, the photo stays; "Remover a foto" removes it.
    expect((await services.profiles.save(ana, ana.userId, { displayName: "Ana Foto", bio: "nova" }, null)).photo).not.toBeNull();
    expect((await services.profiles.save(ana, ana.userId, { displayName: "Ana Foto", removePhoto: "on" }, null)).photo).toBeNull();
    expect(await services.database.db.selectFrom("media").select("id").where("id", "=", secondId).executeTakeFirst()).toBeUndefined();
  });
});

describe("o autor de uma notícia como pessoa", () => {
  const input = (fields: Record<string, unknown>) =>
    newsInputSchema.parse({ title: "Título", subtitle: "Subtítulo", fullContent: "Texto", category: "Vôlei", ...fields });

  it("um membro escolhido é ligado à notícia (author_user_id); um nome livre não; a troca de autor troca a ligação", async () => {
    const services = await open();
    const reporter = await member(services, "reporter", "carla");
    const editor = await member(services, "editor");
    await services.profiles.save(reporter, reporter.userId, { displayName: "Carla Campos", bio: "Repórter de vôlei." }, null);
    expect((await services.profiles.memberAuthors()).map((author) => author.displayName)).toContain("Carla Campos");

    const mine = await services.newsEditor.createNews(input({ author: "carla campos", status: "draft" }), null, memberActor(reporter));
    const row = () =>
      services.database.db.selectFrom("news").select(["author", "author_slug", "author_user_id"]).where("id", "=", mine.id).executeTakeFirstOrThrow();
    // Typed in another spelling, the member's own spelling is shown.
    expect(await row()).toEqual({ author: "Carla Campos", author_slug: "carla-campos", author_user_id: reporter.userId });
    expect(await services.profiles.bylineOfStory(mine.id)).toMatchObject({ name: "Carla Campos", bio: "Repórter de vôlei.", slug: "carla-campos" });

    await services.newsEditor.patchNews(mine.id, newsPatchSchema.parse({ author: "Agência Estado" }), null, memberActor(editor));
    expect(await row()).toEqual({ author: "Agência Estado", author_slug: "agencia-estado", author_user_id: null });
    expect(await services.profiles.bylineOfStory(mine.id)).toBeNull();
    expect(await services.profiles.personOfSlug("agencia-estado")).toBeNull();

    await services.newsEditor.patchNews(mine.id, newsPatchSchema.parse({ author: "Carla Campos", status: "published" }), null, memberActor(editor));
    expect((await row()).author_user_id).toBe(reporter.userId);
    expect(await services.profiles.personOfSlug("carla-campos")).toMatchObject({ name: "Carla Campos", slug: "carla-campos" });
    // What readers get of a person never holds the account's internal id.
    expect(JSON.stringify(await services.profiles.personOfSlug("carla-campos"))).not.toContain(reporter.userId);
    expect(JSON.stringify(await services.profiles.bylineOfStory(mine.id))).not.toContain(reporter.userId);

    // Renamed, the member's stories follow: the byline shows the new name, the new page lists them, the old one
    // redirects there.
    await services.profiles.save(reporter, reporter.userId, { displayName: "Carla C. Souza" }, null);
    expect(await row()).toEqual({ author: "Carla C. Souza", author_slug: "carla-c-souza", author_user_id: reporter.userId });
    expect(await services.profiles.bylineOfStory(mine.id)).toMatchObject({ name: "Carla C. Souza", slug: "carla-c-souza" });
    expect(await services.news.getTerm("author", "carla-c-souza")).toMatchObject({ name: "Carla C. Souza" });
    expect((await services.news.listNewsPage({ limit: 10, authorSlug: "carla-c-souza" })).items.map((item) => item.id)).toEqual([mine.id]);
    expect(await services.profiles.renamedAuthorPath("carla-campos")).toBe("/autor/carla-c-souza");
    expect(await services.profiles.renamedAuthorPath("carla-c-souza")).toBeNull();
    expect(await services.profiles.renamedAuthorPath("agencia-estado")).toBeNull();
    // An edit from a form opened before the rename (the old name as author) keeps the story hers, under her new name.
    await services.newsEditor.patchNews(mine.id, newsPatchSchema.parse({ author: "Carla Campos", title: "Título novo" }), null, memberActor(editor));
    expect(await row()).toEqual({ author: "Carla C. Souza", author_slug: "carla-c-souza", author_user_id: reporter.userId });

    // Renamed again: both old pages lead to the newest; taking an old name back ends that redirect.
    await services.profiles.save(reporter, reporter.userId, { displayName: "Carla Souza" }, null);
    expect(await services.profiles.renamedAuthorPath("carla-campos")).toBe("/autor/carla-souza");
    expect(await services.profiles.renamedAuthorPath("carla-c-souza")).toBe("/autor/carla-souza");
    await services.profiles.save(reporter, reporter.userId, { displayName: "Carla Campos" }, null);
    expect(await services.profiles.renamedAuthorPath("carla-campos")).toBeNull();
    expect(await services.profiles.renamedAuthorPath("carla-souza")).toBe("/autor/carla-campos");
    expect(await row()).toEqual({ author: "Carla Campos", author_slug: "carla-campos", author_user_id: reporter.userId });
  });
});

describe("a migração 2026-11-28-951 (renomes de autor)", () => {
  it("as notícias de quem já tinha mudado de nome passam ao nome atual; os endereços antigos viram apelidos", async () => {
    const dataDir = makeDataDir("eef-author-renames-");
    const postgres = TEST_DATABASE === "postgres" ? await createPostgresDatabase() : null;
    const handle = openDatabase({
      database: postgres ? { kind: "postgres", url: postgres.url, poolSize: 2 } : { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") },
    });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-28-951"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      const at = "2026-01-01T00:00:00.000Z";
      const profile = (user_id: string, display_name: string, slug: string) => ({ user_id, display_name, slug, bio: "", updated_at: at });
      await db
        .insertInto("member_profiles")
        .values([profile("u-carla", "Carla Souza", "carla-souza"), profile("u-davi", "Davi Lima", "davi-lima")])
        .execute();
      const story = (id: string, author: string, author_slug: string, author_user_id: string | null) => ({
        id,
        title: id,
        subtitle: "",
        full_content: "",
        category: "Vôlei",
        category_slug: "volei",
        author,
        author_slug,
        author_user_id,
        is_highlighted: 0,
        media_id: null,
        created_at: at,
        updated_at: at,
        status: "published",
        published_at: at,
      });
      await db
        .insertInto("news")
        .values([
          story("antiga-da-carla", "Carla Campos", "carla-campos", "u-carla"),
          story("nova-da-carla", "Carla Souza", "carla-souza", "u-carla"),
          story("do-davi", "Davi Lima", "davi-lima", "u-davi"),
          story("da-agencia", "Agência Estado", "agencia-estado", null),
        ])
        .execute();

      expect(await migrateToLatest(db)).toContain("2026-11-28-951-author-renames");
      const rows = await db.selectFrom("news").select(["id", "author", "author_slug"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "antiga-da-carla", author: "Carla Souza", author_slug: "carla-souza" },
        { id: "da-agencia", author: "Agência Estado", author_slug: "agencia-estado" },
        { id: "do-davi", author: "Davi Lima", author_slug: "davi-lima" },
        { id: "nova-da-carla", author: "Carla Souza", author_slug: "carla-souza" },
      ]);
      expect(await db.selectFrom("author_slug_aliases").select(["slug", "user_id"]).execute()).toEqual([
        { slug: "carla-campos", user_id: "u-carla" },
      ]);
      const term = await db
        .selectFrom("taxonomy_terms")
        .select("name")
        .where("kind", "=", "author")
        .where("slug", "=", "carla-souza")
        .executeTakeFirst();
      expect(term).toEqual({ name: "Carla Souza" });
    } finally {
      await handle.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a página /perfil (loader e ação)", () => {
  function contextOf(services: TestServices): RouterContextProvider {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    return context;
  }

  async function cookieOf(services: TestServices, role: Role) {
    const account = await createMember(services, role);
    const result = await services.auth.signInWithPassword({ ...account, ip: "10.8.0.1", headers: new Headers() });
    if (!result.ok) throw new Error(`sign-in failed: ${result.message}`);
    return { id: account.id, cookie: /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")![0] };
  }

  it("o repórter abre o próprio perfil; o de outra pessoa é 403 na página e na ação, sem gravar nada", async () => {
    const services = await open();
    const context = contextOf(services);
    const reporter = await cookieOf(services, "reporter");
    const editor = await cookieOf(services, "editor");
    const url = (query = "") => `http://127.0.0.1:4321/perfil${query}`;
    const own = await profileRoute.loader({ request: new Request(url(), { headers: { cookie: reporter.cookie } }), context, params: {} } as never);
    expect(own).toMatchObject({ own: true, person: { name: expect.any(String) } });

    const other = `?membro=${encodeURIComponent(editor.id)}`;
    const thrown = await profileRoute
      .loader({ request: new Request(url(other), { headers: { cookie: reporter.cookie } }), context, params: {} } as never)
      .catch((error: unknown) => error);
    expect(thrown).toMatchObject({ init: { status: 403 }, data: { code: "profile_not_yours" } });

    const form = new URLSearchParams({ displayName: "Invasor" });
    const answer = await profileRoute.action({
      request: new Request(url(other), {
        method: "POST",
        headers: { cookie: reporter.cookie, "content-type": "application/x-www-form-urlencoded" },
        body: form,
      }),
      context,
      params: {},
    } as never);
    expect(answer).toMatchObject({ init: { status: 403 } });
    expect(await services.database.db.selectFrom("member_profiles").selectAll().execute()).toEqual([]);
  });
});
