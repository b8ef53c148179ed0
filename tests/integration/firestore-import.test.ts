/**
 * `npm run import:firestore`: the sample export of the original product (tests/fixtures/firestore, one file per
 * format) imported into a real database (SQLite, or PostgreSQL with TEST_DATABASE=postgres) and a real local media
 * store: every format, every timestamp shape, the original's defaults, refused documents, idempotence, copied and
 * external media, and how the rest of the app treats external media (pages, deletion, the orphan sweeper).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importFirestore, type ImportSummary, summaryLines } from "#app/.server/import/firestore-import.server.ts";
import { parseTimestamp } from "#app/.server/import/firestore-export.server.ts";
import { shellQuote, terminalText } from "#app/.server/import/terminal-text.ts";
import { terminal } from "#app/i18n/pt-BR.ts";
import { t as newsroomText } from "#app/i18n/newsroom.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { ownPrefix } from "#app/.server/media/installation.server.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { referencedMediaKeys } from "#scripts/backup.ts";
import { TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { eraseNews } from "#tests/factories/news.ts";

const FIXTURES = path.resolve("tests/fixtures/firestore");
const FORMAT_A = path.join(FIXTURES, "firestore-export-import.json");
const FORMAT_B = path.join(FIXTURES, "node-firestore-import-export.json");
const FORMAT_C = path.join(FIXTURES, "export.ndjson");
const MEDIA = path.join(FIXTURES, "media");
const DRIVE_IMAGE = "1ExKq9Zt_Fotografia-Final-Maracana";
const THUMBNAIL = `https://drive.google.com/thumbnail?id=${DRIVE_IMAGE}&sz=w1600`;

const open = useTestServices("eef-import-");
/** The summary's texts. */
const t = terminal.import.summary;

async function run(services: TestServices, input: string, options: { mediaDir?: string; dryRun?: boolean } = {}) {
  const lines: string[] = [];
  const summary = await importFirestore(services, input, { ...options, report: (line) => lines.push(line) });
  return { summary, lines };
}

/** The news columns the import writes (not PostgreSQL's generated search column, which the database derives). */
const NEWS_COLUMNS = [
  "id",
  "title",
  "subtitle",
  "full_content",
  "category",
  "author",
  "is_highlighted",
  "media_id",
  "created_at",
  "updated_at",
] as const;

const newsRow = (services: TestServices, id: string) =>
  services.database.db.selectFrom("news").select(NEWS_COLUMNS).where("id", "=", id).executeTakeFirst();

/** Every row of the tables the import writes, in a stable order. */
async function dump(services: TestServices) {
  const { db } = services.database;
  return {
    news: await db.selectFrom("news").select(NEWS_COLUMNS).orderBy("id").execute(),
    sponsors: await db.selectFrom("sponsors").selectAll().orderBy("id").execute(),
    media: await db.selectFrom("media").selectAll().orderBy("id").execute(),
  };
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(dir, entry)).isFile()).sort();
}

const counts = (imported: number, existing: number, refused: number, externalMedia: number, copiedMedia: number) => ({
  imported,
  existing,
  refused,
  externalMedia,
  copiedMedia,
});

const emptySummary = (): ImportSummary => ({
  news: counts(0, 0, 0, 0, 0),
  sponsors: counts(0, 0, 0, 0, 0),
  admins: [],
  ignored: {},
  unreadable: 0,
  externalOrigins: [],
  published: [],
});

