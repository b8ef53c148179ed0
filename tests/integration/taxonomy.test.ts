import fs from "node:fs";
import path from "node:path";
import { type CompiledQuery, type Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { parseSitemap } from "sitemap";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import { termSlug } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import { migrations } from "#migrations/index.ts";
import { createNews } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-taxonomy-");

const input = (fields: Record<string, unknown>) => newsInputSchema.parse({ subtitle: "Sub", ...fields });

async function listAll(services: TestServices, filter: { categorySlug?: string; authorSlug?: string }, limit = 2) {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<TestServices["news"]["listNewsPage"]>> = await services.news.listNewsPage({ ...filter, cursor, limit });
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe("categories and authors", () => {
  it("slugs fold accents and case; the first spelling used is the one kept", async () => {
    expect(termSlug("Vôlei")).toBe("volei");
    expect(termSlug("  VÔLEI de Praia ")).toBe("volei-de-praia");
    expect(termSlug("⚽")).toMatch(/^t-[0-9a-f]+$/);
    const services = await open();
    const first = await services.newsEditor.createNews(input({ title: "Primeira", category: "Vôlei", author: "Ana Repórter" }), null, testsActor);
    const second = await services.newsEditor.createNews(input({ title: "Segunda", category: "volei", author: "ana reporter" }), null, testsActor);
    await services.newsEditor.createNews(input({ title: "Outra", category: "Futebol" }), null, testsActor);
    for (const { id } of [first, second]) {
      const article = await services.news.getNews(id);
      expect(article).toMatchObject({ category: "Vôlei", categorySlug: "volei", author: "Ana Repórter", authorSlug: "ana-reporter" });
    }
    expect(await services.news.getTerm("category", "volei")).toEqual({ kind: "category", slug: "volei", name: "Vôlei" });
    expect(await services.news.getTerm("author", "ana-reporter")).toMatchObject({ name: "Ana Repórter" });
    expect((await listAll(services, { categorySlug: "volei" })).sort()).toEqual([first.id, second.id].sort());
    expect((await listAll(services, { authorSlug: "ana-reporter" })).sort()).toEqual([first.id, second.id].sort());
    expect(await services.news.listCategories()).toEqual(["Futebol", "Vôlei"]);
  });

  it("an unknown slug (or one that cannot be a slug) is a 404", async () => {
    const services = await open();
    await expect(services.news.getTerm("category", "nao-existe")).rejects.toMatchObject({ status: 404, message: "Categoria não encontrada" });
    await expect(services.news.getTerm("author", "Ana Repórter")).rejects.toMatchObject({ status: 404, message: "Autor não encontrado" });
  });

  it("editing (PUT or PATCH) moves a news item to its new category and author pages", async () => {
    const services = await open();
    const { id } = await services.newsEditor.createNews(input({ title: "Muda", category: "Basquete", author: "Bia" }), null, testsActor);
    await services.newsEditor.createNews(input({ title: "Fica", category: "Handebol" }), null, testsActor);
    await services.newsEditor.patchNews(id, newsPatchSchema.parse({ category: "handebol" }), null, testsActor);
    expect(await services.news.getNews(id)).toMatchObject({ category: "Handebol", categorySlug: "handebol" });
    expect(await listAll(services, { categorySlug: "basquete" })).toEqual([]);
    await services.newsEditor.updateNews(id, input({ title: "Muda", category: "Natação", author: "Caio" }), null, testsActor);
    expect(await services.news.getNews(id)).toMatchObject({ categorySlug: "natacao", authorSlug: "caio" });
    expect(await listAll(services, { authorSlug: "caio" })).toEqual([id]);
    // A category nobody uses any more is no page at all, and no longer suggested.
    expect(await listAll(services, { categorySlug: "basquete" })).toEqual([]);
    await expect(services.news.getTerm("category", "basquete")).rejects.toMatchObject({ status: 404 });
    expect(await services.news.listCategories()).toEqual(["Handebol", "Natação"]);
  });

  it("a category's pages follow the list's order and keyset cursor, with nothing from other categories", async () => {
    const services = await open();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(await createNews(services, { media: null, category: i % 2 ? "Tênis" : "Futebol", createdAt: new Date(Date.UTC(2026, 0, 1, 12, i)) }));
    }
    const tennis = ids.filter((_, i) => i % 2).reverse();
    expect(await listAll(services, { categorySlug: "tenis" })).toEqual(tennis);
    expect(await listAll(services, { categorySlug: "tenis" }, 1)).toEqual(tennis);
  });

  it("a category or author only drafts or scheduled news use answers like one never used, everywhere a reader looks", async () => {
    const services = await open();
    const site = { name: "Esporte em Foco", url: "https://esporte.example.com.br", description: "", defaultAuthor: "Redação Esporte em Foco" };
    const syndication = createSyndication({ db: services.database.db, store: services.store, site });
    await services.newsEditor.createNews(input({ title: "Pública", category: "Futebol", author: "Ana" }), null, testsActor);
    const draft = await services.newsEditor.createNews(
      input({ title: "Embargo", category: "Embargo Plugh", author: "Fonte Xyzzy", status: "draft" }),
      null,
      testsActor,
    );
    const future = new Date(Date.now() + 86_400_000).toISOString();
    await services.newsEditor.createNews(
      input({ title: "Agendada", category: "Agenda Quux", author: "Fonte Quux", status: "scheduled", publishAt: future }),
      null,
      testsActor,
    );
    const never = await services.news.getTerm("category", "nunca-usada").catch((error: unknown) => error);
    for (const [kind, slug] of [
      ["category", "embargo-plugh"],
      ["author", "fonte-xyzzy"],
      ["category", "agenda-quux"],
      ["author", "fonte-quux"],
    ] as const) {
      const answer = await services.news.getTerm(kind, slug).catch((error: unknown) => error);
      expect(answer, `${kind} ${slug}`).toMatchObject({ status: 404 });
      if (kind === "category") expect(answer).toEqual(never);
      expect(await listAll(services, kind === "category" ? { categorySlug: slug } : { authorSlug: slug })).toEqual([]);
    }
    const sitemap = (await parseSitemap(await syndication.sitemapPages())).map((entry) => entry.url).join(" ");
    expect(sitemap).toContain("/categoria/futebol");
    for (const secret of ["embargo", "xyzzy", "quux", "agenda"]) expect(sitemap).not.toContain(secret);
    const feed = await syndication.rss({ highlightedOnly: false });
    for (const secret of ["Embargo", "Xyzzy", "Quux", "Agendada"]) expect(feed).not.toContain(secret);

    // Published, the pages exist; back to draft, they are gone again.
    await services.newsEditor.patchNews(draft.id, newsPatchSchema.parse({ status: "published" }), null, testsActor);
    expect(await services.news.getTerm("category", "embargo-plugh")).toMatchObject({ name: "Embargo Plugh" });
    expect(await services.news.getTerm("author", "fonte-xyzzy")).toMatchObject({ name: "Fonte Xyzzy" });
    await services.newsEditor.patchNews(draft.id, newsPatchSchema.parse({ status: "draft" }), null, testsActor);
    await expect(services.news.getTerm("category", "embargo-plugh")).rejects.toMatchObject({ status: 404 });
  });

  it("the pages sitemap lists each category and author page that has news", async () => {
    const services = await open();
    await createNews(services, { media: null, category: "Vôlei", author: "Ana Repórter" });
    await createNews(services, { media: null, category: "volei", author: "Redação Esporte em Foco" });
    const site = { name: "Esporte em Foco", url: "https://esporte.example.com.br", description: "", defaultAuthor: "Redação Esporte em Foco" };
    const entries = await parseSitemap(await createSyndication({ db: services.database.db, store: services.store, site }).sitemapPages());
    const urls = entries.map((entry) => entry.url);
    expect(urls).toContain(`${site.url}/categoria/volei`);
    expect(urls).toContain(`${site.url}/autor/ana-reporter`);
    expect(urls).toContain(`${site.url}/autor/redacao-esporte-em-foco`);
    expect(urls.filter((url) => url.includes("/categoria/"))).toHaveLength(1);
  });
});

describe.skipIf(TEST_DATABASE === "postgres")("the taxonomy migration", () => {
  it("fills the slugs of existing news and keeps each category's first spelling", async () => {
    const dataDir = makeDataDir("eef-taxonomy-migration-");
    const handle = openDatabase({ database: { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") } });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-25-020"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      const row = (id: string, category: string, author: string, createdAt: string) => ({
        id,
        title: id,
        subtitle: "s",
        full_content: "c",
        category,
        author,
        is_highlighted: 0,
        media_id: null,
        created_at: createdAt,
        updated_at: createdAt,
      });
      await db
        .insertInto("news")
        .values([
          row("b", "volei", "Ana", "2026-01-02T00:00:00.000Z"),
          row("a", "Vôlei", "ANA", "2026-01-01T00:00:00.000Z"),
          row("c", "Futebol", "Bruno", "2026-01-03T00:00:00.000Z"),
        ])
        .execute();
      await migrateToLatest(db);
      const rows = await db.selectFrom("news").select(["id", "category", "category_slug", "author", "author_slug"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "a", category: "Vôlei", category_slug: "volei", author: "ANA", author_slug: "ana" },
        { id: "b", category: "Vôlei", category_slug: "volei", author: "ANA", author_slug: "ana" },
        { id: "c", category: "Futebol", category_slug: "futebol", author: "Bruno", author_slug: "bruno" },
      ]);
      const terms = await db.selectFrom("taxonomy_terms").select(["kind", "slug", "name"]).orderBy("kind").orderBy("slug").execute();
      expect(terms).toEqual([
        { kind: "author", slug: "ana", name: "ANA" },
        { kind: "author", slug: "bruno", name: "Bruno" },
        { kind: "category", slug: "futebol", name: "Futebol" },
        { kind: "category", slug: "volei", name: "Vôlei" },
      ]);
    } finally {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Every page of a category or an author is an index range scan in the list's order, like the list itself (see
 * migrations.test.ts): on SQLite the plan names the index and a range on (created_at, id) for a later page; on
 * PostgreSQL (sequential scans off, as the table is tiny) an index scan with no Sort node.
 */
describe("category and author pages use their indexes", () => {
  it("every page, on both databases", async () => {
    const queries: CompiledQuery[] = [];
    const services = await createTestServices(
      makeDataDir("eef-taxplan-"),
      {},
      {
        onQuery: (event) => {
          if (event.level === "query") queries.push(event.query);
        },
      },
    );
    try {
      for (let i = 0; i < 6; i++) {
        await createNews(services, { media: null, category: i % 2 ? "Vôlei" : "Futebol", author: i % 3 ? "Ana" : "Bruno" });
      }
      const plans: Array<{ plan: string; later: boolean }> = [];
      for (const filter of [{ categorySlug: "volei" }, { authorSlug: "ana" }]) {
        const first = await services.news.listNewsPage({ ...filter, limit: 1 });
        expect(first.nextCursor).not.toBeNull();
        for (const cursor of [null, first.nextCursor]) {
          queries.length = 0;
          await services.news.listNewsPage({ ...filter, limit: 1, cursor });
          const captured = [...queries];
          expect(captured).toHaveLength(1);
          await services.database.db.connection().execute(async (connection) => {
            if (TEST_DATABASE === "postgres") {
              await sql`set enable_seqscan = off`.execute(connection);
              const { rows } = await connection.executeQuery<{ "QUERY PLAN": string }>({
                ...captured[0]!,
                sql: `explain ${captured[0]!.sql}`,
              } as CompiledQuery<{ "QUERY PLAN": string }>);
              await sql`reset enable_seqscan`.execute(connection);
              plans.push({ plan: rows.map((row) => row["QUERY PLAN"]).join("\n"), later: Boolean(cursor) });
            } else {
              const { rows } = await connection.executeQuery<{ detail: string }>({
                ...captured[0]!,
                sql: `explain query plan ${captured[0]!.sql}`,
              } as CompiledQuery<{ detail: string }>);
              plans.push({ plan: rows.map((row) => row.detail).join(" | "), later: Boolean(cursor) });
            }
          });
        }
      }
      expect(plans).toHaveLength(4);
      for (const [index, { plan, later }] of plans.entries()) {
        const name = index < 2 ? "news_category_slug_idx" : "news_author_slug_idx";
        const column = index < 2 ? "category_slug" : "author_slug";
        if (TEST_DATABASE === "postgres") {
          // Either the readers' index (term, status, date) or the newsroom list's (term, date: migration
          // 2026-11-27-200), whichever the planner prefers for a table this small: both give the page in order, by
          // index, with no sort; with the newsroom's, the status is checked on the rows the index walks.
          const other = index < 2 ? "news_category_published_at_idx" : "news_author_published_at_idx";
          expect(plan).toMatch(new RegExp(`Index (Only )?Scan( Backward)? using (${name}|${other})`));
          expect(plan).not.toMatch(/^\s*(->\s*)?(Incremental )?Sort/m);
          if (later) expect(plan).toMatch(/Index Cond: .*ROW\(news\.published_at, news\.id\) < ROW|Index Cond: .*\(published_at, id\) < ROW/);
          expect(plan).toMatch(/(Index Cond|Filter): .*status = /);
          expect(plan).toMatch(new RegExp(`Index Cond: .*${column} = `));
        } else {
          expect(plan).toMatch(new RegExp(`SEARCH news USING (COVERING )?INDEX ${name} \\(${column}=\\?`));
          if (later) expect(plan).toMatch(new RegExp(`INDEX ${name} \\(${column}=\\? AND status=\\? AND \\(published_at,id\\)<\\(\\?,\\?\\)\\)`));
          expect(plan).not.toContain("TEMP B-TREE");
        }
      }
    } finally {
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    }
  });
});
