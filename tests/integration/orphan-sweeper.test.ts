import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "#app/.server/logger.server.ts";
import { createMediaService } from "#app/.server/media/media.service.server.ts";
import { mediaKeys } from "#app/.server/media/media-keys.ts";
import { startOrphanSweeper, sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { createLocalStore } from "#app/.server/storage/local-store.server.ts";
import { createNews, createSponsor, eraseNews, makeTestImage } from "#tests/factories/news.ts";
import { makeDataDir } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-sweeper-");

const HOUR = 60 * 60 * 1000;
const GRACE = HOUR;
const silent = createLogger({ logLevel: "silent" });

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
    .map((entry) => entry.split(path.sep).join("/"))
    .sort();
}

const mediaDir = (services: TestServices) => path.join(services.dataDir, "media");
const uploadTmp = (services: TestServices) => path.join(services.dataDir, "tmp", "uploads");

/** Makes a file look `ms` old. */
function age(file: string, ms: number) {
  const when = new Date(Date.now() - ms);
  fs.utimesSync(file, when, when);
}

/** Makes a media record and all its files look `ms` old. */
async function ageMedia(services: TestServices, mediaId: string, ms: number): Promise<string[]> {
  const row = await services.database.db.selectFrom("media").selectAll().where("id", "=", mediaId).executeTakeFirstOrThrow();
  await services.database.db
    .updateTable("media")
    .set({ created_at: new Date(Date.now() - ms).toISOString() })
    .where("id", "=", mediaId)
    .execute();
  const keys = mediaKeys(row);
  for (const key of keys) age(path.join(mediaDir(services), key), ms);
  return keys;
}

async function mediaIdOfNews(services: TestServices, newsId: string): Promise<string> {
  const row = await services.database.db.selectFrom("news").select("media_id").where("id", "=", newsId).executeTakeFirstOrThrow();
  return row.media_id!;
}

async function mediaIdOfSponsor(services: TestServices, sponsorId: string): Promise<string> {
  const row = await services.database.db.selectFrom("sponsors").select("media_id").where("id", "=", sponsorId).executeTakeFirstOrThrow();
  return row.media_id;
}

async function mediaIds(services: TestServices): Promise<string[]> {
  return (await services.database.db.selectFrom("media").select("id").execute()).map((row) => row.id).sort();
}

/** The sweep's dependencies for `services` (this installation's id, the grace period). */
async function sweepDeps(services: TestServices, extra: Partial<Parameters<typeof sweepOrphans>[0]> = {}) {
  return {
    db: services.database.db,
    store: services.store,
    log: silent,
    graceMs: GRACE,
    installationId: await services.installation.id(),
    batchPauseMs: 0,
    ...extra,
  };
}

