/**
 * The Google Drive store (MEDIA_STORE=gdrive) end to end over HTTP against the Drive contract server
 * (tests/storage/drive-contract-server.ts): the shared MediaStore contract, then what is particular to Drive —
 * multipart/resumable uploads with metadata, the reader/anyone permission, token refresh on expiry (injected clock),
 * the default one-hour lifetime, revoked tokens, forced failures (500, 403 rate limit, 401) and the media pipeline.
 */
import fs from "node:fs";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { mediaKeys } from "#app/.server/media/media-keys.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { createMediaStore } from "#app/.server/storage/create-store.server.ts";
import { DRIVE_MAX_ATTEMPTS } from "#app/.server/storage/google-drive/client.server.ts";
import {
  createDriveConnection,
  DRIVE_CREDENTIALS_KEY,
  DRIVE_FAILURE_KEY,
  type DriveConnection,
} from "#app/.server/storage/google-drive/connection.server.ts";
import { DriveApiError, DriveNotConnectedError } from "#app/.server/storage/google-drive/errors.server.ts";
import { createGoogleDriveStore } from "#app/.server/storage/google-drive/store.server.ts";
import { RESUMABLE_CHUNK_BYTES } from "#app/.server/storage/google-drive/upload.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir } from "#tests/factories/services.ts";
import { type DriveContractServer, startDriveContractServer } from "#tests/storage/drive-contract-server.ts";
import { describeMediaStoreContract, generatedStream } from "#tests/storage/media-store-contract.ts";

const SECRET = "segredo-de-teste-do-drive-com-mais-de-32-caracteres";

let drive: DriveContractServer | undefined;
const server = (): DriveContractServer => {
  if (!drive) throw new Error("contract server not started");
  return drive;
};

beforeAll(async () => {
  drive = await startDriveContractServer({ consent: "auto" });
});
afterAll(async () => {
  await drive?.stop();
});

type Services = Awaited<ReturnType<typeof createTestServices>>;

/** Real services (MEDIA_STORE=gdrive, pointed at the contract server) on a fresh database. */
async function driveServices(): Promise<Services> {
  return createTestServices(makeDataDir("eef-drive-"), { ...server().env(), AUTH_SECRET: SECRET });
}

async function closeServices(services: Services) {
  await services.close();
  fs.rmSync(services.dataDir, { recursive: true, force: true });
}

/** A Drive store and the connection it takes its tokens from. */
type GoogleDriveStore = MediaStore & { connection: DriveConnection };

/** A Drive store on `services`' database with its own connection, clock and instant retries. */
function storeWithClock(services: Services, clock: { now: number }): GoogleDriveStore {
  const connection = createDriveConnection({ db: services.database.db, config: server().config(), secret: SECRET, now: () => clock.now });
  const store = createGoogleDriveStore({ db: services.database.db, config: server().config(), connection, sleep: async () => undefined });
  return { ...store, connection };
}

/** The app's own store (`services.store`) with the app's connection (`services.drive`). */
function appStore(services: Services): GoogleDriveStore {
  if (!services.drive) throw new Error("services without a Drive connection");
  return { ...services.store, connection: services.drive };
}

/** A store connected through a refresh token, as after an admin's consent. */
async function connected(store: GoogleDriveStore): Promise<GoogleDriveStore> {
  await store.connection.saveRefreshToken(server().issueRefreshToken(), { connectedBy: "admin-teste" });
  return store;
}

