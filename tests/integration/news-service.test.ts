import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError, NotFoundError } from "#app/.server/errors.ts";
import type { NewsSummary } from "#app/lib/news-view.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { createNews, listAllNews, makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const openServices = useTestServices("eef-news-");
const open = (onQuery?: () => void) => openServices({}, onQuery ? { onQuery } : {});

const BASE = Date.UTC(2026, 10, 1, 12, 0, 0);
const at = (hours: number) => new Date(BASE + hours * 3_600_000).toISOString();
const ids = (items: NewsSummary[]) => items.map((item) => item.id);

/** Creates `count` news without media, one hour apart; index 0 is the oldest. Returns their ids. */
async function seedNews(services: TestServices, count: number, highlighted: number[] = []): Promise<string[]> {
  const created: string[] = [];
  for (let i = 0; i < count; i++) {
    created.push(await createNews(services, { media: null, createdAt: at(i), isHighlighted: highlighted.includes(i), title: `Notícia ${i}` }));
  }
  return created;
}

/** The srcset entries as [url, width]. */
function parseSrcSet(srcSet: string | null): Array<[string, number]> {
  if (!srcSet) return [];
  return srcSet.split(", ").map((entry) => {
    const [url, descriptor] = entry.split(" ");
    expect(descriptor).toMatch(/^\d+w$/);
    return [url!, Number.parseInt(descriptor!, 10)];
  });
}

function fileForUrl(services: TestServices, url: string): string {
  expect(url.startsWith("/media/")).toBe(true);
  return path.join(services.dataDir, "media", url.slice("/media/".length));
}

describe("listNews", () => {
  it("lists every news item newest first, whatever the insertion order", async () => {
    const services = await open();
    const middle = await createNews(services, { media: null, createdAt: at(5) });
    const newest = await createNews(services, { media: null, createdAt: at(9) });
    const oldest = await createNews(services, { media: null, createdAt: at(1) });
    const list = await listAllNews(services);
    expect(ids(list)).toEqual([newest, middle, oldest]);
    expect(list.map((item) => item.createdAt)).toEqual([at(9), at(5), at(1)]);
  });

  it("breaks ties on created_at deterministically (by id, descending)", async () => {
    const services = await open();
    const tied = [
      await createNews(services, { media: null, createdAt: at(3) }),
      await createNews(services, { media: null, createdAt: at(3) }),
      await createNews(services, { media: null, createdAt: at(3) }),
      await createNews(services, { media: null, createdAt: at(3) }),
    ];
    const newer = await createNews(services, { media: null, createdAt: at(4) });
    const first = ids(await listAllNews(services));
    expect(first).toEqual([newer, ...[...tied].sort().reverse()]);
    expect(ids(await listAllNews(services))).toEqual(first);
    expect(ids((await services.news.getHome()).recent)).toEqual(first.slice(0, 3));
  });

  it("returns the fields a list shows, with the highlighted flag as a boolean", async () => {
    const services = await open();
    const plain = await createNews(services, {
      media: null,
      createdAt: at(1),
      title: "Clássico termina empatado",
      subtitle: "Um gol para cada lado",
      category: "Futebol",
      author: "Paula Andrade",
    });
    const star = await createNews(services, { media: null, createdAt: at(2), isHighlighted: true, category: "Vôlei" });
    const [first, second] = await listAllNews(services);
    expect(first).toMatchObject({ id: star, isHighlighted: true, category: "Vôlei", media: null });
    expect(second).toEqual({
      id: plain,
      title: "Clássico termina empatado",
      subtitle: "Um gol para cada lado",
      category: "Futebol",
      author: "Paula Andrade",
      categorySlug: "futebol",
      authorSlug: "paula-andrade",
      isHighlighted: false,
      createdAt: at(1),
      publishedAt: at(1),
      status: "published",
      media: null,
    });
    // The list does not carry the full text.
    expect(second).not.toHaveProperty("fullContent");
  });

  it("returns an empty list on an empty database", async () => {
    const services = await open();
    expect(await listAllNews(services)).toEqual([]);
    expect(await services.news.listNewsPage({ limit: 24 })).toEqual({ items: [], nextCursor: null });
  });
});