function writeFile(file: string, content = "x") {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

describe("sweepOrphans", () => {
  it("removes old unreferenced records and stray files, keeps referenced and young ones", async () => {
    const services = await open();
    const deps = await sweepDeps(services, { tmpDirs: [uploadTmp(services)] });
    const own = `${deps.installationId}/`;

    // An old record nobody uses (e.g. the news insert failed after the upload was stored): goes, with its files.
    const orphan = await services.media.saveImage(await makeTestImage(900, 500), "orfa.jpg");
    const orphanKeys = await ageMedia(services, orphan.id, 2 * HOUR);
    expect(orphanKeys.length).toBe(6);
    // An old video nobody uses either.
    const orphanVideo = await services.media.saveVideo(Buffer.from("video orfao"), "video/mp4", "v.mp4");
    await ageMedia(services, orphanVideo.id, 3 * HOUR);
    // Old records in use by a news item and by a sponsor: stay.
    const newsMedia = await mediaIdOfNews(services, await createNews(services, { media: "image" }));
    const newsKeys = await ageMedia(services, newsMedia, 5 * HOUR);
    const sponsorMedia = await mediaIdOfSponsor(services, await createSponsor(services));
    const sponsorKeys = await ageMedia(services, sponsorMedia, 5 * HOUR);
    // A fresh unreferenced record (an upload whose news item is being written right now): stays.
    const fresh = await services.media.saveImage(await makeTestImage(500, 300), "nova.jpg");
    const freshKeys = mediaKeys(fresh);

    // Stray files: an old one no record points to goes; a young one (a save in progress) stays.
    const strayOld = path.join(mediaDir(services), `${own}img/perdida-0001/400.webp`);
    writeFile(strayOld);
    age(strayOld, 2 * HOUR);
    const strayYoung = path.join(mediaDir(services), `${own}img/em-andamento-0002/400.webp`);
    writeFile(strayYoung);
    // A file name the store could never address is not the sweeper's business.
    const foreign = path.join(mediaDir(services), "LEIA-ME.txt");
    writeFile(foreign);
    age(foreign, 10 * HOUR);

    // Temporary files: old `.part` files go (upload tmpDir and the store's own .tmp), young ones and others stay.
    const partOld = path.join(uploadTmp(services), "a1b2.part");
    const partYoung = path.join(uploadTmp(services), "c3d4.part");
    const notPart = path.join(uploadTmp(services), "nota.txt");
    const storePartOld = path.join(mediaDir(services), ".tmp", "e5f6.part");
    const storePartYoung = path.join(mediaDir(services), ".tmp", "g7h8.part");
    for (const file of [partOld, partYoung, notPart, storePartOld, storePartYoung]) writeFile(file);
    for (const file of [partOld, notPart, storePartOld]) age(file, 2 * HOUR);

    const result = await sweepOrphans(deps);

    expect(result).toEqual({ removedRecords: 2, removedFiles: 6 + 1 + 1, removedTempFiles: 2, skippedUnowned: 0 });
    expect(await mediaIds(services)).toEqual([newsMedia, sponsorMedia, fresh.id].sort());
    const remaining = listFiles(mediaDir(services));
    for (const key of orphanKeys) expect(remaining, key).not.toContain(key);
    expect(remaining).not.toContain(orphanVideo.key);
    expect(remaining).not.toContain(`${own}img/perdida-0001/400.webp`);
    for (const key of [...newsKeys, ...sponsorKeys, ...freshKeys, `${own}img/em-andamento-0002/400.webp`, "LEIA-ME.txt", ".tmp/g7h8.part"]) {
      expect(remaining, key).toContain(key);
    }
    expect(fs.existsSync(partOld)).toBe(false);
    expect(fs.existsSync(storePartOld)).toBe(false);
    expect(fs.existsSync(partYoung)).toBe(true);
    expect(fs.existsSync(notPart)).toBe(true);
    expect(fs.existsSync(storePartYoung)).toBe(true);

    // A second sweep finds nothing more to do.
    expect(await sweepOrphans(deps)).toEqual({ removedRecords: 0, removedFiles: 0, removedTempFiles: 0, skippedUnowned: 0 });
  });

  it("a file kept by any variant of any record is never removed, however old", async () => {
    const services = await open();
    const used = await services.media.saveImage(await makeTestImage(1700, 900), "usada.jpg");
    await createNews(services, { media: null });
    await services.database.db.updateTable("news").set({ media_id: used.id }).execute();
    const keys = await ageMedia(services, used.id, 30 * 24 * HOUR);
    expect(keys.length).toBe(8);
    const result = await sweepOrphans(await sweepDeps(services));
    expect(result.removedFiles).toBe(0);
    expect(listFiles(mediaDir(services))).toEqual([...keys].sort());
  });

  it("media an older version (a revision) of a news item refers to is kept; once no revision refers to it, it goes", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    const old = await services.media.saveImage(await makeTestImage(900, 500), "antes.jpg");
    await services.database.db.updateTable("news").set({ media_id: old.id }).where("id", "=", id).execute();
    // The media is replaced by a save: the version with the old picture becomes a revision.
    await services.newsEditor.patchNews(id, { title: "Sem a foto antiga", removeMedia: true }, null, testsActor);
    const keys = await ageMedia(services, old.id, 2 * HOUR);
    const deps = await sweepDeps(services);
    expect((await sweepOrphans(deps)).removedRecords).toBe(0);
    expect(await mediaIds(services)).toEqual([old.id]);
    for (const key of keys) expect(fs.existsSync(path.join(mediaDir(services), key)), key).toBe(true);
    // The item (and so its revisions) deleted: now nobody refers to it.
    await eraseNews(services, id);
    expect((await sweepOrphans(deps)).removedRecords).toBe(1);
    expect(await mediaIds(services)).toEqual([]);
  });

  it("uses the injected clock: with `now` far ahead, fresh things count as old", async () => {
    const services = await open();
    const row = await services.media.saveImage(await makeTestImage(300, 200), "x.jpg");
    const deps = await sweepDeps(services);
    expect((await sweepOrphans(deps)).removedRecords).toBe(0);
    const later = await sweepOrphans({ ...deps, now: () => new Date(Date.now() + 2 * HOUR) });
    expect(later.removedRecords).toBe(1);
    expect(await mediaIds(services)).toEqual([]);
    for (const key of mediaKeys(row)) expect(fs.existsSync(path.join(mediaDir(services), key))).toBe(false);
  });

  it("keeps going when a file cannot be removed, logging it", async () => {
    const services = await open();
    const orphan = await services.media.saveVideo(Buffer.from("video"), "video/mp4", "v.mp4");
    await ageMedia(services, orphan.id, 2 * HOUR);
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const store = { ...services.store, delete: vi.fn(async () => Promise.reject(new Error("permissão negada"))) };
    const result = await sweepOrphans(await sweepDeps(services, { store, log }));
    expect(result.removedRecords).toBe(1);
    expect(result.removedFiles).toBe(0);
    expect(log.warn).toHaveBeenCalled();
    // The next sweep (with a working store) finds the file as a stray and removes it.
    const next = await sweepOrphans(await sweepDeps(services));
    expect(next.removedFiles).toBe(1);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });
});