async function setting(services: Services, key: string): Promise<string | null> {
  const row = await services.database.db.selectFrom("app_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

async function driveRows(services: Services): Promise<Array<{ key: string; file_id: string; size: number }>> {
  return services.database.db.selectFrom("drive_files").select(["key", "file_id", "size"]).execute();
}

async function fileIdOf(services: Services, key: string): Promise<string | null> {
  return (await driveRows(services)).find((row) => row.key === key)?.file_id ?? null;
}

const filesNamed = (name: string) => [...server().files.values()].filter((file) => file.name === name);

describeMediaStoreContract("gdrive (contract server)", async () => {
  const services = await driveServices();
  const store = await connected(appStore(services));
  return {
    store,
    cleanup: () => closeServices(services),
    // Media through the site's /media route; the connect form leads to the consent page (here, the contract server).
    expected: { needsConnection: true, origins: { media: [], forms: [new URL(server().url).origin] }, staticFiles: false },
  };
});

describe("Google Drive store: configuration", () => {
  it("MEDIA_STORE=gdrive needs an OAuth client, which defaults to GOOGLE_CLIENT_ID/SECRET; the URLs default to Google's", () => {
    expect(() => parseConfig({ MEDIA_STORE: "gdrive" })).toThrow(ConfigError);
    expect(() => parseConfig({ MEDIA_STORE: "gdrive" })).toThrow(/GOOGLE_DRIVE_CLIENT_ID/);
    const config = parseConfig({
      MEDIA_STORE: "gdrive",
      GOOGLE_CLIENT_ID: "id-login",
      GOOGLE_CLIENT_SECRET: "segredo-login",
      SITE_URL: "https://www.exemplo.com.br/",
    });
    expect(config.media.store).toBe("gdrive");
    expect(config.media.store === "gdrive" && config.media.gdrive).toEqual({
      clientId: "id-login",
      clientSecret: "segredo-login",
      folderId: null,
      authUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      revokeUrl: "https://oauth2.googleapis.com/revoke",
      apiUrl: "https://www.googleapis.com",
      uploadUrl: "https://www.googleapis.com",
      redirectUri: "https://www.exemplo.com.br/admin/drive/callback",
    });
    const own = parseConfig({ ...server().env(), GOOGLE_CLIENT_ID: "id-login", GOOGLE_CLIENT_SECRET: "segredo-login" });
    expect(own.media).toMatchObject({ store: "gdrive", gdrive: { clientId: server().clientId, folderId: server().folderId, apiUrl: server().url } });
    expect(() => parseConfig({ ...server().env(), GOOGLE_DRIVE_FOLDER_ID: "../x" })).toThrow(/GOOGLE_DRIVE_FOLDER_ID/);
    // Other stores carry no Drive settings, even with the Google login configured.
    expect(parseConfig({ GOOGLE_CLIENT_ID: "id-login", GOOGLE_CLIENT_SECRET: "segredo-login" }).media).not.toHaveProperty("gdrive");
  });

  it("createMediaStore builds it with the database and the connection, which the services expose", async () => {
    const services = await driveServices();
    try {
      expect(services.store.name).toBe("gdrive");
      expect(services.drive).not.toBeNull();
      expect(() => createMediaStore(services.config)).toThrow(/connection/);
    } finally {
      await closeServices(services);
    }
  });
});

describe("Google Drive store", () => {
  let services: Services;
  beforeAll(async () => {
    services = await driveServices();
  });
  afterAll(async () => {
    await closeServices(services);
  });

  it("is not connected before an admin consents: uploads refuse without calling Drive", async () => {
    const store = storeWithClock(services, { now: Date.now() });
    const before = server().requests.length;
    expect(await store.isConnected()).toBe(false);
    expect(await store.connection.status()).toEqual({ connected: false, failed: false });
    await expect(store.put("img/nao-conectado/400.webp", Buffer.from("x"), "image/webp")).rejects.toBeInstanceOf(DriveNotConnectedError);
    expect(await store.stat("img/nao-conectado/400.webp")).toBeNull();
    expect(server().requests.length).toBe(before);
  });

  it("uploads with multipart metadata (name, parent folder) and makes the file readable by anyone with the link", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    const bytes = await makeTestImage(64, 64);
    const started = server().requests.length;
    await store.put("img/metadados/400.jpg", bytes, "image/jpeg");
    const calls = server().requests.slice(started);
    expect(calls.map((call) => call.operation)).toEqual(["refresh", "upload", "permissions"]);

    const upload = calls[1]!;
    expect(upload.path).toBe("/upload/drive/v3/files");
    expect(upload.query.uploadType).toBe("multipart");
    expect(upload.contentType).toMatch(/^multipart\/related; boundary=/);
    expect(upload.authorization).toMatch(/^Bearer ya29\./);
    expect(upload.body).toMatchObject({ name: "img/metadados/400.jpg", parents: [server().folderId], mimeType: "image/jpeg" });

    const [file] = filesNamed("img/metadados/400.jpg");
    expect(file).toBeDefined();
    expect(file!.data.equals(bytes)).toBe(true);
    expect(file!.parents).toEqual([server().folderId]);
    expect(file!.mimeType).toBe("image/jpeg");
    expect(file!.uploadType).toBe("multipart");
    expect(file!.permissions).toEqual([{ id: "anyoneWithLink", type: "anyone", role: "reader" }]);
    const permissions = calls[2]!;
    expect(permissions.path).toBe(`/drive/v3/files/${file!.id}/permissions`);
    expect(permissions.body).toEqual({ role: "reader", type: "anyone" });

    expect(await fileIdOf(services, "img/metadados/400.jpg")).toBe(file!.id);
    expect(store.publicUrl("img/metadados/400.jpg")).toBe("/media/img/metadados/400.jpg");
  });

  it("sends bodies above 5 MB as a resumable upload in 8 MiB chunks", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    const size = 2 * RESUMABLE_CHUNK_BYTES + 1234;
    const source = generatedStream(size);
    const started = server().requests.length;
    await store.put("vid/retomavel.mp4", source.stream, "video/mp4");
    const calls = server().requests.slice(started);
    expect(calls.filter((call) => call.operation === "upload").map((call) => call.query.uploadType)).toEqual(["resumable"]);
    expect(calls.filter((call) => call.operation === "chunk")).toHaveLength(3);
    const [file] = filesNamed("vid/retomavel.mp4");
    expect(file!.uploadType).toBe("resumable");
    expect(file!.data.length).toBe(size);
    expect(file!.parents).toEqual([server().folderId]);
    expect(file!.permissions).toEqual([{ id: "anyoneWithLink", type: "anyone", role: "reader" }]);
    expect(await store.stat("vid/retomavel.mp4")).toEqual({ size });

    // A small stream goes up in one multipart request.
    await store.put("vid/pequeno.mp4", generatedStream(1000).stream, "video/mp4");
    expect(filesNamed("vid/pequeno.mp4")[0]!.uploadType).toBe("multipart");
  });

  it("refreshes an expired access token (injected clock), with a one-hour lifetime when expires_in is absent", async () => {
    const clock = { now: Date.UTC(2026, 10, 22, 12) };
    server().expiresIn = null;
    try {
      const store = await connected(storeWithClock(services, clock));
      const refreshes = () => server().calls("refresh").length;
      const before = refreshes();
      await store.put("img/relogio/1.webp", Buffer.from("um"), "image/webp");
      expect(refreshes()).toBe(before + 1);
      clock.now += 55 * 60_000;
      await store.put("img/relogio/2.webp", Buffer.from("dois"), "image/webp");
      expect(refreshes()).toBe(before + 1);
      clock.now += 5 * 60_000 + 1000; // past the hour
      await store.put("img/relogio/3.webp", Buffer.from("três"), "image/webp");
      expect(refreshes()).toBe(before + 2);

      // With expires_in given, that lifetime is used.
      server().expiresIn = 120;
      clock.now += 2 * 60 * 60_000;
      await store.put("img/relogio/4.webp", Buffer.from("quatro"), "image/webp");
      expect(refreshes()).toBe(before + 3);
      clock.now += 100_000;
      await store.put("img/relogio/5.webp", Buffer.from("cinco"), "image/webp");
      expect(refreshes()).toBe(before + 3);
      clock.now += 20_000;
      await store.put("img/relogio/6.webp", Buffer.from("seis"), "image/webp");
      expect(refreshes()).toBe(before + 4);
    } finally {
      server().expiresIn = 3599;
    }
  });

  it("isConnected trusts an obtained token for a few minutes, then checks with the token endpoint again", async () => {
    const clock = { now: Date.now() };
    const store = await connected(storeWithClock(services, clock));
    const refreshes = () => server().calls("refresh").length;
    const before = refreshes();
    expect(await Promise.all([store.isConnected(), store.isConnected()])).toEqual([true, true]);
    expect(refreshes()).toBe(before + 1);
    clock.now += 60_000;
    expect(await store.isConnected()).toBe(true);
    expect(refreshes()).toBe(before + 1);
    clock.now += 5 * 60_000;
    expect(await store.isConnected()).toBe(true);
    expect(refreshes()).toBe(before + 2);
  });

  it("a revoked token: the upload fails, the credentials are forgotten and the failure is recorded", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    expect(await store.isConnected()).toBe(true);
    expect(await setting(services, DRIVE_CREDENTIALS_KEY)).not.toBeNull();
    server().revokeAll();

    await expect(store.put("img/revogado/400.webp", Buffer.from("x"), "image/webp")).rejects.toBeInstanceOf(DriveNotConnectedError);
    expect(await store.stat("img/revogado/400.webp")).toBeNull();
    expect(filesNamed("img/revogado/400.webp")).toHaveLength(0);
    expect(await setting(services, DRIVE_CREDENTIALS_KEY)).toBeNull();
    expect(await setting(services, DRIVE_FAILURE_KEY)).not.toBeNull();
    expect(await store.isConnected()).toBe(false);
    expect(await store.connection.status()).toEqual({ connected: false, failed: true });

    // Connecting again clears the failure.
    await connected(store);
    expect(await store.connection.status()).toEqual({ connected: true, failed: false });
    expect(await setting(services, DRIVE_FAILURE_KEY)).toBeNull();
  });

  it("a revoked token is noticed by isConnected once the access token has expired", async () => {
    const clock = { now: Date.now() };
    const store = await connected(storeWithClock(services, clock));
    expect(await store.isConnected()).toBe(true);
    server().revokeAll();
    clock.now += 2 * 60 * 60_000;
    expect(await store.isConnected()).toBe(false);
    expect(await setting(services, DRIVE_CREDENTIALS_KEY)).toBeNull();
    expect(await store.connection.status()).toEqual({ connected: false, failed: true });
  });

  it("a 401 is retried once with a refreshed token; a 401 after the refresh forgets the credentials", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    server().failNext("upload", { status: 401 });
    await store.put("img/401-uma-vez/400.webp", Buffer.from("ok"), "image/webp");
    expect(await store.stat("img/401-uma-vez/400.webp")).toEqual({ size: 2 });

    server().failNext("download", { status: 401, times: 2 });
    await expect(store.get("img/401-uma-vez/400.webp")).rejects.toBeInstanceOf(DriveNotConnectedError);
    expect(await setting(services, DRIVE_CREDENTIALS_KEY)).toBeNull();
    expect(await store.isConnected()).toBe(false);
  });

  it("an upload that fails (500) is retried; when it keeps failing, put rejects and nothing is recorded", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    server().failNext("upload", { status: 500 });
    await store.put("img/500-uma-vez/400.webp", Buffer.from("ok"), "image/webp");
    expect(filesNamed("img/500-uma-vez/400.webp")).toHaveLength(1);

    server().failNext("upload", { status: 500, times: DRIVE_MAX_ATTEMPTS });
    const error = await store.put("img/500-sempre/400.webp", Buffer.from("x"), "image/webp").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriveApiError);
    expect((error as DriveApiError).status).toBe(500);
    expect((error as DriveApiError).reason).toBe("backendError");
    expect(await store.stat("img/500-sempre/400.webp")).toBeNull();
    expect(filesNamed("img/500-sempre/400.webp")).toHaveLength(0);
    expect((await driveRows(services)).some((row) => row.key === "img/500-sempre/400.webp")).toBe(false);
  });

  it("a 403 rate limit is retried with backoff; a persistent one on sharing removes the uploaded file", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    server().failNext("upload", { status: 403 });
    const started = server().calls("upload").length;
    await store.put("img/403-uma-vez/400.webp", Buffer.from("ok"), "image/webp");
    expect(server().calls("upload").length - started).toBe(2);
    expect(server().calls("upload").at(-2)!.status).toBe(403);

    server().failNext("permissions", { status: 403, times: DRIVE_MAX_ATTEMPTS });
    const error = await store.put("img/403-sempre/400.webp", Buffer.from("x"), "image/webp").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriveApiError);
    expect((error as DriveApiError).reason).toBe("userRateLimitExceeded");
    expect(filesNamed("img/403-sempre/400.webp")).toHaveLength(0);
    expect(await store.stat("img/403-sempre/400.webp")).toBeNull();
  });

  it("a failed chunk of a resumable upload resumes from what Drive holds", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    server().failNext("chunk", { status: 503 });
    const source = generatedStream(RESUMABLE_CHUNK_BYTES + 5000);
    await store.put("vid/trecho-falhou.mp4", source.stream, "video/mp4");
    const [file] = filesNamed("vid/trecho-falhou.mp4");
    expect(file!.data.length).toBe(RESUMABLE_CHUNK_BYTES + 5000);
    const object = await store.get("vid/trecho-falhou.mp4", { start: RESUMABLE_CHUNK_BYTES - 2, end: RESUMABLE_CHUNK_BYTES + 1 });
    expect((await buffer(object!.body)).equals(file!.data.subarray(RESUMABLE_CHUNK_BYTES - 2, RESUMABLE_CHUNK_BYTES + 2))).toBe(true);
  });

  it("a file removed on Drive itself reads as missing, and deleting it is not an error", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    await store.put("img/removido-no-drive/400.webp", Buffer.from("x"), "image/webp");
    const id = (await fileIdOf(services, "img/removido-no-drive/400.webp"))!;
    server().files.delete(id);
    expect(await store.get("img/removido-no-drive/400.webp")).toBeNull();
    await expect(store.delete("img/removido-no-drive/400.webp")).resolves.toBeUndefined();
    expect(await store.stat("img/removido-no-drive/400.webp")).toBeNull();
  });

  it("a failing delete keeps the mapping, so the orphan sweeper can try again", async () => {
    const store = await connected(storeWithClock(services, { now: Date.now() }));
    await store.put("img/apagar-falha/400.webp", Buffer.from("x"), "image/webp");
    server().failNext("delete", { status: 500, times: DRIVE_MAX_ATTEMPTS });
    await expect(store.delete("img/apagar-falha/400.webp")).rejects.toBeInstanceOf(DriveApiError);
    expect(await store.stat("img/apagar-falha/400.webp")).toEqual({ size: 1 });
    await store.delete("img/apagar-falha/400.webp");
    expect(await store.stat("img/apagar-falha/400.webp")).toBeNull();
  });
});