describe("listNewsPage (keyset paging)", () => {
  it("pages cover the whole list once, in order, across ties on created_at at the page boundaries", async () => {
    const services = await open();
    // 11 news, many sharing a timestamp, so page boundaries fall inside groups of ties.
    for (let i = 0; i < 11; i++) await createNews(services, { media: null, createdAt: at(Math.floor(i / 4)) });
    const expected = ids(await listAllNews(services));
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof services.news.listNewsPage>> = await services.news.listNewsPage({ limit: 3, cursor });
      seen.push(...ids(page.items));
      sizes.push(page.items.length);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(11);
    expect(sizes).toEqual([3, 3, 3, 2]);
  });

  it("the last full page says there is nothing after it", async () => {
    const services = await open();
    for (let i = 0; i < 4; i++) await createNews(services, { media: null, createdAt: at(i) });
    const first = await services.news.listNewsPage({ limit: 2 });
    const second = await services.news.listNewsPage({ limit: 2, cursor: first.nextCursor });
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
  });

  it("a cursor stays valid when newer news arrive: the next page neither repeats nor skips", async () => {
    const services = await open();
    for (let i = 0; i < 6; i++) await createNews(services, { media: null, createdAt: at(i) });
    const before = ids(await listAllNews(services));
    const first = await services.news.listNewsPage({ limit: 3 });
    await createNews(services, { media: null, createdAt: at(50) });
    const second = await services.news.listNewsPage({ limit: 3, cursor: first.nextCursor });
    expect([...ids(first.items), ...ids(second.items)]).toEqual(before);
  });

  it("the highlights tab pages only highlighted news", async () => {
    const services = await open();
    const highlighted: string[] = [];
    for (let i = 0; i < 9; i++) {
      const id = await createNews(services, { media: null, createdAt: at(i), isHighlighted: i % 2 === 0 });
      if (i % 2 === 0) highlighted.unshift(id);
    }
    const first = await services.news.listNewsPage({ limit: 3, highlightedOnly: true });
    const second = await services.news.listNewsPage({ limit: 3, highlightedOnly: true, cursor: first.nextCursor });
    expect([...ids(first.items), ...ids(second.items)]).toEqual(highlighted);
    expect(second.nextCursor).toBeNull();
    expect(ids(await listAllNews(services, { highlightedOnly: true }))).toEqual(highlighted);
  });

  it.each(["x", "bm90LWEtY3Vyc29y", "MjAyNi0xMS0yMlQwMTo1MjozNS4xMjNafA", "a".repeat(500), "$%&"])(
    "a cursor it did not make (%s) is a 400 with a pt-BR message, not a query",
    async (cursor) => {
      const services = await open();
      const error = await services.news.listNewsPage({ limit: 3, cursor }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).code).toBe("invalid_cursor");
      expect((error as AppError).message).toBe(t.newsList.invalidCursor);
    },
  );
});