describe("sweepOrphans only ever removes this installation's objects", () => {
  it("objects of another installation, and objects stored before installations had ids, stay however old", async () => {
    const services = await open();
    const deps = await sweepDeps(services);
    const foreign = path.join(mediaDir(services), "0123456789ab/img/de-outra-0001/400.webp");
    const legacy = path.join(mediaDir(services), "img/antiga-0001/400.webp");
    for (const file of [foreign, legacy]) {
      writeFile(file);
      age(file, 30 * 24 * HOUR);
    }
    // An old unreferenced record whose files have no mark (from before ids): neither it nor its file is touched.
    await services.database.db
      .insertInto("media")
      .values({
        id: "legada",
        kind: "video",
        store: "local",
        key: "vid/legada-0001.mp4",
        mime_type: "video/mp4",
        size_bytes: 1,
        variants: "[]",
        created_at: new Date(Date.now() - 30 * 24 * HOUR).toISOString(),
      })
      .execute();
    writeFile(path.join(mediaDir(services), "vid/legada-0001.mp4"));
    const result = await sweepOrphans(deps);
    expect(result).toMatchObject({ removedRecords: 0, removedFiles: 0, skippedUnowned: 1 });
    expect(listFiles(mediaDir(services))).toEqual(["0123456789ab/img/de-outra-0001/400.webp", "img/antiga-0001/400.webp", "vid/legada-0001.mp4"]);
    expect(await mediaIds(services)).toEqual(["legada"]);
  });

  it("refuses, and logs why, when it would remove far more than the database references (a database restored or swapped)", async () => {
    const services = await open();
    const deps = await sweepDeps(services, { refuseAbove: { minimum: 3, ratio: 0.5 }, log: { info: vi.fn(), warn: vi.fn(), error: vi.fn() } });
    const own = `${deps.installationId}/`;
    // Two referenced items (12 keys); then eight stray objects of ours: more than max(3, 50 % of 12).
    for (let index = 0; index < 2; index++) await createNews(services, { media: "image" });
    const strays = Array.from({ length: 8 }, (_, index) => `${own}img/depois-do-backup-${index}/400.webp`);
    for (const key of strays) {
      writeFile(path.join(mediaDir(services), key));
      age(path.join(mediaDir(services), key), 2 * HOUR);
    }
    const refused = await sweepOrphans(deps);
    expect(refused.removedFiles).toBe(0);
    expect(refused.refused).toMatch(/would remove 8 objects while the database references 12/);
    expect(deps.log.error).toHaveBeenCalledTimes(1);
    for (const key of strays) expect(listFiles(mediaDir(services))).toContain(key);
    // The operator who has checked can force it (npm run media:sweep -- --force).
    expect((await sweepOrphans({ ...deps, force: true })).removedFiles).toBe(8);
  });

  it("a dry run lists what would go and removes nothing; batches pause between them", async () => {
    const services = await open();
    const deps = await sweepDeps(services);
    const own = `${deps.installationId}/`;
    const strays = Array.from({ length: 5 }, (_, index) => `${own}img/solta-${index}/400.webp`);
    for (const key of strays) {
      writeFile(path.join(mediaDir(services), key));
      age(path.join(mediaDir(services), key), 2 * HOUR);
    }
    const dry = await sweepOrphans({ ...deps, dryRun: true });
    expect(dry.wouldRemove).toEqual([...strays].sort());
    expect(dry.removedFiles).toBe(0);
    expect(listFiles(mediaDir(services))).toEqual([...strays].sort());
    const started = Date.now();
    const swept = await sweepOrphans({ ...deps, batchSize: 2, batchPauseMs: 60 });
    expect(swept.removedFiles).toBe(5);
    // Five removals in batches of two: two pauses.
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });
});

