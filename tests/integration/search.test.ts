import fs from "node:fs";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import { seedBulkNews } from "#app/.server/seed/bulk-news.server.ts";
import { MAX_SEARCH_PAGE, parseSearchPage, type SearchHit } from "#app/.server/search/search.service.server.ts";
import { excerpt, highlight, queryTerms, searchText } from "#app/.server/search/portuguese.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import { migrations } from "#migrations/index.ts";
import { createNews } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { testsActor } from "#tests/factories/actors.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

const at = (minutes: number) => new Date(Date.UTC(2026, 9, 1, 12, 0, 0) + minutes * 60_000).toISOString();
const titles = (hits: SearchHit[]) => hits.map((hit) => hit.title);

describe("Portuguese text processing", () => {
  it("folds accents and case, drops stop words and stems", () => {
    expect(searchText("A Seleção fez 2 GOLS em São Paulo")).toBe(searchText("a selecao fez 2 gol em sao paulo"));
    expect(queryTerms("gols")).toEqual(queryTerms("gol"));
    expect(queryTerms("jogadores")).toEqual(queryTerms("jogador"));
    // Stop words only: nothing to search.
    expect(queryTerms("de que o")).toEqual([]);
    expect(queryTerms('  "*" -:() ')).toEqual([]);
  });

  it("turns query syntax into plain words", () => {
    expect(queryTerms('"gol" AND (seleção) NEAR -título: *')).toEqual(queryTerms("gol and selecao near titulo"));
    expect(queryTerms("x ".repeat(500)).length).toBe(1);
    expect(queryTerms("um dois três quatro cinco seis sete oito nove dez onze").length).toBe(8);
  });

  it("highlights matched words as data, never as markup", () => {
    const parts = highlight("<b>Gols</b> da Seleção & cia", queryTerms("gol selecao"));
    expect(parts).toEqual([
      { text: "<b>", mark: false },
      { text: "Gols", mark: true },
      { text: "</b> da ", mark: false },
      { text: "Seleção", mark: true },
      { text: " & cia", mark: false },
    ]);
    expect(highlight("Nada aqui", queryTerms("gol"))).toEqual([{ text: "Nada aqui", mark: false }]);
  });

  it("cuts an excerpt around the first match, at word boundaries", () => {
    const text = `${"palavra ".repeat(60)}o goleiro defendeu o pênalti ${"fim ".repeat(60)}`;
    const passage = excerpt(text, queryTerms("pênalti"))!;
    expect(passage).toContain("pênalti");
    expect(passage.startsWith("…")).toBe(true);
    expect(passage.endsWith("…")).toBe(true);
    expect(passage.length).toBeLessThanOrEqual(182);
    expect(excerpt(text, queryTerms("basquete"))).toBeNull();
  });

  it("reads the page parameter strictly", () => {
    expect(parseSearchPage(null)).toBe(1);
    expect(parseSearchPage("3")).toBe(3);
    for (const bad of ["0", "-1", "1.5", "abc", String(MAX_SEARCH_PAGE + 1), "99999"]) {
      expect(() => parseSearchPage(bad)).toThrow(/Página de resultados inválida/);
    }
  });
});