describe("media view", () => {
  it("an image at least 1600 wide lists 400w, 800w, 1200w and 1600w in both srcsets", async () => {
    const services = await open();
    const media = await services.media.saveImage(await makeTestImage(2000, 1000), "grande.jpg");
    const id = await createNews(services, { media: null, createdAt: at(1) });
    await services.database.db.updateTable("news").set({ media_id: media.id }).where("id", "=", id).execute();

    const [item] = await listAllNews(services);
    const view = item!.media!;
    expect(view.kind).toBe("image");
    expect(view.mimeType).toBe("image/jpeg");
    expect(view.width).toBe(2000);
    expect(view.height).toBe(1000);
    const jpeg = parseSrcSet(view.srcSet);
    const webp = parseSrcSet(view.webpSrcSet);
    expect(jpeg.map(([, width]) => width)).toEqual([400, 800, 1200, 1600]);
    expect(webp.map(([, width]) => width)).toEqual([400, 800, 1200, 1600]);
    for (const [url] of jpeg) expect(url).toMatch(/^\/media\/[a-f0-9]{12}\/img\/[a-f0-9]+-[a-f0-9]{8}\/\d+\.jpg$/);
    for (const [url] of webp) expect(url).toMatch(/^\/media\/[a-f0-9]{12}\/img\/[a-f0-9]+-[a-f0-9]{8}\/\d+\.webp$/);
    // The default is the 800 px variant in the original format; the full-screen view gets the largest.
    expect(view.src).toBe(jpeg[1]![0]);
    expect(view.largeSrc).toBe(jpeg[3]![0]);
    // Every URL points to a stored file whose real width is the one announced.
    for (const [url, width] of [...jpeg, ...webp]) {
      const meta = await sharp(fileForUrl(services, url)).metadata();
      expect(meta.width, url).toBe(width);
    }
  });

  it("an image narrower than 1600 lists the smaller widths plus its own, never an enlarged one", async () => {
    const services = await open();
    await createNews(services, { media: "image", createdAt: at(1) }); // factory image: 1200×675
    const [item] = await listAllNews(services);
    const view = item!.media!;
    expect(view.width).toBe(1200);
    expect(view.height).toBe(675);
    expect(parseSrcSet(view.srcSet).map(([, width]) => width)).toEqual([400, 800, 1200]);
    expect(parseSrcSet(view.webpSrcSet).map(([, width]) => width)).toEqual([400, 800, 1200]);
    expect(view.largeSrc).toBe(parseSrcSet(view.srcSet)[2]![0]);
  });

  it("an image narrower than the smallest variant announces its real width, never a larger one", async () => {
    const services = await open();
    const media = await services.media.saveImage(await makeTestImage(300, 200, "png"), "pequena.png");
    const id = await createNews(services, { media: null, createdAt: at(1) });
    await services.database.db.updateTable("news").set({ media_id: media.id }).where("id", "=", id).execute();

    const view = (await listAllNews(services))[0]!.media!;
    expect(view.mimeType).toBe("image/png");
    const png = parseSrcSet(view.srcSet);
    const webp = parseSrcSet(view.webpSrcSet);
    expect(png).toHaveLength(1);
    expect(webp).toHaveLength(1);
    for (const [url, width] of [...png, ...webp]) {
      expect(width, `${url} announced wider than the 300 px original`).toBeLessThanOrEqual(300);
      expect((await sharp(fileForUrl(services, url)).metadata()).width).toBe(width);
    }
  });

  it("a video is served as a file under /media/<installation>/vid/ with no srcsets", async () => {
    const services = await open();
    await createNews(services, { media: "video", createdAt: at(1) });
    const view = (await listAllNews(services))[0]!.media!;
    expect(view).toMatchObject({ kind: "video", mimeType: "video/mp4", width: null, height: null, srcSet: null, webpSrcSet: null });
    expect(view.src).toMatch(/^\/media\/[a-f0-9]{12}\/vid\/[a-f0-9]+-[a-f0-9]{8}\.mp4$/);
    expect(view.largeSrc).toBe(view.src);
    expect(fs.existsSync(fileForUrl(services, view.src))).toBe(true);
  });

  it("a news item without media has media null", async () => {
    const services = await open();
    await createNews(services, { media: null });
    expect((await listAllNews(services))[0]!.media).toBeNull();
  });
});

describe("getNews", () => {
  it("returns the article with its full content and update time", async () => {
    const services = await open();
    const id = await createNews(services, {
      media: "image",
      createdAt: at(2),
      title: "Seleção vence",
      fullContent: "Primeiro parágrafo.\n\nSegundo parágrafo.",
      isHighlighted: true,
    });
    const article = await services.news.getNews(id);
    expect(article).toMatchObject({
      id,
      title: "Seleção vence",
      fullContent: "Primeiro parágrafo.\n\nSegundo parágrafo.",
      createdAt: at(2),
      updatedAt: at(2),
      isHighlighted: true,
    });
    expect(article.media?.kind).toBe("image");
  });

  it("reads the updated_at column", async () => {
    const services = await open();
    const id = await createNews(services, { media: null, createdAt: at(2) });
    await services.database.db
      .updateTable("news")
      .set({ updated_at: at(7) })
      .where("id", "=", id)
      .execute();
    const article = await services.news.getNews(id);
    expect(article.createdAt).toBe(at(2));
    expect(article.updatedAt).toBe(at(7));
  });

  it("rejects a missing id with NotFoundError 'Notícia não encontrada' (404)", async () => {
    const services = await open();
    await createNews(services, { media: null });
    const error = await services.news.getNews("nao-existe").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(AppError);
    expect((error as NotFoundError).message).toBe("Notícia não encontrada");
    expect((error as NotFoundError).status).toBe(404);
  });
});

