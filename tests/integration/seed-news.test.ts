import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaKeys } from "#app/.server/media/media-keys.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { type BulkNewsResult, seedBulkNews } from "#app/.server/seed/bulk-news.server.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { eraseNews, listAllNews } from "#tests/factories/news.ts";
import { countRows, createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

const CATEGORIES = ["Futebol", "Basquete", "Vôlei", "Tênis", "Fórmula 1", "MMA", "Atletismo", "Natação"];
const NOW = new Date("2026-11-22T15:00:00.000Z");
const SPACING_MS = 600_000;
const COUNT = 1200;

describe("seedBulkNews", () => {
  let services: Services;
  let first: BulkNewsResult;
  const progress: number[] = [];

  beforeAll(async () => {
    services = await createTestServices(makeDataDir("eef-bulk-"));
    // Small statements and transactions, so a small run still goes through several of each.
    first = await seedBulkNews(services, {
      count: COUNT,
      highlightedShare: 0.15,
      withImages: 5,
      now: NOW,
      seed: 42,
      rowsPerStatement: 100,
      statementsPerTransaction: 2,
      onProgress: (inserted) => progress.push(inserted),
    });
  }, 60_000);
  afterAll(async () => {
    await services.close();
    fs.rmSync(services.dataDir, { recursive: true, force: true });
  });

  it("adds exactly the news asked, in transactions, reporting progress after each", async () => {
    expect(first.inserted).toBe(COUNT);
    expect(await countRows(services, "news")).toBe(COUNT);
    expect(progress).toEqual([200, 400, 600, 800, 1000, 1200]);
  });

  it("highlights the share asked and spreads the highlights over the timeline", async () => {
    expect(first.highlighted).toBe(180);
    const news = await listAllNews(services);
    expect(news.filter((item) => item.isHighlighted)).toHaveLength(180);
    // Evenly spread: every block of 100 consecutive news holds 15 highlights.
    for (let start = 0; start < COUNT; start += 100) {
      expect(news.slice(start, start + 100).filter((item) => item.isHighlighted)).toHaveLength(15);
    }
  });

  it("writes news the app's readers show: valid fields, the eight categories, text without unfilled slots", async () => {
    const rows = await services.database.db.selectFrom("news").selectAll().execute();
    expect(new Set(rows.map((row) => row.category))).toEqual(new Set(CATEGORIES));
    for (const row of rows) {
      const parsed = newsInputSchema.safeParse({
        title: row.title,
        subtitle: row.subtitle,
        fullContent: row.full_content,
        category: row.category,
        author: row.author,
      });
      expect(parsed.success, row.title).toBe(true);
      for (const text of [row.title, row.subtitle, row.full_content]) expect(text).not.toMatch(/[{}]/);
      expect(row.full_content.split("\n\n").length).toBeGreaterThanOrEqual(3);
      expect(row.author.trim()).not.toBe("");
    }
    // Varied: far more distinct titles than patterns.
    expect(new Set(rows.map((row) => row.title)).size).toBeGreaterThan(COUNT / 2);
    expect(rows.some((row) => row.author === "Redação Esporte em Foco")).toBe(true);
    expect(rows.some((row) => row.author !== "Redação Esporte em Foco")).toBe(true);
  });

  it("dates every news item at a distinct instant before `now`, one slot of the spacing each", async () => {
    const news = await listAllNews(services);
    const times = news.map((item) => Date.parse(item.createdAt));
    expect(new Set(times).size).toBe(COUNT);
    expect(Math.max(...times)).toBeLessThan(NOW.getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - COUNT * SPACING_MS);
    expect(news[0]!.id).toBe(first.newestId);
  });

  it("gives the newest news a picture each, stored with every variant, with records of their own", async () => {
    expect(first.withImages).toBe(5);
    const news = await listAllNews(services);
    expect(news.slice(0, 5).every((item) => item.media?.kind === "image" && item.media.webpSrcSet)).toBe(true);
    expect(news.slice(5).every((item) => item.media === null)).toBe(true);
    const media = await services.database.db.selectFrom("media").select(["id", "key", "variants"]).execute();
    expect(media).toHaveLength(5);
    const keys = media.flatMap((row) => mediaKeys(row));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(await services.store.stat(key), key).not.toBeNull();
    const article = await services.news.getNews(first.newestId!);
    expect(article.media?.srcSet).toContain("800w");
  });

  it("leaves nothing the orphan sweeper would remove, and deleting one news item removes only its own picture", async () => {
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const swept = await sweepOrphans({
      db: services.database.db,
      store: services.store,
      log,
      graceMs: 0,
      installationId: await services.installation.id(),
    });
    expect(swept).toMatchObject({ removedRecords: 0, removedFiles: 0 });

    const [newest, second] = await listAllNews(services);
    await eraseNews(services, newest!.id);
    expect(await countRows(services, "media")).toBe(4);
    const survivor = await services.news.getNews(second!.id);
    expect(survivor.media?.kind).toBe("image");
    const stillStored = await services.store.stat(survivor.media!.src.replace(/^\/media\//, ""));
    expect(stillStored).not.toBeNull();
  });

  it("can run again on the same database: adds as many more, nothing collides", async () => {
    const before = await countRows(services, "news");
    const again = await seedBulkNews(services, { count: 300, withImages: 2, now: NOW, seed: 42 });
    expect(again.inserted).toBe(300);
    expect(await countRows(services, "news")).toBe(before + 300);
    expect(await countRows(services, "media")).toBe(4 + 2);
    const home = await services.news.getHome();
    expect(home.recent).toHaveLength(3);
    expect(home.highlights).toHaveLength(3);
  });
});

describe("npm run seed:news", () => {
  let services: Services;
  beforeAll(async () => {
    services = await createTestServices(makeDataDir("eef-seed-cli-"));
  });
  afterAll(async () => {
    await services.close();
    fs.rmSync(services.dataDir, { recursive: true, force: true });
  });

  /** The command on the test's database (SQLite file under DATA_DIR, or the test's PostgreSQL database). */
  const run = (args: string[]) => {
    const database = services.config.database;
    return spawnSync(process.execPath, [path.resolve("scripts/seed-news.ts"), ...args], {
      env: {
        ...process.env,
        DATA_DIR: services.dataDir,
        ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : {}),
        SEED_DEMO: "0",
        NODE_ENV: "production",
      },
      encoding: "utf8",
      timeout: 60_000,
    });
  };

  it("adds the news to the configured database and prints progress and the time, twice in a row", async () => {
    for (const expected of [40, 80]) {
      const result = run(["--count", "40", "--highlighted-share", "0.25", "--images", "2"]);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Adicionando 40 notícias em /);
      expect(result.stdout).toContain("40 / 40");
      expect(result.stdout).toMatch(/40 notícias adicionadas em [\d,]+ s \([\d.]+\/s\): 10 em destaque, 2 com imagem\./);
      expect(await countRows(services, "news")).toBe(expected);
    }
    expect(await countRows(services, "media")).toBe(4);
  }, 120_000);

  // The options are read before the database is opened: the same on both engines, checked once.
  it.skipIf(TEST_DATABASE === "postgres")(
    "refuses a missing or bad count with the usage line and exit code 1, adding nothing",
    async () => {
      const before = await countRows(services, "news");
      for (const args of [[], ["--count", "0"], ["--count", "10", "--highlighted-share", "2"], ["--count", "dez"]]) {
        const result = run(args);
        expect(result.status).toBe(1);
        expect(result.stderr).toContain("Uso: npm run seed:news -- --count N");
        expect(result.stderr).not.toMatch(/\bat \w/);
      }
      expect(await countRows(services, "news")).toBe(before);
    },
    60_000,
  );
});