describe(`search on ${TEST_DATABASE}`, () => {
  let services: Services;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    services = await createTestServices(makeDataDir("eef-search-"));
    const add = async (key: string, title: string, subtitle: string, fullContent: string, minutes: number) => {
      ids[key] = await createNews(services, { media: null, title, subtitle, fullContent, createdAt: at(minutes) });
    };
    await add("selecao", "Seleção vence e garante vaga", "Time de Ancelotti jogou bem", "Partida tranquila no Maracanã.", 1);
    await add("gol", "Gol no último minuto decide clássico", "Torcida comemora", "O atacante marcou de cabeça.", 2);
    await add("saoPaulo", "São Paulo anuncia reforço", "Meia chega ao Morumbi", "Contrato até 2028.", 3);
    // Ranking: "goleiro" in the title of one, only in the subtitle of a newer one, only in the text of the newest.
    // The title match is the longer item (length alone would rank it lower) and the older one.
    await add("titleMatch", "Goleiro renova contrato por três anos", "Clube confirma acordo longo com o atleta titular", "Acordo longo.", 4);
    await add("subtitleMatch", "Clube confirma", "Goleiro renova", "Acordo.", 5);
    await add("textMatch", "Clube anuncia novidades", "Mudanças no elenco", `${"Texto de abertura. ".repeat(20)}O goleiro também fica.`, 6);
  });
  afterAll(async () => {
    await services.close();
    fs.rmSync(services.dataDir, { recursive: true, force: true });
  });

  it("finds words without their accents, and accented words from plain ones", async () => {
    expect(titles((await services.search.search({ query: "selecao" })).hits)).toEqual(["Seleção vence e garante vaga"]);
    expect(titles((await services.search.search({ query: "SELEÇÃO" })).hits)).toEqual(["Seleção vence e garante vaga"]);
    expect(titles((await services.search.search({ query: "maracana" })).hits)).toEqual(["Seleção vence e garante vaga"]);
  });

  it("finds the singular from the plural and words by their stem", async () => {
    expect(titles((await services.search.search({ query: "gols" })).hits)).toEqual(["Gol no último minuto decide clássico"]);
    expect(titles((await services.search.search({ query: "clássicos" })).hits)).toEqual(["Gol no último minuto decide clássico"]);
    expect(titles((await services.search.search({ query: "contratos" })).hits).sort()).toEqual(
      ["Goleiro renova contrato por três anos", "São Paulo anuncia reforço"].sort(),
    );
  });

  it('"sao paulo" finds "São Paulo" (every word must match)', async () => {
    const page = await services.search.search({ query: "sao paulo" });
    expect(titles(page.hits)).toEqual(["São Paulo anuncia reforço"]);
    expect(page.hits[0]!.titleParts).toEqual([
      { text: "São", mark: true },
      { text: " ", mark: false },
      { text: "Paulo", mark: true },
      { text: " anuncia reforço", mark: false },
    ]);
    expect(titles((await services.search.search({ query: "sao paulo basquete" })).hits)).toEqual([]);
  });

  it("ranks a title match before a subtitle match before a full-text match, whatever their age", async () => {
    const page = await services.search.search({ query: "goleiro" });
    expect(page.hits.map((hit) => hit.id)).toEqual([ids.titleMatch, ids.subtitleMatch, ids.textMatch]);
    // Found in the full text only: an excerpt shows why.
    const fromText = page.hits[2]!;
    expect(fromText.excerptParts?.some((part) => part.mark && part.text === "goleiro")).toBe(true);
    expect(page.hits[0]!.excerptParts).toBeNull();
  });

  it("never fails on query syntax: quotes, operators, parentheses", async () => {
    const queries = [
      '"',
      '""',
      "'",
      "*",
      "gol*",
      "-gol",
      "gol -clássico",
      "title:gol",
      "NEAR(gol minuto)",
      "gol AND",
      "AND",
      "OR OR",
      "NOT",
      "(gol",
      "gol)",
      "^gol",
      "{gol}",
      "gol + minuto",
      "gol & minuto | x",
      "!gol",
      "gol <-> minuto",
      "\\",
      "%_",
      "'; drop table news; --",
      "<img src=x onerror=alert(1)>",
      "\u0000gol",
      "😀 gol",
    ];
    for (const query of queries) {
      const page = await services.search.search({ query });
      expect(Array.isArray(page.hits)).toBe(true);
    }
    expect(titles((await services.search.search({ query: 'NEAR("gol" minuto*)' })).hits)).toEqual([]);
    expect(titles((await services.search.search({ query: '"gol" (minuto*)' })).hits)).toEqual(["Gol no último minuto decide clássico"]);
  });

  it("finds nothing for an empty or unsearchable query", async () => {
    for (const query of ["", "   ", "de o que", "?!"]) {
      const page = await services.search.search({ query });
      expect(page).toMatchObject({ terms: [], hits: [], nextPage: null });
    }
  });

  it("keeps the index in sync on create, edit and delete through the editor", async () => {
    const none = { isHighlighted: false, removeMedia: false } as const;
    const { id } = await services.newsEditor.createNews(
      { title: "Basquete: Franca é campeão", subtitle: "Final emocionante", ...none },
      null,
      testsActor,
    );
    expect((await services.search.search({ query: "franca" })).hits.map((hit) => hit.id)).toEqual([id]);
    await services.newsEditor.updateNews(id, { title: "Vôlei: Minas é campeão", subtitle: "Final emocionante", ...none }, null, testsActor);
    expect((await services.search.search({ query: "franca" })).hits).toEqual([]);
    expect((await services.search.search({ query: "volei minas" })).hits.map((hit) => hit.id)).toEqual([id]);
    await services.newsEditor.patchNews(id, { fullContent: "Ginásio lotado em Uberlândia." }, null, testsActor);
    expect((await services.search.search({ query: "uberlandia" })).hits.map((hit) => hit.id)).toEqual([id]);
    await services.newsEditor.deleteNews(id, testsActor);
    expect((await services.search.search({ query: "volei" })).hits).toEqual([]);
    expect((await services.search.search({ query: "uberlandia" })).hits).toEqual([]);
  });

  it("keeps the index in sync for rows written directly (bulk seed, raw SQL)", async () => {
    const db = services.database.db;
    await db
      .insertInto("news")
      .values({
        id: "direta-1",
        title: "Xadrez: brasileira avança",
        subtitle: "Torneio em Baku",
        full_content: "x",
        category: "Xadrez",
        author: "Redação",
        is_highlighted: 0,
        media_id: null,
        created_at: at(100),
        published_at: at(100),
        updated_at: at(100),
      })
      .execute();
    expect((await services.search.search({ query: "xadrez baku" })).hits.map((hit) => hit.id)).toEqual(["direta-1"]);
    await db.updateTable("news").set({ subtitle: "Torneio em Tbilisi" }).where("id", "=", "direta-1").execute();
    expect((await services.search.search({ query: "baku" })).hits).toEqual([]);
    expect((await services.search.search({ query: "tbilisi" })).hits.map((hit) => hit.id)).toEqual(["direta-1"]);
    await db.deleteFrom("news").where("id", "=", "direta-1").execute();
    expect((await services.search.search({ query: "xadrez" })).hits).toEqual([]);
  });

  it("pages the results: each once, in rank order, with a next page until the last", async () => {
    const other = await createTestServices(makeDataDir("eef-search-paging-"));
    try {
      for (let i = 0; i < 7; i++) {
        await createNews(other, { media: null, title: `Rodada ${i} do Brasileirão`, subtitle: "Resumo", fullContent: "Jogos.", createdAt: at(i) });
      }
      await createNews(other, { media: null, title: "Outra coisa", subtitle: "Nada", fullContent: "Nada.", createdAt: at(50) });
      const seen: string[] = [];
      let page: number | null = 1;
      const pages: number[] = [];
      while (page) {
        const result = await other.search.search({ query: "rodadas brasileirao", page, limit: 3 });
        pages.push(result.hits.length);
        seen.push(...titles(result.hits));
        page = result.nextPage;
      }
      expect(pages).toEqual([3, 3, 1]);
      // Same rank (one title match each): newest first.
      expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Rodada ${i} do Brasileirão`));
    } finally {
      await other.close();
      fs.rmSync(other.dataDir, { recursive: true, force: true });
    }
  });

  it("pages are filled from published matches only: drafts and scheduled news take no place, even ranked first", async () => {
    const other = await createTestServices(makeDataDir("eef-search-embargo-"));
    try {
      const input = (title: string, subtitle: string, publishing: Record<string, string>) =>
        newsInputSchema.parse({ title, subtitle, fullContent: "Texto.", category: "Futebol", ...publishing });
      // Published: the word only in the subtitle (ranks low). Unpublished: the word in the title (ranks first).
      for (let i = 0; i < 5; i++) await other.newsEditor.createNews(input(`Notícia ${i}`, `Resumo da zagueira ${i}`, {}), null, testsActor);
      const hidden: string[] = [];
      for (let i = 0; i < 4; i++) {
        hidden.push((await other.newsEditor.createNews(input(`Zagueira rascunho ${i}`, "Sub", { status: "draft" }), null, testsActor)).id);
      }
      const future = new Date(Date.now() + 86_400_000).toISOString();
      hidden.push(
        (await other.newsEditor.createNews(input("Zagueira agendada", "Sub", { status: "scheduled", publishAt: future }), null, testsActor)).id,
      );
      const pages: number[] = [];
      const seen: string[] = [];
      let page: number | null = 1;
      while (page) {
        const result = await other.search.search({ query: "zagueira", page, limit: 3 });
        pages.push(result.hits.length);
        seen.push(...result.hits.map((hit) => hit.id));
        page = result.nextPage;
      }
      expect(pages).toEqual([3, 2]);
      expect(seen.filter((id) => hidden.includes(id))).toEqual([]);
      expect(new Set(seen).size).toBe(5);

      // Published, it is found (first: a title match); back to draft, gone again.
      await other.newsEditor.patchNews(hidden[0]!, newsPatchSchema.parse({ status: "published" }), null, testsActor);
      expect((await other.search.search({ query: "zagueira", limit: 3 })).hits[0]?.id).toBe(hidden[0]);
      await other.newsEditor.patchNews(hidden[0]!, newsPatchSchema.parse({ status: "draft" }), null, testsActor);
      const again = await other.search.search({ query: "zagueira", limit: 3 });
      expect(again.hits.map((hit) => hit.id)).not.toContain(hidden[0]);
      expect(again.hits).toHaveLength(3);
      // The words of an unpublished story alone find nothing.
      expect((await other.search.search({ query: "rascunho" })).hits).toEqual([]);
      expect((await other.search.search({ query: "agendada" })).hits).toEqual([]);
    } finally {
      await other.close();
      fs.rmSync(other.dataDir, { recursive: true, force: true });
    }
  });

  it("indexes the news of the bulk seed and rows that existed before the migration", async () => {
    const other = await createTestServices(makeDataDir("eef-search-bulk-"));
    try {
      const result = await seedBulkNews(other, { count: 60, withImages: 0, seed: 7 });
      expect(result.inserted).toBe(60);
      const [row] = await other.database.db.selectFrom("news").select(["id", "title"]).orderBy("created_at", "desc").limit(1).execute();
      const word = row!.title.split(/\s+/).find((candidate) => candidate.length > 5)!;
      const found = await other.search.search({ query: row!.title, limit: 100 });
      expect(found.hits.map((hit) => hit.id)).toContain(row!.id);
      expect((await other.search.search({ query: word, limit: 100 })).hits.length).toBeGreaterThan(0);

      // Undo and redo the search migration: the rows already there are indexed again.
      const { migrations } = await import("#migrations/index.ts");
      const migration = migrations["2026-11-24-001-news-search"]!;
      await migration.down!(other.database.db);
      await migration.up(other.database.db);
      expect((await other.search.search({ query: row!.title, limit: 100 })).hits.map((hit) => hit.id)).toContain(row!.id);
      const count = await other.search.search({ query: word, limit: 100 });
      expect(count.hits.length).toBeGreaterThan(0);
    } finally {
      await other.close();
      fs.rmSync(other.dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(TEST_DATABASE === "sqlite")("stores stems in a contentless FTS5 table with the unicode61 tokenizer", async () => {
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'news_fts'`.execute(services.database.db);
    expect(rows[0]!.sql).toMatch(/content\s*=\s*''/);
    expect(rows[0]!.sql).toMatch(/unicode61 remove_diacritics 2/);
  });

  it.runIf(TEST_DATABASE === "postgres")("uses a GIN index for the match on PostgreSQL", async () => {
    // One connection: the setting is per session. (A table of a few rows is read whole otherwise.)
    await services.database.db.connection().execute(async (db) => {
      await sql`set enable_seqscan = off`.execute(db);
      try {
        const { rows } = await sql<{ "QUERY PLAN": string }>`explain select id from news
          where search_document @@ plainto_tsquery('portuguese'::regconfig, eef_search_normalize('goleiro'))`.execute(db);
        expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/news_search_idx/);
      } finally {
        await sql`reset enable_seqscan`.execute(db);
      }
    });
  });
});