describe("getHome", () => {
  it("gives empty blocks on an empty database", async () => {
    const services = await open();
    expect(await services.news.getHome()).toEqual({ recent: [], highlights: [], sections: [], matches: [] });
  });

  it("recent holds the 3 newest news", async () => {
    const services = await open();
    const created = await seedNews(services, 6);
    const home = await services.news.getHome();
    expect(ids(home.recent)).toEqual([created[5], created[4], created[3]]);
    expect(home.recent).toEqual((await listAllNews(services)).slice(0, 3));
  });

  // Six news, index 0 the oldest, 5 the newest; the 3 newest are the recent block. Highlights: without those, the
  // highlighted ones newest first, then the others in list order (newest first), up to 3.
  it.each([
    { highlighted: [], expected: [2, 1, 0] },
    { highlighted: [1], expected: [1, 2, 0] },
    { highlighted: [0, 3], expected: [0, 2, 1] },
    { highlighted: [1, 2, 4], expected: [2, 1, 0] },
    { highlighted: [0, 1, 2, 3, 5], expected: [2, 1, 0] },
  ])("highlights with $highlighted highlighted: $expected", async ({ highlighted, expected }) => {
    const services = await open();
    const created = await seedNews(services, 6, highlighted);
    const home = await services.news.getHome();
    expect(ids(home.highlights)).toEqual(expected.map((index) => created[index]));
    expect(home.highlights.map((item) => item.isHighlighted)).toEqual(expected.map((index) => highlighted.includes(index)));
    expect(ids(home.recent)).toEqual([created[5], created[4], created[3]]);
  });

  it("with 3 news or fewer, the recent block holds them and nothing repeats them below", async () => {
    const services = await open();
    const [older, newer] = await seedNews(services, 2, [0]);
    const home = await services.news.getHome();
    expect(ids(home.recent)).toEqual([newer, older]);
    expect(home.highlights).toEqual([]);
    expect(home.sections).toEqual([]);
  });

  it("shows no story twice: recent, highlights, then the newest 4 of each top section by volume (at most 4)", async () => {
    const services = await open();
    // Volumes: Futebol 7, Vôlei 5, Basquete 4, Tênis 3, Natação 2 (the fifth is not a block), Judô 1 (highlighted).
    const plan = [
      ...Array.from({ length: 7 }, () => "Futebol"),
      ...Array.from({ length: 5 }, () => "Vôlei"),
      ...Array.from({ length: 4 }, () => "Basquete"),
      ...Array.from({ length: 3 }, () => "Tênis"),
      "Natação",
      "Natação",
      "Judô",
    ];
    const created: Array<{ id: string; category: string }> = [];
    for (const [i, category] of plan.entries()) {
      const id = await createNews(services, { media: null, createdAt: at(i), category, isHighlighted: category === "Judô", title: `N ${i}` });
      created.push({ id, category });
    }
    const home = await services.news.getHome();
    const all = [...ids(home.recent), ...ids(home.highlights), ...home.sections.flatMap((section) => ids(section.items))];
    expect(new Set(all).size).toBe(all.length);
    // The newest three: Judô (21) and both Natação (20, 19); the highlight (Judô) is already shown, so the next
    // newest fill the highlights: Tênis 18, 17, 16.
    expect(ids(home.recent)).toEqual([created[21]!.id, created[20]!.id, created[19]!.id]);
    expect(ids(home.highlights)).toEqual([created[18]!.id, created[17]!.id, created[16]!.id]);
    // Tênis is a top section but every story of it is above: its block is dropped.
    expect(home.sections.map((section) => section.name)).toEqual(["Futebol", "Vôlei", "Basquete"]);
    expect(home.sections.map((section) => section.slug)).toEqual(["futebol", "volei", "basquete"]);
    const newestOf = (category: string) =>
      created
        .filter((item) => item.category === category)
        .map((item) => item.id)
        .reverse()
        .slice(0, 4);
    expect(ids(home.sections[0]!.items)).toEqual(newestOf("Futebol"));
    expect(ids(home.sections[1]!.items)).toEqual(newestOf("Vôlei"));
    expect(ids(home.sections[2]!.items)).toEqual(newestOf("Basquete"));
  });
});