describe("media pipeline on Google Drive", () => {
  it("stores image variants on Drive (each shared reader/anyone), reads them back, and sweeps orphans from Drive", async () => {
    const services = await driveServices();
    try {
      const store = await connected(appStore(services));
      expect(await services.store.isConnected()).toBe(true);
      const orphan = await services.media.saveImage(await makeTestImage(1700, 900), "orfa.jpg");
      expect(orphan.store).toBe("gdrive");
      const keys = mediaKeys(orphan);
      expect(keys.length).toBe(8);
      for (const key of keys) {
        const [file] = filesNamed(key);
        expect(file, key).toBeDefined();
        expect(file!.permissions).toEqual([{ id: "anyoneWithLink", type: "anyone", role: "reader" }]);
      }
      expect(fs.existsSync(`${services.dataDir}/media`)).toBe(false);
      const main = await services.store.get(orphan.key);
      expect((await buffer(main!.body)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

      const newsId = await createNews(services, { media: "image" });
      const article = await services.news.getNews(newsId);
      const newsKey = article.media!.src.replace(/^\/media\//, "");
      expect(await services.store.stat(newsKey)).not.toBeNull();

      const result = await sweepOrphans({
        db: services.database.db,
        store: services.store,
        installationId: await services.installation.id(),
        log: createLogger({ logLevel: "silent" }),
        graceMs: 0,
        now: () => new Date(Date.now() + 60 * 60 * 1000),
      });
      expect(result.removedRecords).toBe(1);
      expect(result.removedFiles).toBe(keys.length);
      for (const key of keys) expect(filesNamed(key), key).toHaveLength(0);
      expect(filesNamed(newsKey)).toHaveLength(1);
      expect(await store.stat(newsKey)).not.toBeNull();
    } finally {
      await closeServices(services);
    }
  }, 60_000);
});