describe("startOrphanSweeper", () => {
  it("never sweeps at start: the first sweep comes one interval later, then on its timer, until stopped", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const services = await open();
    try {
      const first = await services.media.saveVideo(Buffer.from("um"), "video/mp4", "1.mp4");
      await ageMedia(services, first.id, 2 * HOUR);
      const installationId = () => services.installation.id();
      const sweeper = startOrphanSweeper({
        db: services.database.db,
        store: services.store,
        log: silent,
        graceMs: GRACE,
        intervalMs: 10 * 60 * 1000,
        installationId,
      });
      await sweeper.idle();
      // A server started on the wrong database deletes nothing before anyone can look.
      expect(await mediaIds(services)).toEqual([first.id]);
      vi.advanceTimersByTime(10 * 60 * 1000);
      await sweeper.idle();
      expect(await mediaIds(services)).toEqual([]);

      const second = await services.media.saveVideo(Buffer.from("dois"), "video/mp4", "2.mp4");
      await ageMedia(services, second.id, 2 * HOUR);
      vi.advanceTimersByTime(10 * 60 * 1000);
      await sweeper.idle();
      expect(await mediaIds(services)).toEqual([]);

      sweeper.stop();
      const third = await services.media.saveVideo(Buffer.from("três"), "video/mp4", "3.mp4");
      await ageMedia(services, third.id, 2 * HOUR);
      vi.advanceTimersByTime(60 * 60 * 1000);
      await sweeper.idle();
      expect(await mediaIds(services)).toEqual([third.id]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs a failed sweep instead of throwing", async () => {
    const services = await open();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const installationId = await services.installation.id();
    await services.close();
    const sweeper = startOrphanSweeper({
      db: services.database.db,
      store: services.store,
      log,
      graceMs: GRACE,
      intervalMs: HOUR,
      installationId: async () => installationId,
    });
    vi.advanceTimersByTime(HOUR);
    vi.useRealTimers();
    await sweeper.idle();
    sweeper.stop();
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe("deleteMedia", () => {
  it("removes the record, then every file of the media", async () => {
    const services = await open();
    const row = await services.media.saveImage(await makeTestImage(1000, 500), "apagar.jpg");
    const keep = await services.media.saveVideo(Buffer.from("fica"), "video/mp4", "fica.mp4");
    expect(await services.media.deleteMedia(row.id)).toBe(true);
    expect(await mediaIds(services)).toEqual([keep.id]);
    expect(listFiles(mediaDir(services))).toEqual([keep.key]);
    expect(await services.media.deleteMedia(row.id)).toBe(false);
  });

  it("a file that cannot be removed is logged and left to the sweeper", async () => {
    const services = await open();
    const log = { warn: vi.fn() };
    const store = createLocalStore({ root: mediaDir(services) });
    const media = createMediaService({ db: services.database.db, store, log });
    const row = await media.saveVideo(Buffer.from("teimoso"), "video/mp4", "v.mp4");
    store.delete = async () => {
      throw new Error("disco somente leitura");
    };
    expect(await media.deleteMedia(row.id)).toBe(true);
    expect(await mediaIds(services)).toEqual([]);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ mediaId: row.id, key: row.key }), expect.stringContaining("sweeper"));
    expect(listFiles(mediaDir(services))).toEqual([row.key]);

    age(path.join(mediaDir(services), row.key), 2 * HOUR);
    const result = await sweepOrphans(await sweepDeps(services));
    expect(result.removedFiles).toBe(1);
    expect(listFiles(mediaDir(services))).toEqual([]);
  });
});

describe("saveVideoFile", () => {
  it("streams a video file from disk into the store with its content hash in the key", async () => {
    const services = await open();
    const dir = makeDataDir("eef-video-");
    try {
      const file = path.join(dir, "v.part");
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
      fs.writeFileSync(file, bytes);
      const row = await services.media.saveVideoFile(file, "video/webm", bytes.length, "jogo.webm");
      expect(row).toMatchObject({ kind: "video", mime_type: "video/webm", size_bytes: bytes.length, original_name: "jogo.webm" });
      expect(row.key).toMatch(new RegExp(`^${await services.installation.id()}/vid/[a-f0-9]{24}-[a-f0-9]{8}\\.webm$`));
      expect(fs.readFileSync(path.join(mediaDir(services), row.key)).equals(bytes)).toBe(true);
      // The same bytes through saveVideo give the same content hash.
      const again = await services.media.saveVideo(bytes, "video/webm", null);
      const hashOf = (key: string) => /vid\/([a-f0-9]{24})-/.exec(key)![1];
      expect(hashOf(again.key)).toBe(hashOf(row.key));
      // A wrong size is refused and nothing is stored.
      await expect(services.media.saveVideoFile(file, "video/webm", bytes.length - 1)).rejects.toThrow();
      expect(listFiles(mediaDir(services)).length).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("local store list()", () => {
  it("lists only the keys under a prefix when given one", async () => {
    const base = makeDataDir("eef-list-");
    try {
      const store = createLocalStore({ root: path.join(base, "media") });
      await store.put("aaa111/img/x-1/400.webp", Buffer.from("1"), "image/webp");
      await store.put("bbb222/img/y-1/400.webp", Buffer.from("2"), "image/webp");
      await store.put("img/z-1/400.webp", Buffer.from("3"), "image/webp");
      const keys: string[] = [];
      for await (const entry of store.list("aaa111/")) keys.push(entry.key);
      expect(keys).toEqual(["aaa111/img/x-1/400.webp"]);
      const none: string[] = [];
      for await (const entry of store.list("ccc333/")) none.push(entry.key);
      expect(none).toEqual([]);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it("lists every addressable object with its size and time, skipping .tmp", async () => {
    const base = makeDataDir("eef-list-");
    try {
      const store = createLocalStore({ root: path.join(base, "media") });
      const empty: string[] = [];
      for await (const entry of store.list()) empty.push(entry.key);
      expect(empty).toEqual([]); // the root does not even exist yet
      await store.put("img/abc-1/400.webp", Buffer.from("12345"), "image/webp");
      await store.put("vid/x.mp4", Buffer.from("1"), "video/mp4");
      writeFile(path.join(base, "media", ".tmp", "z.part"));
      const entries = [];
      for await (const entry of store.list()) entries.push(entry);
      entries.sort((a, b) => a.key.localeCompare(b.key));
      expect(entries.map((entry) => [entry.key, entry.size])).toEqual([
        ["img/abc-1/400.webp", 5],
        ["vid/x.mp4", 1],
      ]);
      for (const entry of entries) expect(Math.abs(entry.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
