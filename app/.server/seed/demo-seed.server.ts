import { t } from "#app/i18n/newsroom.ts";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppServices } from "#app/.server/app.server.ts";
import { readSetting, writeSettingOnce } from "#app/.server/db/app-settings.queries.server.ts";
import type { EncodeOptions } from "#app/.server/media/image-variants.server.ts";
import { insertNews } from "#app/.server/news/news.queries.server.ts";
import { canonicalNewsTerms } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import { newsContentColumns, publishedNewsRow } from "#app/.server/news/news-rows.server.ts";
import { DEMO_MEDIA, DEMO_NEWS, DEMO_SPONSOR_COUNT, DEMO_TEAMS } from "./demo-content.ts";
import { teamNameKey } from "#app/lib/teams.ts";

const SEEDED_KEY = "demo_seeded_at";

/**
 * How the demo pictures are encoded on the first start, whose heaviest step they are. The committed pictures are
 * WebP at full width (1600 px, made by `npm run demo:media`): that file is stored as the 1600 px variant instead of
 * being encoded again, and the smaller variants use WebP effort 2 instead of 4 (about half the time, files 1–4 %
 * larger at the same quality setting, 78).
 */
export const DEMO_ENCODING: EncodeOptions = { webpEffort: 2, keepWebpOriginal: true };

/** Media encoded at once: one per core, at least 2 (one waits on the disk while the other encodes), at most libuv's 4. */
function seedConcurrency(): number {
  return Math.max(2, Math.min(4, os.availableParallelism()));
}

/**
 * Creates the demo news and sponsors the first time the site starts on an empty database. It runs once per
 * installation: afterwards (even if every news item is deleted) it never runs again.
 */
export async function seedDemoContent(
  services: Pick<AppServices, "config" | "database" | "media" | "log">,
  now: Date = new Date(),
): Promise<boolean> {
  const { db } = services.database;
  const seeded = await readSetting(db, SEEDED_KEY);
  if (seeded) return false;
  const existing = await db.selectFrom("news").select("id").limit(1).executeTakeFirst();
  if (existing) {
    await markSeeded(services, now);
    return false;
  }

  const started = performance.now();
  // The pictures, logos and clip are committed files (demo/media): they go through the same pipeline as an upload,
  // with a lighter WebP effort (DEMO_ENCODING), in one pool as wide as the machine allows (sharp runs each
  // encoding on one libvips thread of libuv's pool of 4; ffmpeg is a process of its own).
  const dir = demoMediaDir();
  const read = (name: string) => fs.promises.readFile(path.join(dir, name));
  const saveImage = async (name: string) => (await services.media.saveImage(await read(name), name, DEMO_ENCODING)).id;
  const jobs: Array<() => Promise<string | null>> = [
    ...DEMO_NEWS.map((item) => async () => {
      if (item.media?.kind === "image") return saveImage(DEMO_MEDIA.image(item.media.sport, item.media.variant));
      if (item.media?.kind === "video") return (await services.media.saveVideo(await read(DEMO_MEDIA.video), "video/mp4", DEMO_MEDIA.video)).id;
      return null;
    }),
    ...[...Array(DEMO_SPONSOR_COUNT).keys()].map((index) => () => saveImage(DEMO_MEDIA.sponsorLogo(index))),
  ];
  const ids = await mapWithConcurrency(jobs, seedConcurrency(), (job) => job());
  const mediaIds = ids.slice(0, DEMO_NEWS.length);
  const logoIds = ids.slice(DEMO_NEWS.length) as string[];
  const mediaMs = Math.round(performance.now() - started);

  // The clubs the desk keeps (/times), with the folded name as each page's address.
  const teamCreated = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  for (const name of DEMO_TEAMS) {
    await db
      .insertInto("teams")
      .values({ slug: teamNameKey(name), name, name_key: teamNameKey(name), created_at: teamCreated, created_by: null })
      .execute();
  }
  for (const [index, item] of DEMO_NEWS.entries()) {
    const createdAt = new Date(now.getTime() - item.hoursAgo * 3_600_000).toISOString();
    const content = newsContentColumns({ ...item, author: item.author ?? services.config.site.defaultAuthor });
    const terms = await canonicalNewsTerms(db, content, createdAt);
    const id = randomUUID();
    await insertNews(db, publishedNewsRow({ id, content, terms, mediaId: mediaIds[index] ?? null, createdAt }));
    for (const team of item.teams ?? [])
      await db
        .insertInto("news_teams")
        .values({ news_id: id, team_slug: teamNameKey(team) })
        .execute();
  }

  for (const [index, mediaId] of logoIds.entries()) {
    await db
      .insertInto("sponsors")
      .values({
        id: randomUUID(),
        media_id: mediaId,
        created_at: new Date(now.getTime() - (DEMO_SPONSOR_COUNT - index) * 86_400_000).toISOString(),
        name: t.sponsors.defaultName(index + 1),
        link: null,
        position: index + 1,
        active_from: null,
        active_until: null,
      })
      .execute();
  }
  await markSeeded(services, now);
  services.log.info(
    { news: DEMO_NEWS.length, sponsors: DEMO_SPONSOR_COUNT, ms: Math.round(performance.now() - started), mediaMs },
    "demo content created",
  );
  return true;
}

async function markSeeded(services: Pick<AppServices, "database">, now: Date) {
  await writeSettingOnce(services.database.db, SEEDED_KEY, now.toISOString());
}

/**
 * demo/media in the project: found from this module's folder, which is app/.server/seed in the sources and
 * build/server once built.
 */
export function demoMediaDir(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "demo", "media");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`demo/media not found above ${import.meta.dirname}`);
  }
}

/** Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order. */
async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