describe("each format of the export", () => {
  it("firestore-export-import (collections → {id: fields}): ids kept, fields and {_seconds,_nanoseconds} times, the malformed one refused", async () => {
    const services = await open();
    const { summary, lines } = await run(services, FORMAT_A);
    expect(lines).toEqual(["news/malformado01: Título é obrigatório."]);
    expect(summary.news).toEqual(counts(2, 0, 1, 1, 0));
    expect(summary.sponsors).toEqual(counts(1, 0, 0, 1, 0));
    expect(summary.admins).toEqual([{ uid: "uidFirebaseEditora01", email: "editora@exemplo.com.br" }]);

    expect(await newsRow(services, "Kx7vQ2mN9pLr4TsW8yZa")).toMatchObject({
      title: "Flamengo vence no Maracanã e assume a liderança",
      subtitle: "Com dois gols no segundo tempo, o rubro-negro chegou a 30 pontos.",
      full_content: "O Flamengo venceu por 2 a 0 neste domingo.\n\nOs gols saíram nos minutos finais.",
      category: "Futebol",
      author: "Ana Lima",
      is_highlighted: 1,
      created_at: "2024-05-12T18:30:00.250Z",
      updated_at: "2024-05-12T21:00:00.000Z",
    });
    expect(await newsRow(services, "malformado01")).toBeUndefined();
  });

  it("node-firestore-import-export (__collections__, __datatype__ timestamps): nested collections ignored, a document without createdAt refused", async () => {
    const services = await open();
    const { summary, lines } = await run(services, FORMAT_B);
    expect(lines).toEqual(["news/semData0001: data de criação ausente ou inválida"]);
    expect(summary.news).toEqual(counts(1, 0, 1, 1, 0));
    expect(summary.sponsors).toEqual(counts(1, 0, 0, 1, 0));
    expect(summary.admins).toEqual([{ uid: "uidFirebaseEditor002", email: null }]);
    expect(summary.ignored).toEqual({});
    const video = await newsRow(services, "Nf8dH3kL2mQ9rT5vW1xY");
    expect(video).toMatchObject({
      title: "Melhores momentos da final do vôlei",
      author: "Redação Esporte em Foco",
      is_highlighted: 0,
      created_at: "2024-07-20T14:45:00.123Z",
      updated_at: "2024-07-21T08:00:00.000Z",
    });
    const media = await services.database.db.selectFrom("media").selectAll().where("id", "=", video!.media_id!).executeTakeFirstOrThrow();
    // A video keeps its mediaUrl (Drive's thumbnail is an image, not the video).
    expect(media).toMatchObject({
      kind: "video",
      store: "external",
      key: "https://drive.google.com/uc?export=download&id=1VideoFinalVolei#news-Nf8dH3kL2mQ9rT5vW1xY",
      mime_type: "video/mp4",
      variants: "[]",
    });
    const sponsor = await services.database.db
      .selectFrom("sponsors")
      .innerJoin("media", "media.id", "sponsors.media_id")
      .select(["sponsors.created_at", "media.key", "media.kind"])
      .where("sponsors.id", "=", "Sp0nsorLojaVerde0002")
      .executeTakeFirstOrThrow();
    expect(sponsor).toEqual({
      created_at: "2024-03-10T10:00:00.500Z",
      key: "https://cdn.lojaverde.example/logo.png#sponsors-Sp0nsorLojaVerde0002",
      kind: "image",
    });
  });

  it("NDJSON (path/data per line, read line by line): subcollection lines skipped, a bad line and bad text refused on their own lines", async () => {
    const services = await open();
    const { summary, lines } = await run(services, FORMAT_C);
    expect(lines).toEqual([
      "news/Lm1nB2vC3xZ4aS5dF6gH: endereço da mídia não é http(s); importada sem mídia",
      `news/controle01: ${newsroomText.newsForm.unsaveableCharacter("Título", "\uE000", "U+E000")}`,
      "export.ndjson:5: a linha não é um JSON válido",
    ]);
    expect(summary.news).toEqual(counts(2, 0, 1, 0, 0));
    expect(summary.sponsors).toEqual(counts(1, 0, 0, 1, 0));
    expect(summary.unreadable).toBe(1);
    expect(summary.ignored).toEqual({ users: 1 });
    expect(await newsRow(services, "Zt6yU8iO0pA2sD4fG6hJ")).toMatchObject({
      author: "João Souza",
      is_highlighted: 1,
      created_at: "2024-06-02T09:15:00.500Z",
      updated_at: "2024-06-02T15:00:00.000Z",
    });
    expect(await newsRow(services, "Lm1nB2vC3xZ4aS5dF6gH")).toMatchObject({ media_id: null });
  });

  it("a byte order mark at the start of a file is not an error (JSON and NDJSON)", async () => {
    const services = await open();
    const dir = path.join(services.dataDir, "bom");
    fs.mkdirSync(dir);
    const data = { title: "T", subtitle: "S", createdAt: "2024-06-01T12:00:00Z" };
    fs.writeFileSync(path.join(dir, "a.json"), `\uFEFF${JSON.stringify({ news: { bomJson: data } })}`);
    fs.writeFileSync(path.join(dir, "b.jsonl"), `\uFEFF${JSON.stringify({ path: "news/bomLinha", data })}\r\n`);
    fs.writeFileSync(path.join(dir, "leia-me.txt"), "não é exportação");
    const { summary, lines } = await run(services, dir);
    expect(lines).toEqual([]);
    expect(summary.news.imported).toBe(2);
  });

  it("a folder is every export file in it: all of them, the admins listed once", async () => {
    const services = await open();
    const { summary } = await run(services, FIXTURES);
    expect(summary.news).toEqual(counts(5, 0, 3, 2, 0));
    expect(summary.sponsors).toEqual(counts(3, 0, 0, 3, 0));
    expect(summary.admins.map((admin) => admin.uid)).toEqual(["uidFirebaseEditora01", "uidFirebaseEditor002"]);
    expect((await dump(services)).news.map((row) => row.id)).toEqual([
      "Bq3nR5tY7uI9oP1aS2dF",
      "Kx7vQ2mN9pLr4TsW8yZa",
      "Lm1nB2vC3xZ4aS5dF6gH",
      "Nf8dH3kL2mQ9rT5vW1xY",
      "Zt6yU8iO0pA2sD4fG6hJ",
    ]);
  });
});

