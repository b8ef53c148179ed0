import fs from "node:fs";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "#app/.server/db/schema.ts";
import { trigramSimilarity, vocabularyWords } from "#app/.server/search/portuguese.ts";
import { migrations } from "#migrations/index.ts";
import { createNews } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

const at = (minutes: number) => new Date(Date.UTC(2026, 9, 1, 12, 0, 0) + minutes * 60_000).toISOString();

/** A row written directly, as another program or the scheduler would: the database's triggers keep the search. */
async function insertRow(db: Kysely<Database>, id: string, title: string, category: string, status: "draft" | "published") {
  await db
    .insertInto("news")
    .values({
      id,
      title,
      subtitle: "s",
      full_content: "c",
      category,
      author: "Ana",
      category_slug: category.toLowerCase(),
      author_slug: "ana",
      is_highlighted: 0,
      media_id: null,
      created_at: at(0),
      updated_at: at(0),
      published_at: at(0),
      status,
    })
    .execute();
}

describe("the typo correction's words", () => {
  it("keeps folded words of 4 to 32 letters, once, without digits", () => {
    expect(vocabularyWords("Flamengo vence o Grêmio e SÃO PAULO empata: 2x1 no Fla-Flu flamengo")).toEqual([
      "flamengo",
      "vence",
      "gremio",
      "paulo",
      "empata",
    ]);
    expect(vocabularyWords("")).toEqual([]);
  });

  it("measures similarity as pg_trgm does (shared padded trigrams over all)", () => {
    // "  f"," fl","fla","lam","ame","go " shared; 8 + 9 - 6 distinct.
    expect(trigramSimilarity("flamego", "flamengo")).toBeCloseTo(6 / 11, 5);
    expect(trigramSimilarity("palmeras", "palmeiras")).toBeCloseTo(7 / 12, 5);
    expect(trigramSimilarity("volei", "volei")).toBe(1);
    expect(trigramSimilarity("tenis", "flamengo")).toBe(0);
  });
});

