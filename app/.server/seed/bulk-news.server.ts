import { randomUUID } from "node:crypto";
import { canonicalNewsTerms } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import { publishedNewsRow } from "#app/.server/news/news-rows.server.ts";
import { loadSharp } from "#app/.server/media/sharp.server.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import type { NewNewsRow } from "#app/.server/db/schema.ts";
import { type ProcessedImage, processImage } from "#app/.server/media/image-variants.server.ts";
import { CITIES, CLOSING_PARAGRAPHS, COACHES, DAYS, REPORTERS, SPORTS, type SportWords } from "./bulk-news-words.ts";

export interface BulkNewsOptions {
  /** How many news to add. */
  count: number;
  /** Share of them marked as highlighted (0–1), spread evenly over the timeline. Default 0.15. */
  highlightedShare?: number;
  /**
   * How many of the newest news get a picture (default 60). Each gets a media record and files of its own: a
   * media record belongs to one news item (editing or deleting the news deletes it, files included), so the
   * pictures (one per category) are encoded once and stored again for each news item, never shared. The rest have
   * no media.
   */
  withImages?: number;
  /** The newest news is just before this instant. Default: now. */
  now?: Date;
  /** Average time between two news (each gets a distinct instant within its own slot). Default 10 minutes. */
  spacingMs?: number;
  /** Seed of the word picker, for repeatable text. Default: random. */
  seed?: number;
  /** Rows per INSERT statement. Default 500 (10 columns: far under SQLite's and PostgreSQL's parameter limits). */
  rowsPerStatement?: number;
  /** Statements per transaction. Default 4. */
  statementsPerTransaction?: number;
  /** Called after each committed transaction. */
  onProgress?(inserted: number, total: number): void;
}

export interface BulkNewsResult {
  inserted: number;
  highlighted: number;
  withImages: number;
  /** True when pictures were wanted but the media store is not connected (Google Drive before consent). */
  imagesSkipped: boolean;
  /** The newest news added (the first a reader sees). */
  newestId: string | null;
  ms: number;
}

/** Hue of each category's generated picture (degrees on the colour wheel). */
const PICTURE_HUE: Record<string, number> = {
  Futebol: 130,
  Basquete: 25,
  Vôlei: 50,
  Tênis: 90,
  "Fórmula 1": 0,
  MMA: 280,
  Atletismo: 15,
  Natação: 200,
};

/**
 * Adds `count` generated news straight into the database, newest first on a timeline going back from `now`, in
 * multi-row INSERTs grouped in transactions (100 000 rows take seconds, not the minutes one INSERT per row would).
 * Fires no event (`npm run seed:news` publishes one when it is done; servers on the same SQLite file see the
 * commits themselves). Running it again
 * adds more news; nothing it writes can collide with what is there (random ids, per-record media keys).
 */