describe("timestamps", () => {
  it("reads every shape the export tools write, and nothing else", () => {
    const expected = "2024-05-12T18:30:00.250Z";
    expect(parseTimestamp({ _seconds: 1715538600, _nanoseconds: 250000000 })).toBe(expected);
    expect(parseTimestamp({ seconds: 1715538600, nanoseconds: 250999999 })).toBe(expected);
    expect(parseTimestamp({ __datatype__: "timestamp", value: { _seconds: 1715538600, _nanoseconds: 250000000 } })).toBe(expected);
    expect(parseTimestamp({ __datatype__: "timestamp", value: "2024-05-12T15:30:00.25-03:00" })).toBe(expected);
    expect(parseTimestamp("2024-05-12T18:30:00.250Z")).toBe(expected);
    expect(parseTimestamp("2024-05-12T18:30Z")).toBe("2024-05-12T18:30:00.000Z");
    expect(parseTimestamp({ seconds: 1715538600 })).toBe("2024-05-12T18:30:00.000Z");
    for (const bad of [
      undefined,
      null,
      "",
      "ontem",
      "2024-05-12",
      "2024-05-12T18:30:00",
      "2024-13-40T18:30:00Z",
      1715538600,
      { _seconds: "1715538600" },
      { _seconds: 1.5 },
      { _seconds: 1715538600, _nanoseconds: 2_000_000_000 },
      { __datatype__: "geopoint", value: { _latitude: 0, _longitude: 0 } },
      { _seconds: -5_000_000_000 },
    ]) {
      expect(parseTimestamp(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe("the original's defaults and the form's rules", () => {
  it("fullContent = subtitle, category 'Geral', author = the newsroom, not highlighted, updatedAt = createdAt", async () => {
    const services = await open();
    await run(services, FORMAT_A);
    expect(await newsRow(services, "Bq3nR5tY7uI9oP1aS2dF")).toEqual({
      id: "Bq3nR5tY7uI9oP1aS2dF",
      title: "Seleção feminina convocada para amistosos",
      subtitle: "A técnica anunciou 23 nomes para a data Fifa de junho.",
      full_content: "A técnica anunciou 23 nomes para a data Fifa de junho.",
      category: "Geral",
      author: "Redação Esporte em Foco",
      is_highlighted: 0,
      media_id: null,
      created_at: "2024-06-01T12:00:00.000Z",
      updated_at: "2024-06-01T12:00:00.000Z",
    });
  });

  it("refuses each malformed document with one line naming it, imports the rest (cleaned)", async () => {
    const services = await open();
    const file = path.join(services.dataDir, "ruins.json");
    const ok = { subtitle: "Sub", createdAt: "2024-06-01T12:00:00Z" };
    fs.writeFileSync(
      file,
      JSON.stringify({
        news: {
          semTitulo: { ...ok, title: "   " },
          longo: { ...ok, title: "x".repeat(301) },
          direcao: { ...ok, title: "abc\u202Edef" },
          marca: { ...ok, title: "T", author: "Ana\u200F" },
          separador: { ...ok, title: "T", fullContent: "linha\u2028outra" },
          tipo: { ...ok, title: 42 },
          destaque: { ...ok, title: "T", isHighlighted: "sim" },
          atualizacao: { ...ok, title: "T", updatedAt: "amanhã" },
          "id com espaço": { ...ok, title: "T" },
          naoObjeto: "texto",
          bom: { ...ok, title: "  Cafe\u0301 com NFC  " },
        },
        sponsors: { semImagem: { createdAt: "2024-06-01T12:00:00Z" }, semData: { imageUrl: "https://x.example/a.png" } },
      }),
    );
    const { summary, lines } = await run(services, file);
    expect(lines).toEqual([
      "news/semTitulo: Título é obrigatório.",
      "news/longo: Título pode ter no máximo 300 caracteres.",
      // A title that is not text is refused as the form refuses a missing one.
      "news/tipo: Título é obrigatório.",
      "news/destaque: isHighlighted precisa ser verdadeiro ou falso",
      "news/atualizacao: data de atualização inválida",
      "news/id com espaço: id do documento inválido (use até 128 letras, números, -, _, . ou ~)",
      "news/naoObjeto: o documento não é um objeto de campos",
      "sponsors/semImagem: patrocinador sem imagem utilizável (imageUrl, thumbnailUrl ou driveFileId)",
      "sponsors/semData: data de criação ausente ou inválida",
    ]);
    expect(summary.news.refused).toBe(6);
    expect(summary.news.imported).toBe(4);
    // Text is normalised as the form does it (NFC, trimmed) and cleaned of direction marks and separators (issue 33).
    expect((await newsRow(services, "bom"))?.title).toBe("Café com NFC");
    expect((await newsRow(services, "direcao"))?.title).toBe("abcdef");
    expect((await newsRow(services, "marca"))?.author).toBe("Ana");
    expect((await dump(services)).news).toHaveLength(4);
  });
});

describe("running it twice", () => {
  it("changes nothing: identical tables, no new media files, everything counted as already here (CLI, exit codes, summary)", async () => {
    const services = await open();
    const database = services.config.database;
    const cli = () =>
      spawnSync(process.execPath, [path.resolve("scripts/import-firestore.ts"), FIXTURES, "--media-dir", MEDIA], {
        env: {
          ...process.env,
          DATA_DIR: services.dataDir,
          ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : {}),
          SEED_DEMO: "0",
          NODE_ENV: "production",
          EXTERNAL_MEDIA_ORIGINS: "",
        },
        encoding: "utf8",
        timeout: 60_000,
      });
    const first = cli();
    // Refused documents make the exit code 2; the others are imported.
    expect(first.status, first.stderr).toBe(2);
    expect(first.stdout).toContain("news: 5 importadas, 0 já existentes, 3 recusadas, 1 com mídia externa, 1 com mídia copiada");
    expect(first.stdout).toContain("sponsors: 3 importadas, 0 já existentes, 0 recusadas, 3 com mídia externa, 0 com mídia copiada");
    expect(first.stdout).toContain("npm run admin -- create --email 'editora@exemplo.com.br'    # uid original: 'uidFirebaseEditora01'");
    // The origins to review, one a line, marked; never a setting line to paste.
    expect(first.stdout).toContain(`  - https://cdn.lojaverde.example  ${t.originCheck}`);
    expect(first.stdout).toContain(`  - https://drive.google.com  ${t.originDrive}`);
    expect(first.stdout).toContain(`  - https://*.googleusercontent.com  ${t.originDrive}`);
    expect(first.stdout).not.toContain("EXTERNAL_MEDIA_ORIGINS=");
    expect(first.stderr.split("\n").filter(Boolean).sort()).toEqual(
      [
        "export.ndjson:5: a linha não é um JSON válido",
        "news/Lm1nB2vC3xZ4aS5dF6gH: endereço da mídia não é http(s); importada sem mídia",
        `news/controle01: ${newsroomText.newsForm.unsaveableCharacter("Título", "\uE000", "U+E000")}`,
        "news/malformado01: Título é obrigatório.",
        "news/semData0001: data de criação ausente ou inválida",
        "sponsors/Sp0nsorClube00000003: arquivo 1SponsorNaoImagem.png não usado (tipo não aceito); a mídia fica externa",
      ].sort(),
    );
    const tables = await dump(services);
    const files = listFiles(path.join(services.dataDir, "media"));
    expect(files.length).toBeGreaterThan(0);

    const second = cli();
    expect(second.status).toBe(2);
    expect(second.stdout).toContain("news: 0 importadas, 5 já existentes, 3 recusadas, 0 com mídia externa, 0 com mídia copiada");
    expect(second.stdout).toContain("sponsors: 0 importadas, 3 já existentes, 0 recusadas, 0 com mídia externa, 0 com mídia copiada");
    expect(await dump(services)).toEqual(tables);
    expect(listFiles(path.join(services.dataDir, "media"))).toEqual(files);
  }, 120_000);

  it("the command refuses what it cannot run with exit code 1 and a pt-BR line, writing nothing", async () => {
    const services = await open();
    const database = services.config.database;
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [path.resolve("scripts/import-firestore.ts"), ...args], {
        env: { ...process.env, DATA_DIR: services.dataDir, ...(database.kind === "postgres" ? { DATABASE_URL: database.url } : {}), SEED_DEMO: "0" },
        encoding: "utf8",
        timeout: 60_000,
      });
    // The arguments are read before the database is opened (the same on both engines: checked in the SQLite pass);
    // the export's path, once the command has opened it.
    const beforeTheDatabase: Array<[string[], string]> = [
      [[], "Informe um arquivo ou uma pasta de exportação."],
      [["a.json", "b.json"], "Informe um arquivo ou uma pasta de exportação."],
      [["--media-dir"], "--media-dir"],
      [[FIXTURES, "--media-dir", path.join(services.dataDir, "nao-existe")], "não é uma pasta"],
    ];
    const cases: Array<[string[], string]> = [
      ...(TEST_DATABASE === "sqlite" ? beforeTheDatabase : []),
      [[path.join(services.dataDir, "nao-existe.json")], "arquivo ou pasta não encontrado"],
      [[path.join(FIXTURES, "media")], "nenhum arquivo .json, .ndjson ou .jsonl nesta pasta"],
    ];
    for (const [args, message] of cases) {
      const result = cli(args);
      expect(result.status, args.join(" ")).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(/\bat \w/);
    }
    expect(await dump(services)).toEqual({ news: [], sponsors: [], media: [] });
  }, 120_000);

  it("--dry-run checks and counts but writes nothing", async () => {
    const services = await open();
    const { summary, lines } = await run(services, FIXTURES, { mediaDir: MEDIA, dryRun: true });
    expect(summary.news).toEqual(counts(5, 0, 3, 1, 1));
    expect(summary.published).toEqual([]);
    expect(lines).toContain("news/malformado01: Título é obrigatório.");
    expect(await dump(services)).toEqual({ news: [], sponsors: [], media: [] });
    expect(listFiles(path.join(services.dataDir, "media"))).toEqual([]);
    expect(summaryLines(summary, { dryRun: true, externalOrigins: [], database: "sqlite" })[0]).toBe(
      "Resumo da simulação (--dry-run: nada foi gravado):",
    );
  });

  it("publishes newsUpdated and sponsorsUpdated after writing, so running servers refresh (across processes on PostgreSQL)", async () => {
    const services = await open();
    const received: string[] = [];
    services.events.subscribe((event) => received.push(event));
    // On PostgreSQL the event comes back through LISTEN/NOTIFY: wait until this subscriber listens.
    await (services.events as { listening?: () => Promise<void> }).listening?.();
    const { summary } = await run(services, FORMAT_A);
    expect(summary.published).toEqual(["newsUpdated", "sponsorsUpdated"]);
    await expect.poll(() => [...received].sort()).toEqual(["newsUpdated", "sponsorsUpdated"]);
    const again = await run(services, FORMAT_A);
    expect(again.summary.published).toEqual([]);
  });
});

describe("media", () => {
  it("--media-dir: the file named by the Drive id goes through the pipeline (variants in the store); a file of the wrong type is refused and the media stays external", async () => {
    const services = await open();
    const { summary, lines } = await run(services, FIXTURES, { mediaDir: MEDIA });
    expect(summary.news.copiedMedia).toBe(1);
    expect(lines).toContain("sponsors/Sp0nsorClube00000003: arquivo 1SponsorNaoImagem.png não usado (tipo não aceito); a mídia fica externa");
    const row = await newsRow(services, "Kx7vQ2mN9pLr4TsW8yZa");
    const media = await services.database.db.selectFrom("media").selectAll().where("id", "=", row!.media_id!).executeTakeFirstOrThrow();
    expect(media).toMatchObject({ kind: "image", store: "local", width: 64, height: 36, original_name: `${DRIVE_IMAGE}.jpg` });
    const variants = JSON.parse(media.variants) as Array<{ key: string; format: string }>;
    expect(variants.map((variant) => variant.format).sort()).toEqual(["jpeg", "webp"]);
    for (const variant of variants) expect(await services.store.stat(variant.key)).not.toBeNull();
    const view = (await services.news.getNews("Kx7vQ2mN9pLr4TsW8yZa")).media;
    expect(view).toMatchObject({ external: false, src: `/media/${media.key}` });
    expect(view?.webpSrcSet).toContain("/media/");

    const sponsorMedia = await services.database.db
      .selectFrom("sponsors")
      .innerJoin("media", "media.id", "sponsors.media_id")
      .select(["media.store", "media.key"])
      .where("sponsors.id", "=", "Sp0nsorClube00000003")
      .executeTakeFirstOrThrow();
    expect(sponsorMedia).toEqual({
      store: "external",
      key: "https://drive.google.com/thumbnail?id=1SponsorNaoImagem&sz=w1600#sponsors-Sp0nsorClube00000003",
    });
  });

  it("external media: the page gets the address (Drive thumbnail for images with a drive id), no srcset, marked external", async () => {
    const services = await open();
    await run(services, FORMAT_A);
    const article = await services.news.getNews("Kx7vQ2mN9pLr4TsW8yZa");
    expect(article.media).toEqual({
      kind: "image",
      src: `${THUMBNAIL}#news-Kx7vQ2mN9pLr4TsW8yZa`,
      mimeType: "image/jpeg",
      width: null,
      height: null,
      srcSet: null,
      webpSrcSet: null,
      largeSrc: `${THUMBNAIL}#news-Kx7vQ2mN9pLr4TsW8yZa`,
      external: true,
      // Imported images have no description (the pages use the title), caption or credit.
      description: null,
      caption: null,
      credit: null,
    });
    const home = await services.news.getHome();
    expect([...home.recent, ...home.highlights].find((item) => item.id === "Kx7vQ2mN9pLr4TsW8yZa")?.media?.external).toBe(true);
    const [sponsor] = await services.sponsors.listSponsors();
    expect(sponsor?.image).toMatchObject({
      external: true,
      src: "https://drive.google.com/thumbnail?id=1SponsorLogoBancoAzul&sz=w1600#sponsors-Sp0nsorBancoAzul0001",
    });
  });

  it("feeds link external media at its address (without the #news-… marker), with its type", async () => {
    const services = await open();
    await run(services, FORMAT_A);
    const xml = await createSyndication({ db: services.database.db, store: services.store, site: services.config.site }).rss({
      highlightedOnly: true,
    });
    expect(xml).toContain(`<enclosure url="${THUMBNAIL.replace("&", "&amp;")}" length="0" type="image/jpeg"/>`);
    expect(xml).not.toContain("#news-");
  });

  // The backup command covers the embedded setup only (SQLite + local media): nothing to check on PostgreSQL.
  it.skipIf(TEST_DATABASE === "postgres")("backups do not look for files of external media (they are not missing)", async () => {
    const services = await open();
    await run(services, FIXTURES, { mediaDir: MEDIA });
    const file = services.config.database.kind === "sqlite" ? services.config.database.file : "";
    const keys = referencedMediaKeys(file);
    // The copied image's two variants; none of the five external addresses.
    const prefix = ownPrefix(await services.installation.id());
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key.startsWith(prefix) && !key.includes("://"), key).toBe(true);
  });

  it("deleteMedia on external media removes the record and never a stored file, even one at the same key", async () => {
    const services = await open();
    const { db } = services.database;
    // A real object whose key an external record also carries: deleting the record must leave the object alone.
    const key = `${ownPrefix(await services.installation.id())}img/mesma-chave/800.jpg`;
    await services.store.put(key, Buffer.from("arquivo de verdade"), "image/jpeg");
    await db
      .insertInto("media")
      .values({
        id: "externa-1",
        kind: "image",
        store: "external",
        key,
        mime_type: "image/jpeg",
        size_bytes: 0,
        width: null,
        height: null,
        variants: "[]",
        original_name: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    expect(await services.media.deleteMedia("externa-1")).toBe(true);
    expect(await db.selectFrom("media").select("id").where("id", "=", "externa-1").executeTakeFirst()).toBeUndefined();
    expect(await services.store.stat(key)).toEqual({ size: 18 });

    // Deleting an imported news item through the editor removes its external record the same way.
    await run(services, FORMAT_A);
    const mediaId = (await newsRow(services, "Kx7vQ2mN9pLr4TsW8yZa"))!.media_id!;
    await eraseNews(services, "Kx7vQ2mN9pLr4TsW8yZa");
    expect(await db.selectFrom("media").select("id").where("id", "=", mediaId).executeTakeFirst()).toBeUndefined();
  });

  it("the orphan sweeper never touches external records, nor objects at their keys", async () => {
    const services = await open();
    const { db } = services.database;
    await run(services, FORMAT_A);
    const installationId = await services.installation.id();
    // An external record at a key of ours, with a real object there; and the imported records left unreferenced.
    const key = `${ownPrefix(installationId)}img/importada/800.jpg`;
    await services.store.put(key, Buffer.from("objeto"), "image/jpeg");
    const old = "2020-01-01T00:00:00.000Z";
    await db
      .insertInto("media")
      .values({
        id: "externa-sweep",
        kind: "image",
        store: "external",
        key,
        mime_type: "image/jpeg",
        size_bytes: 0,
        width: null,
        height: null,
        variants: "[]",
        original_name: null,
        created_at: old,
      })
      .execute();
    await db.deleteFrom("news").execute();
    await db.deleteFrom("sponsors").execute();
    await db.updateTable("media").set({ created_at: old }).execute();
    const before = await db.selectFrom("media").selectAll().orderBy("id").execute();
    expect(before.every((row) => row.store === "external")).toBe(true);
    expect(before).toHaveLength(3);

    const result = await sweepOrphans({
      db,
      store: services.store,
      log: createLogger({ logLevel: "silent" }),
      installationId,
      graceMs: 1000,
      now: () => new Date(Date.now() + 86_400_000),
    });
    expect(result).toMatchObject({ removedRecords: 0, removedFiles: 0 });
    expect(await db.selectFrom("media").selectAll().orderBy("id").execute()).toEqual(before);
    expect(await services.store.stat(key)).toEqual({ size: 6 });
  });
});

describe("the summary", () => {
  const base: ImportSummary = {
    news: counts(1, 0, 0, 1, 0),
    sponsors: counts(0, 0, 0, 0, 0),
    admins: [],
    ignored: {},
    unreadable: 0,
    externalOrigins: ["https://*.googleusercontent.com", "https://drive.google.com"],
    published: ["newsUpdated"],
  };
  it("lists the origins not allowed yet for review, only when there are some, and says how running servers learn of the import", () => {
    const text = (externalOrigins: string[], database: "sqlite" | "postgres") =>
      summaryLines(base, { dryRun: false, externalOrigins, database }).join("\n");
    expect(text([], "sqlite")).toContain(`  - https://*.googleusercontent.com  ${t.originDrive}\n  - https://drive.google.com  ${t.originDrive}`);
    expect(text(["https://drive.google.com", "https://*.googleusercontent.com"], "sqlite")).not.toContain(t.externalMediaHidden[0]);
    expect(text(["https://drive.google.com"], "sqlite")).not.toContain("  - https://drive.google.com");
    expect(text(["https://drive.google.com"], "sqlite")).toContain("  - https://*.googleusercontent.com");
    for (const allowed of [[], ["https://drive.google.com"]]) expect(text(allowed, "sqlite")).not.toContain("EXTERNAL_MEDIA_ORIGINS=");
    expect(text([], "sqlite")).toContain("Servidores em execução com este arquivo SQLite percebem a mudança em até 2 s");
    expect(text([], "postgres")).toContain("Servidores em execução foram avisados (PostgreSQL LISTEN/NOTIFY)");
  });
});

describe("an export is not trusted: what the import prints", () => {
  /** Any character that would act on a terminal or change how a line reads. */
  const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\u2028\u2029\uFEFF]/u;
  const hostile = {
    admins: {
      comando: { email: "x@$(id>p)" },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${IFS}, literally (the red-team's input).
      ponto: { email: ";touch${IFS}pwned;#" },
      crase: { email: "`touch pwned`@exemplo.com.br" },
      aspas: { email: "O'Brien@Exemplo.com.br" },
      "esc\u001b]0;janela\u0007\u001b[2J": { email: "ok@exemplo.com.br" },
      numero: { email: 42 },
    },
    news: {
      controle: { title: "Gol\u001b[31m vermelho", subtitle: "s", createdAt: "2024-06-01T12:00:00Z" },
      "id\u001b[2Jruim": { title: "T", subtitle: "s", createdAt: "2024-06-01T12:00:00Z" },
      hostComando: { title: "T", subtitle: "s", createdAt: "2024-06-01T12:00:00Z", mediaUrl: "https://$(id).evil.example/a.jpg" },
      hostAtacante: { title: "T2", subtitle: "s", createdAt: "2024-06-01T12:00:00Z", mediaUrl: "https://imagens.atacante.example/a.jpg" },
      tipo: { title: "T3", subtitle: "s", createdAt: "2024-06-01T12:00:00Z", mediaType: "\u001b[1mfoto\u202E", mediaUrl: "https://x.example/a" },
    },
    "colecao\u001b[8m\u2028oculta": { d: {} },
  };

  it("e-mails under registration's rule, every printed line free of controls, values quoted, origins listed for review", async () => {
    const services = await open();
    const file = path.join(services.dataDir, "hostil.json");
    fs.writeFileSync(file, JSON.stringify(hostile));
    const { summary, lines } = await run(services, file, { dryRun: true });
    const printed = [...lines, ...summaryLines(summary, { dryRun: true, externalOrigins: [], database: "sqlite" })];
    for (const line of printed) expect(line, JSON.stringify(line)).not.toMatch(UNSAFE);

    expect(summary.admins.map((admin) => admin.email)).toEqual([null, null, null, "o'brien@exemplo.com.br", "ok@exemplo.com.br", null]);
    for (const uid of ["comando", "ponto", "crase", "numero"]) expect(lines).toContain(`admins/${uid}: ${terminal.import.adminEmailInvalid}`);
    expect(printed).toContain("  npm run admin -- create --email 'o'\\''brien@exemplo.com.br'    # uid original: 'aspas'");
    expect(printed).toContain("  npm run admin -- create --email EMAIL-DA-PESSOA    # uid original: 'comando'");
    // The escape sequences become one "?" each: nothing of them reaches the terminal.
    expect(printed).toContain("  npm run admin -- create --email 'ok@exemplo.com.br'    # uid original: 'esc??'");
    // A title with an escape sequence is imported without its control character (app/lib/clean-text.ts), not refused.
    expect(lines.some((line) => line.startsWith("news/controle"))).toBe(false);
    expect(lines.some((line) => line.startsWith("news/id?ruim: id do documento inválido"))).toBe(true);
    expect(lines).toContain("news/hostComando: endereço da mídia não é http(s); importada sem mídia");
    expect(lines).toContain("news/tipo: mediaType desconhecido (?foto?); importada sem mídia");
    expect(printed).toContain("  colecao??oculta: 1 documento(s) ignorado(s) (coleção não importada)");

    // The attacker's origin is listed to check, never as a line that allows it.
    expect(summary.externalOrigins).toEqual(["https://imagens.atacante.example"]);
    expect(printed).toContain(`  - https://imagens.atacante.example  ${t.originCheck}`);
    expect(printed.join("\n")).not.toContain("EXTERNAL_MEDIA_ORIGINS=");
  });

  it("a suggested admin line, pasted in a shell, passes each value as one word and runs nothing else", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-shell-"));
    try {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${IFS}, literally (the red-team's input).
      const values = ["x@$(id>p)", ";touch${IFS}pwned;#", "`touch pwned`", "o'brien@x.com", "a'\\''b", '"$HOME"', "fim\\"];
      for (const value of values) {
        const summary: ImportSummary = { ...emptySummary(), admins: [{ uid: value, email: value }] };
        const line = summaryLines(summary, { dryRun: true, externalOrigins: [], database: "sqlite" }).find((text) => text.includes("npm run admin"))!;
        // `npm` stands in as a function that prints its arguments, one a line.
        const pasted = spawnSync("sh", ["-c", `npm() { printf '%s\\n' "$@"; }\n${line}`], { cwd: dir, encoding: "utf8" });
        expect(pasted.stdout.split("\n").filter(Boolean), value).toEqual(["run", "admin", "--", "create", "--email", value]);
        expect(shellQuote(value)).toMatch(/^'.*'$/s);
      }
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("terminalText removes whole escape sequences (CSI, OSC, C1) and every control, format and separator character", () => {
    expect(terminalText("a\u001b[31;1mb\u001b[0m")).toBe("a?b?");
    expect(terminalText("\u001b]0;titulo\u0007x\u001b]8;;https://evil.example\u001b\\y")).toBe("?x?y");
    expect(terminalText("\u009b2Jz\u001bc")).toBe("?z?");
    expect(terminalText("a\rb\nc\u0008d")).toBe("a?b?c?d");
    expect(terminalText("abc\u202Efdp.exe \u200F\u061C\u2066x\u2069 \u2028\u2029")).toBe("abc?fdp.exe ???x? ??");
    expect(terminalText("Seleção vence — 2 × 1 ⚽")).toBe("Seleção vence — 2 × 1 ⚽");
  });
});