describe(`search that forgives, on ${TEST_DATABASE}`, () => {
  let services: Services;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    services = await createTestServices(makeDataDir("eef-search-typos-"));
    const add = async (key: string, input: { title: string; subtitle?: string; fullContent?: string; category?: string }, minutes: number) => {
      ids[key] = await createNews(services, {
        media: null,
        subtitle: "",
        fullContent: "Texto da notícia.",
        category: "Futebol",
        createdAt: at(minutes),
        ...input,
      });
    };
    await add("fla1", { title: "Flamengo vence o clássico no Maracanã" }, 1);
    await add("fla2", { title: "Flamengo anuncia reforço para a zaga" }, 2);
    await add("pal", { title: "Palmeiras empata fora de casa", subtitle: "Verdão segue líder" }, 3);
    // Sections the text never names.
    await add("mma", { title: "Brasileiro nocauteia no primeiro round", category: "MMA" }, 4);
    await add("f1a", { title: "Verstappen larga na pole em Interlagos", category: "Fórmula 1" }, 5);
    await add("f1b", { title: "Hamilton testa novo carro", category: "Fórmula 1" }, 6);
  });

  afterAll(async () => {
    await services?.close();
    if (services) fs.rmSync(services.dataDir, { recursive: true, force: true });
  });

  const search = (query: string) => services.search.search({ query });
  const found = async (query: string) => (await search(query)).hits.map((hit) => hit.id).sort();

  it('"flamego" finds Flamengo\'s stories and says what it searched for instead', async () => {
    const result = await search("flamego");
    expect(result.suggestion).toBe("Flamengo");
    expect(result.hits.map((hit) => hit.id).sort()).toEqual([ids.fla1, ids.fla2].sort());
    // The words marked are the corrected ones.
    expect(result.hits[0]!.titleParts.find((part) => part.mark)?.text).toBe("Flamengo");
    const palmeiras = await search("palmeras");
    expect(palmeiras.suggestion).toBe("Palmeiras");
    expect(palmeiras.hits.map((hit) => hit.id)).toEqual([ids.pal]);
  });

  it("corrects only the misspelled word of a longer query, and nothing when the query finds stories", async () => {
    const result = await search("flamego reforço");
    expect(result.suggestion).toBe("Flamengo reforço");
    expect(result.hits.map((hit) => hit.id)).toEqual([ids.fla2]);
    const exact = await search("flamengo");
    expect(exact.suggestion).toBeNull();
    expect(exact.hits).toHaveLength(2);
  });

  it("offers nothing for a word far from every known one, or too short to guess", async () => {
    for (const query of ["xilofone", "fla", "zzzz"]) {
      const result = await search(query);
      expect(result.suggestion, query).toBeNull();
      expect(result.hits, query).toEqual([]);
    }
  });

  it("searches the section: 'mma' and 'fórmula 1' find stories that never name it", async () => {
    expect(await found("mma")).toEqual([ids.mma]);
    expect(await found("fórmula 1")).toEqual([ids.f1a, ids.f1b].sort());
    expect(await found("formula")).toEqual([ids.f1a, ids.f1b].sort());
    // A section renamed: the index follows.
    await services.database.db.updateTable("news").set({ category: "Automobilismo" }).where("id", "=", ids.f1b!).execute();
    expect(await found("formula")).toEqual([ids.f1a]);
    expect(await found("automobilismo")).toEqual([ids.f1b]);
  });

  it("never learns a word from a draft: a typo of it finds nothing until the story is published", async () => {
    const id = "rascunho-zambrotta";
    await insertRow(services.database.db, id, "Zambrotta deixa o comando do time", "Futebol", "draft");
    const words = async () => (await services.database.db.selectFrom("search_words").select("word").where("word", "=", "zambrotta").execute()).length;
    expect(await words()).toBe(0);
    expect(await search("zambrota")).toMatchObject({ hits: [], suggestion: null });

    await services.database.db.updateTable("news").set({ status: "published" }).where("id", "=", id).execute();
    expect(await words()).toBe(1);
    const published = await search("zambrota");
    expect(published.suggestion).toBe("Zambrotta");
    expect(published.hits.map((hit) => hit.id)).toEqual([id]);

    // Back to draft: the word stays known, but a correction that finds nothing is not offered.
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", id).execute();
    expect(await search("zambrota")).toMatchObject({ hits: [], suggestion: null });
  });

  it("pages a corrected query's results under the corrected query", async () => {
    for (let index = 0; index < 25; index++) {
      await createNews(services, { media: null, title: `Corinthians: notícia ${index}`, subtitle: "", fullContent: "x", createdAt: at(20 + index) });
    }
    const result = await search("corintians");
    expect(result.suggestion).toBe("Corinthians");
    expect(result.hits).toHaveLength(24);
    expect(result.nextPage).toBe(2);
    const second = await services.search.search({ query: result.suggestion!, page: 2 });
    expect(second.hits).toHaveLength(1);
  });

  it.runIf(TEST_DATABASE === "postgres")("matches typos through pg_trgm's GIN index", async () => {
    // A vocabulary of a real size (20 000 words), so the planner weighs its choices as it would in production.
    await sql`insert into search_words (word)
      select translate(md5(i::text), '0123456789', 'ghijklmnop') from generate_series(1, 20000) i
      on conflict do nothing`.execute(services.database.db);
    await sql`analyze search_words`.execute(services.database.db);
    await services.database.db.connection().execute(async (db) => {
      await sql`set enable_seqscan = off`.execute(db);
      try {
        const { rows } = await sql<{ "QUERY PLAN": string }>`explain select word from search_words where word % ${"flamego"}`.execute(db);
        expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/search_words_trgm_idx/);
      } finally {
        await sql`reset enable_seqscan`.execute(db);
      }
    });
  });
});

describe(`the search-typos migration on ${TEST_DATABASE}`, () => {
  it("indexes the sections and learns the words of the stories published before it, not the drafts'", async () => {
    const services = await createTestServices(makeDataDir("eef-search-typos-migration-"));
    try {
      const db = services.database.db;
      const migration = migrations["2026-11-29-101-search-typos"]!;
      // biome-ignore lint/suspicious/noExplicitAny: migrations see the schema as Kysely<any>.
      await migration.down!(db as Kysely<any>);
      await insertRow(db, "publicada", "Goleada do Botafogo", "Futebol", "published");
      await insertRow(db, "rascunho", "Segredo Guardado", "MMA", "draft");
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      await migration.up(db as Kysely<any>);
      const words = (await db.selectFrom("search_words").select("word").orderBy("word").execute()).map((found) => found.word);
      expect(words).toEqual(["botafogo", "futebol", "goleada"]);
      expect((await services.search.search({ query: "futebol" })).hits.map((hit) => hit.id)).toEqual(["publicada"]);
      expect((await services.search.search({ query: "botafgo" })).suggestion).toBe("Botafogo");
      expect((await services.search.search({ query: "mma" })).hits).toEqual([]);
      // The triggers are back: a story published after it teaches its words.
      await db.updateTable("news").set({ status: "published" }).where("id", "=", "rascunho").execute();
      expect((await services.search.search({ query: "mma" })).hits.map((hit) => hit.id)).toEqual(["rascunho"]);
      expect((await services.search.search({ query: "segrdo" })).suggestion).toBe("Segredo");
    } finally {
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    }
  });
});