export async function seedBulkNews(
  services: Pick<AppServices, "database" | "media" | "store" | "config">,
  options: BulkNewsOptions,
): Promise<BulkNewsResult> {
  const started = performance.now();
  const { db } = services.database;
  const count = Math.max(0, Math.floor(options.count));
  const share = Math.min(1, Math.max(0, options.highlightedShare ?? 0.15));
  const spacingMs = Math.max(2, Math.floor(options.spacingMs ?? 600_000));
  const perStatement = options.rowsPerStatement ?? 500;
  const perTransaction = perStatement * (options.statementsPerTransaction ?? 4);
  const now = (options.now ?? new Date()).getTime();
  const random = mulberry32(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const wantedImages = Math.min(count, Math.max(0, Math.floor(options.withImages ?? 60)));
  const imagesSkipped = wantedImages > 0 && !(await services.store.isConnected());
  let imagesLeft = imagesSkipped ? 0 : wantedImages;
  const pictures = pictureCache();
  const result: BulkNewsResult = { inserted: 0, highlighted: 0, withImages: 0, imagesSkipped, newestId: null, ms: 0 };

  // A handful of categories and reporters: each is recorded (taxonomy_terms) once.
  const known = new Map<string, Awaited<ReturnType<typeof canonicalNewsTerms>>>();
  async function canonicalNewsTermsCached(text: { category: string; author: string }) {
    const key = `${text.category}\u0000${text.author}`;
    let terms = known.get(key);
    if (!terms) {
      terms = await canonicalNewsTerms(db, text, new Date(now).toISOString());
      known.set(key, terms);
    }
    return terms;
  }

  for (let start = 0; start < count; start += perTransaction) {
    const rows: NewNewsRow[] = [];
    for (let index = start; index < Math.min(count, start + perTransaction); index++) {
      const sport = SPORTS[Math.floor(random() * SPORTS.length)]!;
      const text = composeNews(sport, random, services.config.site.defaultAuthor);
      // Exactly floor(count × share) highlights, evenly spread (the epsilon absorbs 0.15 × 20 = 2.9999…).
      const highlighted = Math.floor((index + 1) * share + 1e-9) > Math.floor(index * share + 1e-9);
      // Each news item has its own slot of `spacingMs` on the timeline: instants never repeat.
      const createdAt = new Date(now - index * spacingMs - 1 - Math.floor(random() * (spacingMs - 1))).toISOString();
      let mediaId: string | null = null;
      if (imagesLeft > 0) {
        const image = await pictures.get(sport.category);
        mediaId = (await services.media.saveProcessedImage(image.processed, image.sizeBytes, "foto.jpg")).id;
        imagesLeft--;
        result.withImages++;
      }
      const id = randomUUID();
      if (index === 0) result.newestId = id;
      if (highlighted) result.highlighted++;
      const terms = await canonicalNewsTermsCached(text);
      rows.push(publishedNewsRow({ id, content: { ...text, body: null, is_highlighted: highlighted ? 1 : 0 }, terms, mediaId, createdAt }));
    }
    await db.transaction().execute(async (trx) => {
      for (let offset = 0; offset < rows.length; offset += perStatement) {
        await trx
          .insertInto("news")
          .values(rows.slice(offset, offset + perStatement))
          .execute();
      }
    });
    result.inserted += rows.length;
    options.onProgress?.(result.inserted, count);
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** Draws and encodes each category's picture once, on first use. */
function pictureCache() {
  const cache = new Map<string, Promise<{ processed: ProcessedImage; sizeBytes: number }>>();
  return {
    get(category: string) {
      let entry = cache.get(category);
      if (!entry) {
        entry = renderPicture(PICTURE_HUE[category] ?? 210).then(async (jpeg) => ({ processed: await processImage(jpeg), sizeBytes: jpeg.length }));
        cache.set(category, entry);
      }
      return entry;
    },
  };
}

/**
 * A 1600×900 JPEG standing in for a news photo: a lit arena in the category's colour, lines of a court and a
 * ball. Cheap to draw (the demo's illustrations take seconds each), and as big as a real upload, so every variant
 * (400, 800, 1200, 1600 px, JPEG and WebP) is produced by the normal pipeline.
 */
export async function renderPicture(hue: number): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900"><defs>` +
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,18%)"/>` +
    `<stop offset="1" stop-color="hsl(${hue},60%,42%)"/></linearGradient>` +
    `<radialGradient id="light" cx="0.7" cy="0.15" r="0.6"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/>` +
    `<stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>` +
    `<rect width="1600" height="900" fill="url(#sky)"/>` +
    `<polygon points="0,900 380,520 1220,520 1600,900" fill="hsl(${hue},55%,32%)"/>` +
    `<g stroke="#fff" stroke-opacity="0.7" stroke-width="6" fill="none"><line x1="800" y1="520" x2="800" y2="900"/>` +
    `<ellipse cx="800" cy="690" rx="190" ry="70"/><polyline points="380,520 1220,520"/></g>` +
    `<circle cx="1040" cy="610" r="46" fill="#f5f5f0"/><circle cx="1040" cy="610" r="46" fill="none" stroke="#222" stroke-width="4"/>` +
    `<rect width="1600" height="900" fill="url(#light)"/></svg>`;
  return (await loadSharp())(Buffer.from(svg)).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
}

type NewsText = Pick<NewNewsRow, "title" | "subtitle" | "full_content" | "category" | "author">;

/** One news item's text: a title, a subtitle and 3 to 5 paragraphs about the same two sides and competition. */
export function composeNews(sport: SportWords, random: () => number, defaultAuthor: string): NewsText {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const a = pick(sport.sides);
  let b = pick(sport.sides);
  while (b === a) b = pick(sport.sides);
  const slots: Record<string, string> = {
    a,
    b,
    city: pick(CITIES),
    k: String(Math.floor(random() * 3)),
    n: String(1 + Math.floor(random() * 9)),
    m: String(10 + Math.floor(random() * 80)),
    coach: pick(COACHES),
    day: pick(DAYS),
  };
  slots.comp = fill(pick(sport.competitions), slots);
  const [title, subtitle] = pick(sport.stories);
  const body = shuffled(sport.paragraphs, random).slice(0, 2 + Math.floor(random() * 3));
  body.push(pick(CLOSING_PARAGRAPHS));
  return {
    title: fill(title, slots),
    subtitle: fill(subtitle, slots),
    full_content: body.map((paragraph) => fill(paragraph, slots)).join("\n\n"),
    category: sport.category,
    author: random() < 0.35 ? pick(REPORTERS) : defaultAuthor,
  };
}

function fill(pattern: string, slots: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (whole, name: string) => slots[name] ?? whole);
}

function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const copy = [...list];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/** A small, fast, seedable PRNG (uniform in [0, 1)): the same seed gives the same news. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