describe("listSections", () => {
  it("lists the categories with published news, most first, never one only drafts or scheduled news use", async () => {
    const services = await open();
    await createNews(services, { media: null, category: "Vôlei" });
    await createNews(services, { media: null, category: "Futebol" });
    await createNews(services, { media: null, category: "Futebol" });
    await createNews(services, { media: null, category: "Basquete" });
    const embargoed = await createNews(services, { media: null, category: "Fórmula 1" });
    const scheduled = await createNews(services, { media: null, category: "Ciclismo" });
    const db = services.database.db;
    await db.updateTable("news").set({ status: "draft" }).where("id", "=", embargoed).execute();
    await db.updateTable("news").set({ status: "scheduled" }).where("id", "=", scheduled).execute();
    services.news.invalidate();
    expect(await services.news.listSections()).toEqual([
      { slug: "futebol", name: "Futebol", count: 2, live: false },
      { slug: "basquete", name: "Basquete", count: 1, live: false },
      { slug: "volei", name: "Vôlei", count: 1, live: false },
    ]);
  });

  it("is kept until the news change, then asked again (a category published for the first time appears)", async () => {
    const services = await open();
    const draft = await createNews(services, { media: null, category: "Remo" });
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", draft).execute();
    services.news.invalidate();
    expect(await services.news.listSections()).toEqual([]);
    await services.database.db.updateTable("news").set({ status: "published" }).where("id", "=", draft).execute();
    // Not yet: the list is served from memory until the event.
    expect(await services.news.listSections()).toEqual([]);
    await services.events.publish("newsUpdated", {});
    await expect.poll(() => services.news.listSections()).toEqual([{ slug: "remo", name: "Remo", count: 1, live: false }]);
  });
});

/** Drops the news table; on PostgreSQL with CASCADE (news_reads has a foreign key to it). */
async function dropNewsTable(services: TestServices) {
  await sql.raw(services.database.dialect === "postgres" ? "drop table news cascade" : "drop table news").execute(services.database.db);
}

describe("database failures", () => {
  it("listNews rejects with an AppError 'Falha ao buscar notícias: …'", async () => {
    const services = await open();
    await createNews(services, { media: null });
    await dropNewsTable(services);
    const error = await listAllNews(services).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect((error as AppError).message.startsWith("Falha ao buscar notícias: ")).toBe(true);
    expect((error as AppError).message).toContain("news");
    expect((error as AppError).status).toBe(500);
    expect((error as AppError).cause).toBeInstanceOf(Error);
  });

  it("getHome and getNews wrap the failure with their prefixes", async () => {
    const services = await open();
    await dropNewsTable(services);
    await expect(services.news.getHome()).rejects.toThrow(/^Falha ao buscar notícias: /);
    const error = await services.news.getNews("qualquer").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect((error as AppError).message.startsWith("Falha ao buscar notícia: ")).toBe(true);
  });
});

describe("query count", () => {
  async function countQueries(counter: { n: number }, run: () => Promise<unknown>): Promise<number> {
    counter.n = 0;
    await run();
    return counter.n;
  }

  it("getHome and getNews run a constant number of queries, a page of the list runs one", async () => {
    const counter = { n: 0 };
    const services = await open(() => counter.n++);
    const first = await createNews(services, { media: "image", createdAt: at(0), isHighlighted: true });
    await createNews(services, { media: "video", createdAt: at(1) });
    await createNews(services, { media: null, createdAt: at(2) });

    // The section list is kept in memory between changes: forgotten here so both counts include it.
    services.news.invalidate();
    const homeWith3 = await countQueries(counter, () => services.news.getHome());
    const articleWith3 = await countQueries(counter, () => services.news.getNews(first));
    const listWith3 = await countQueries(counter, () => services.news.listNewsPage({ limit: 24 }));

    for (let i = 3; i < 60; i++) {
      await createNews(services, { media: i % 20 === 0 ? "image" : null, createdAt: at(i), isHighlighted: i % 7 === 0 });
    }
    expect((await listAllNews(services)).length).toBe(60);

    services.news.invalidate();
    const homeWith60 = await countQueries(counter, () => services.news.getHome());
    const articleWith60 = await countQueries(counter, () => services.news.getNews(first));
    const firstPage = await services.news.listNewsPage({ limit: 24 });
    const listWith60 = await countQueries(counter, () => services.news.listNewsPage({ limit: 24 }));
    const laterPageWith60 = await countQueries(counter, () => services.news.listNewsPage({ limit: 24, cursor: firstPage.nextCursor }));

    expect(homeWith3).toBeGreaterThan(0);
    // The top (the editors' picks, a live lead, a highlighted lead, the newest), the section list (counts, then
    // names, the admin's arrangement, the sections under live coverage), the day's matches (started, announced),
    // highlights, and one per section block (one category here): never one per story.
    expect(homeWith3).toBeLessThanOrEqual(12);
    expect(homeWith60).toBe(homeWith3);
    expect(articleWith3).toBe(1);
    expect(articleWith60).toBe(articleWith3);
    expect(listWith3).toBe(1);
    expect(listWith60).toBe(1);
    expect(laterPageWith60).toBe(1);
  });
});