describe.skipIf(TEST_DATABASE === "postgres")("the published-only index migration (SQLite)", () => {
  it("takes the drafts and scheduled news indexed before it out of the index, keeps the published", async () => {
    const dataDir = makeDataDir("eef-search-migration-");
    const handle = openDatabase({ database: { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") } });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-26-500"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      const row = (id: string, status: string) => ({
        id,
        title: `Goleira ${id}`,
        subtitle: "s",
        full_content: "c",
        category: "Futebol",
        author: "Ana",
        category_slug: "futebol",
        author_slug: "ana",
        is_highlighted: 0,
        media_id: null,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
        published_at: "2026-01-01T00:00:00.000Z",
        status,
      });
      await db
        .insertInto("news")
        .values([row("publicada", "published"), row("rascunho", "draft"), row("agendada", "scheduled")])
        .execute();
      const indexed = async () =>
        (
          await sql<{ id: string }>`select d.news_id as id from news_fts f join news_search_docs d on d.doc = f.rowid
            where news_fts match ${'"goleir"'} order by d.news_id`.execute(db)
        ).rows.map((found) => found.id);
      expect(await indexed()).toEqual(["agendada", "publicada", "rascunho"]);
      await migrateToLatest(db);
      expect(await indexed()).toEqual(["publicada"]);
      // The scheduler's flip (a plain update of the status) indexes it.
      await db.updateTable("news").set({ status: "published" }).where("id", "=", "agendada").execute();
      expect(await indexed()).toEqual(["agendada", "publicada"]);
    } finally {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
