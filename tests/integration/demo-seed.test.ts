import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEDIA } from "#app/.server/seed/demo-content.ts";
import { demoMediaDir, seedDemoContent } from "#app/.server/seed/demo-seed.server.ts";
import { createNews, listAllNews } from "#tests/factories/news.ts";
import { countRows, createTestServices, makeDataDir } from "#tests/factories/services.ts";
import { useTestServices } from "#tests/factories/use-services.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

// The committed pictures and the clip go through the real pipeline (every size and format, the video's poster).
const SLOW = 90_000;

async function counts(services: Services) {
  return { news: await countRows(services, "news"), sponsors: await countRows(services, "sponsors"), media: await countRows(services, "media") };
}

function fileCount(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile()).length;
}

describe("seedDemoContent on a fresh database", () => {
  let services: Services;
  let firstResult: boolean;
  const now = new Date("2026-11-22T15:00:00.000Z");

  beforeAll(async () => {
    services = await createTestServices(makeDataDir("eef-seed-"));
    firstResult = await seedDemoContent(services, now);
  }, SLOW);
  afterAll(async () => {
    await services.close();
    fs.rmSync(services.dataDir, { recursive: true, force: true });
  });

  it("copies the committed files of demo/media through the media pipeline: pictures, logos and the video clip", async () => {
    const rows = await services.database.db.selectFrom("media").select(["kind", "mime_type", "size_bytes"]).execute();
    const videos = rows.filter((row) => row.kind === "video");
    expect(videos).toHaveLength(1);
    expect(videos[0]).toMatchObject({ mime_type: "video/mp4", size_bytes: fs.statSync(path.join(demoMediaDir(), DEMO_MEDIA.video)).size });
    expect(rows.filter((row) => row.kind === "image")).toHaveLength(fs.readdirSync(demoMediaDir()).filter((name) => !name.endsWith(".mp4")).length);
  });

  it("reports that it created the demo", () => {
    expect(firstResult).toBe(true);
  });

  it("creates at least 8 news in at least 4 categories, some highlighted, most with images", async () => {
    const news = await listAllNews(services);
    expect(news.length).toBeGreaterThanOrEqual(8);
    expect(new Set(news.map((item) => item.category)).size).toBeGreaterThanOrEqual(4);
    const highlighted = news.filter((item) => item.isHighlighted).length;
    expect(highlighted).toBeGreaterThan(0);
    expect(highlighted).toBeLessThan(news.length);
    const withImages = news.filter((item) => item.media?.kind === "image").length;
    expect(withImages).toBeGreaterThan(news.length / 2);
    for (const item of news) {
      expect(item.title.trim().length).toBeGreaterThan(0);
      expect(item.subtitle.trim().length).toBeGreaterThan(0);
      expect(item.author.trim().length).toBeGreaterThan(0);
    }
  });

  it("dates the news in the past of the seed time, newest first", async () => {
    const news = await listAllNews(services);
    for (const item of news) expect(Date.parse(item.createdAt)).toBeLessThan(now.getTime());
    const times = news.map((item) => Date.parse(item.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
  });

  it("signs news without an explicit author with the newsroom name", async () => {
    const news = await listAllNews(services);
    expect(news.some((item) => item.author === "Redação Esporte em Foco")).toBe(true);
  });

  it("gives each article its full content", async () => {
    const [first] = await listAllNews(services);
    const article = await services.news.getNews(first!.id);
    expect(article.fullContent.length).toBeGreaterThan(article.subtitle.length);
  });

  it("creates 4 sponsors, each with a logo", async () => {
    const sponsors = await services.sponsors.listSponsors();
    expect(sponsors).toHaveLength(4);
    for (const sponsor of sponsors) expect(sponsor.image?.kind).toBe("image");
    expect(new Set(sponsors.map((sponsor) => sponsor.image!.src)).size).toBe(4);
  });

  it("stores every media file it records", async () => {
    const rows = await services.database.db.selectFrom("media").select(["key", "variants"]).execute();
    expect(rows.length).toBeGreaterThanOrEqual(8 + 4 - 2);
    for (const row of rows) {
      const keys = [row.key, ...(JSON.parse(row.variants) as Array<{ key: string }>).map((variant) => variant.key)];
      for (const key of keys) expect(fs.existsSync(path.join(services.dataDir, "media", key)), key).toBe(true);
    }
  });

  it("keeps each committed WebP picture as its own full-width variant; the smaller ones and the logos are encoded", async () => {
    const rows = await services.database.db.selectFrom("media").select(["original_name", "variants"]).where("kind", "=", "image").execute();
    const pictures = rows.filter((row) => row.original_name?.endsWith(".webp"));
    expect(pictures.length).toBeGreaterThanOrEqual(6);
    for (const row of [...pictures, ...rows.filter((row) => row.original_name?.endsWith(".png"))]) {
      const committed = fs.readFileSync(path.join(demoMediaDir(), row.original_name!));
      const variants = (JSON.parse(row.variants) as Array<{ key: string; width: number; format: string }>).sort((a, b) => a.width - b.width);
      expect(variants.length, row.original_name!).toBeGreaterThan(1);
      const stored = variants.map((variant) => fs.readFileSync(path.join(services.dataDir, "media", variant.key)));
      const kept = variants.filter((_, index) => stored[index]!.equals(committed));
      if (row.original_name!.endsWith(".webp")) expect(kept.map((variant) => `${variant.format} ${variant.width}`)).toEqual(["webp 1600"]);
      else expect(kept, row.original_name!).toEqual([]);
    }
  });

  it("running it again creates nothing", async () => {
    const before = await counts(services);
    const files = fileCount(path.join(services.dataDir, "media"));
    expect(await seedDemoContent(services)).toBe(false);
    expect(await counts(services)).toEqual(before);
    expect(fileCount(path.join(services.dataDir, "media"))).toBe(files);
  });

  it("after every news item is deleted, it still does not seed again", async () => {
    await services.database.db.deleteFrom("news").execute();
    expect(await seedDemoContent(services)).toBe(false);
    expect((await counts(services)).news).toBe(0);
    expect((await counts(services)).sponsors).toBe(4);
  });
});

describe("seedDemoContent on an installation that already has news", () => {
  const open = useTestServices("eef-seed-existing-");

  it(
    "does not seed (even without a marker), and never seeds later",
    async () => {
      const services = await open();
      const id = await createNews(services, { media: null, title: "Notícia da redação" });
      const marker = await services.database.db.selectFrom("app_settings").selectAll().execute();
      expect(marker).toEqual([]);

      expect(await seedDemoContent(services)).toBe(false);
      expect(await counts(services)).toEqual({ news: 1, sponsors: 0, media: 0 });
      expect((await listAllNews(services)).map((item) => item.id)).toEqual([id]);

      // Once decided, the decision sticks: emptying the site does not bring the demo back.
      await services.database.db.deleteFrom("news").execute();
      expect(await seedDemoContent(services)).toBe(false);
      expect(await counts(services)).toEqual({ news: 0, sponsors: 0, media: 0 });
    },
    SLOW,
  );
});
