import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { AppServices } from "#app/.server/app.server.ts";
import { insertNews } from "#app/.server/news/news.queries.server.ts";
import { newsContentColumns, publishedNewsRow } from "#app/.server/news/news-rows.server.ts";
import { canonicalNewsTerms } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import type { Actor } from "#app/.server/auth/permissions.server.ts";
import { testsActor } from "./actors.ts";

export interface NewsInput {
  title?: string;
  subtitle?: string;
  fullContent?: string;
  category?: string;
  author?: string;
  isHighlighted?: boolean;
  createdAt?: Date | string;
  /** "image" stores a generated picture, "video" a few bytes of MP4-like data, null no media. */
  media?: "image" | "video" | null;
}

let counter = 0;

/** A solid-colour test image (JPEG), distinct per call. */
export async function makeTestImage(width = 1200, height = 675, format: "jpeg" | "png" = "jpeg"): Promise<Buffer> {
  counter++;
  const hue = (counter * 47) % 360;
  const image = sharp({
    create: { width, height, channels: 3, background: `hsl(${hue}, 60%, 45%)` },
  });
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 80 }).toBuffer();
}

/** Inserts a news item (and its media) through the same code the app uses. Returns its id. */
export async function createNews(services: Pick<AppServices, "database" | "media">, input: NewsInput = {}): Promise<string> {
  counter++;
  const id = randomUUID();
  let mediaId: string | null = null;
  if (input.media === "image" || input.media === undefined) {
    mediaId = (await services.media.saveImage(await makeTestImage(), "teste.jpg")).id;
  } else if (input.media === "video") {
    mediaId = (await services.media.saveVideo(Buffer.from(`fake-mp4-${counter}-${id}`), "video/mp4", "teste.mp4")).id;
  }
  const createdAt =
    input.createdAt instanceof Date
      ? input.createdAt.toISOString()
      : (input.createdAt ?? new Date(Date.UTC(2026, 0, 1) + counter * 60_000).toISOString());
  const content = newsContentColumns({
    title: input.title ?? `Notícia de teste ${counter}`,
    subtitle: input.subtitle ?? `Subtítulo da notícia de teste ${counter}`,
    fullContent: input.fullContent ?? `Conteúdo completo da notícia ${counter}.`,
    category: input.category ?? "Futebol",
    author: input.author ?? "Redação Esporte em Foco",
    isHighlighted: Boolean(input.isHighlighted),
  });
  const terms = await canonicalNewsTerms(services.database.db, content, createdAt);
  await insertNews(services.database.db, publishedNewsRow({ id, content, terms, mediaId, createdAt }));
  return id;
}

/**
 * Inserts a sponsor with a generated logo, placed in creation order (as the migration numbered existing sponsors:
 * later ones move down). Its name defaults to "Patrocinador N" (N = how many there are with it). Returns its id.
 */
export async function createSponsor(
  services: Pick<AppServices, "database" | "media">,
  createdAt: Date = new Date(),
  fields: { name?: string; link?: string | null; activeFrom?: string | null; activeUntil?: string | null; logo?: Buffer } = {},
): Promise<string> {
  const id = randomUUID();
  const { db } = services.database;
  const logo = await services.media.saveImage(fields.logo ?? (await makeTestImage(400, 400, "png")), "logo.png");
  const when = createdAt.toISOString();
  const all = await db.selectFrom("sponsors").select(["id", "created_at"]).execute();
  const before = all.filter((row) => row.created_at <= when).length;
  await db
    .updateTable("sponsors")
    .set((eb) => ({ position: eb("position", "+", 1) }))
    .where("created_at", ">", when)
    .execute();
  await db
    .insertInto("sponsors")
    .values({
      id,
      media_id: logo.id,
      created_at: when,
      name: fields.name ?? `Patrocinador ${all.length + 1}`,
      link: fields.link ?? null,
      position: before + 1,
      active_from: fields.activeFrom ?? null,
      active_until: fields.activeUntil ?? null,
    })
    .execute();
  return id;
}

/** Every news item, newest first, read through the list's own paging (as a reader scrolling to the end would). */
export async function listAllNews(services: Pick<AppServices, "news">, options: { highlightedOnly?: boolean } = {}) {
  const all = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<AppServices["news"]["listNewsPage"]>> = await services.news.listNewsPage({ ...options, cursor, limit: 100 });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/**
 * Deletes a story for good, as the Lixeira's "Excluir definitivamente" does after a deletion: the row, its revisions,
 * review history, counts and (after the commit) its media.
 */
export async function eraseNews(services: Pick<AppServices, "newsEditor">, id: string, actor: Actor = testsActor): Promise<void> {
  await services.newsEditor.deleteNews(id, actor);
  await services.newsEditor.bulkAction("erase", [id], testsActor);
}
