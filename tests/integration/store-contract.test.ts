import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { mediaKeys } from "#app/.server/media/media-keys.ts";
import { toMediaView } from "#app/.server/media/media-view.server.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { createMediaStore } from "#app/.server/storage/create-store.server.ts";
import { createLocalStore } from "#app/.server/storage/local-store.server.ts";
import { createS3Client, createS3Store } from "#app/.server/storage/s3-store.server.ts";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { describeMediaStoreContract, generatedStream, LARGE_OBJECT_SIZE } from "#tests/storage/media-store-contract.ts";
import { bucketKeys, startS3Server, type TestS3Server } from "#tests/storage/s3-server.ts";

const CONTRACT_BUCKET = "contrato";
const PREFIXED_BUCKET = "prefixado";
const APP_BUCKET = "midia-app";
const CDN = "https://cdn.esporteemfoco.test/arquivos";

let s3: TestS3Server | undefined;
const server = (): TestS3Server => {
  if (!s3) throw new Error("s3rver not started");
  return s3;
};

beforeAll(async () => {
  s3 = await startS3Server([CONTRACT_BUCKET, PREFIXED_BUCKET, APP_BUCKET, "comandos"]);
}, 30_000);
afterAll(async () => {
  await s3?.stop();
});

/** The S3 settings the app would parse from the environment, pointing at s3rver. */
function s3Config(bucket: string, extra: Record<string, string> = {}) {
  const config = parseConfig({ DATA_DIR: makeDataDir("eef-s3cfg-"), ...server().env(bucket, extra) });
  fs.rmSync(config.dataDir, { recursive: true, force: true });
  if (config.media.store !== "s3") throw new Error("no S3 config");
  return config.media.s3;
}

/** A client of our own on s3rver, to look into the bucket without going through the store. */
function rawClient(): S3Client {
  return createS3Client(s3Config(CONTRACT_BUCKET));
}

describeMediaStoreContract("local", async () => {
  const root = makeDataDir("eef-contract-local-");
  return {
    store: createLocalStore({ root: path.join(root, "media") }),
    async cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
    expected: { needsConnection: false, origins: { media: [], forms: [] }, staticFiles: true },
  };
});

describeMediaStoreContract("s3 (s3rver, path-style)", async () => {
  const client = createS3Client(s3Config(CONTRACT_BUCKET));
  return {
    store: createS3Store({ ...s3Config(CONTRACT_BUCKET), client }),
    async cleanup() {
      client.destroy();
    },
    // No S3_PUBLIC_URL: browsers get the objects through the site's /media route.
    expected: { needsConnection: false, origins: { media: [], forms: [] }, staticFiles: false },
  };
});

// Through createMediaStore, as the app builds it: the SDK is loaded on the store's first use.
describeMediaStoreContract("s3 (s3rver, prefix + public URL, from the configuration)", async () => {
  const dataDir = makeDataDir("eef-s3cfg-");
  const store = createMediaStore(parseConfig({ DATA_DIR: dataDir, ...server().env(PREFIXED_BUCKET, { S3_PREFIX: "midia/", S3_PUBLIC_URL: CDN }) }));
  return {
    store,
    cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    expected: { needsConnection: false, origins: { media: [new URL(CDN).origin], forms: [] }, staticFiles: false },
  };
});

describe("S3 store", () => {
  it("is built from the configuration by createMediaStore", () => {
    const dataDir = makeDataDir("eef-s3cfg-");
    try {
      expect(createMediaStore(parseConfig({ DATA_DIR: dataDir })).name).toBe("local");
      expect(createMediaStore(parseConfig({ DATA_DIR: dataDir, ...server().env(APP_BUCKET) })).name).toBe("s3");
      // Its public URLs (computed without loading the SDK) are the S3 store's own.
      const settings: Array<Record<string, string>> = [{ S3_PREFIX: "midia/", S3_PUBLIC_URL: `${CDN}/` }, { S3_PREFIX: "midia/" }, {}];
      for (const extra of settings) {
        const fromConfig = createMediaStore(parseConfig({ DATA_DIR: dataDir, ...server().env(PREFIXED_BUCKET, extra) }));
        const direct = createS3Store(s3Config(PREFIXED_BUCKET, extra));
        expect(fromConfig.publicUrl("img/abc123-00000001/400.webp")).toBe(direct.publicUrl("img/abc123-00000001/400.webp"));
        expect(() => fromConfig.publicUrl("../fora")).toThrow();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("is not connected, without throwing, when nothing listens at the endpoint", async () => {
    const port = await closedPort();
    const store = createS3Store({ ...s3Config(CONTRACT_BUCKET), endpoint: `http://127.0.0.1:${port}` });
    const started = performance.now();
    await expect(store.isConnected()).resolves.toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("trusts a successful bucket check for a few seconds, and never a failed one", async () => {
    const config = s3Config(CONTRACT_BUCKET);
    const client = createS3Client(config);
    let checks = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "HeadBucketCommand") checks++;
        return next(args);
      },
      { step: "initialize", name: "countChecks" },
    );
    let now = 1_000_000;
    try {
      const store = createS3Store({ ...config, client, now: () => now });
      expect(await Promise.all([store.isConnected(), store.isConnected()])).toEqual([true, true]);
      expect(await store.isConnected()).toBe(true);
      expect(checks).toBe(1);
      now += 11_000;
      expect(await store.isConnected()).toBe(true);
      expect(checks).toBe(2);

      const missing = createS3Store({ ...config, bucket: "nao-existe", client, now: () => now });
      expect(await missing.isConnected()).toBe(false);
      expect(await missing.isConnected()).toBe(false);
      expect(checks).toBe(4);
    } finally {
      client.destroy();
    }
  });

  it("asks the bucket again at once after a request failed (not after a missing object)", async () => {
    const config = s3Config(CONTRACT_BUCKET);
    const client = createS3Client(config);
    let checks = 0;
    let failNext = false;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "HeadBucketCommand") checks++;
        if (failNext && context.commandName === "HeadObjectCommand") {
          failNext = false;
          throw Object.assign(new Error("connect ECONNREFUSED"), { name: "Error" });
        }
        return next(args);
      },
      { step: "initialize", name: "failOnce" },
    );
    try {
      const store = createS3Store({ ...config, client });
      expect(await store.isConnected()).toBe(true);
      expect(await store.stat("falha-nada/800.webp")).toBeNull();
      expect(await store.isConnected()).toBe(true);
      expect(checks).toBe(1);
      failNext = true;
      await expect(store.stat("falha-nada/800.webp")).rejects.toThrow("ECONNREFUSED");
      expect(await store.isConnected()).toBe(true);
      expect(checks).toBe(2);
    } finally {
      client.destroy();
    }
  });

  it("is not connected when the bucket does not exist", async () => {
    const store = createS3Store(s3Config("nao-existe"));
    expect(await store.isConnected()).toBe(false);
  });

  it("puts objects under the prefix and serves them from the public URL", async () => {
    const store = createS3Store(s3Config(PREFIXED_BUCKET, { S3_PREFIX: "midia/", S3_PUBLIC_URL: `${CDN}/` }));
    await store.put("img/abc123-00000001/400.webp", Buffer.from("webp"), "image/webp");
    expect(store.publicUrl("img/abc123-00000001/400.webp")).toBe(`${CDN}/midia/img/abc123-00000001/400.webp`);

    const client = rawClient();
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: PREFIXED_BUCKET, Key: "midia/img/abc123-00000001/400.webp" }));
      expect(head.ContentLength).toBe(4);
      expect(head.ContentType).toBe("image/webp");
      expect(head.CacheControl).toBe("public, max-age=31536000, immutable");
    } finally {
      client.destroy();
    }

    // Without a public URL, browsers go through our /media route.
    const plain = createS3Store(s3Config(PREFIXED_BUCKET, { S3_PREFIX: "midia/" }));
    expect(plain.publicUrl("img/abc123-00000001/400.webp")).toBe("/media/img/abc123-00000001/400.webp");
    expect(() => plain.publicUrl("../fora")).toThrow();
  });

  it("lists only the objects under its prefix, without the prefix", async () => {
    const outside = createS3Store(s3Config(PREFIXED_BUCKET, { S3_PREFIX: "outro/" }));
    await outside.put("img/fora-00000001/400.webp", Buffer.from("fora"), "image/webp");
    const store = createS3Store(s3Config(PREFIXED_BUCKET, { S3_PREFIX: "midia/" }));
    await store.put("img/dentro-00000001/400.webp", Buffer.from("dentro"), "image/webp");
    const keys: string[] = [];
    for await (const entry of store.list()) keys.push(entry.key);
    expect(keys).toContain("img/dentro-00000001/400.webp");
    expect(keys).not.toContain("img/fora-00000001/400.webp");
    expect(keys.every((key) => !key.startsWith("midia/") && !key.startsWith("outro/"))).toBe(true);
    expect(await store.get("img/fora-00000001/400.webp")).toBeNull();
  });

  it("lists page after page", async () => {
    const config = s3Config("comandos", { S3_PREFIX: "paginas/" });
    const client = createS3Client(config);
    let pages = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "ListObjectsV2Command") pages++;
        return next(args);
      },
      { step: "initialize", name: "countPages" },
    );
    try {
      const store = createS3Store({ ...config, client, listPageSize: 2 });
      const keys = ["a/1.webp", "a/2.webp", "b/3.jpg", "c.mp4", "d.mp4"];
      for (const key of keys) await store.put(key, Buffer.from(key), "image/webp");
      const listed: string[] = [];
      for await (const entry of store.list()) listed.push(entry.key);
      expect(listed.sort()).toEqual(keys);
      expect(pages).toBe(3);
    } finally {
      client.destroy();
    }
  });

  it("uploads a large stream in 8 MiB parts and a small Buffer in one request", async () => {
    const config = s3Config("comandos");
    const client = createS3Client(config);
    const commands: string[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      { step: "initialize", name: "recordCommands" },
    );
    try {
      const store = createS3Store({ ...config, client });
      await store.put("vid/pequeno-00000001.mp4", Buffer.from("pequeno"), "video/mp4");
      expect(commands).toEqual(["PutObjectCommand"]);

      commands.length = 0;
      const source = generatedStream(LARGE_OBJECT_SIZE);
      await store.put("vid/grande-00000001.mp4", source.stream, "video/mp4");
      expect(commands.filter((name) => name !== "UploadPartCommand")).toEqual(["CreateMultipartUploadCommand", "CompleteMultipartUploadCommand"]);
      expect(commands.filter((name) => name === "UploadPartCommand")).toHaveLength(Math.ceil(LARGE_OBJECT_SIZE / (8 * 1024 * 1024)));
      expect(await store.stat("vid/grande-00000001.mp4")).toEqual({ size: LARGE_OBJECT_SIZE });
    } finally {
      client.destroy();
    }
  }, 60_000);

  it("rejects a put whose source stream fails midway, leaving nothing under the key", async () => {
    const store = createS3Store(s3Config("comandos"));
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent > 9 * 1024 * 1024) {
          this.destroy(new Error("conexão do navegador caiu"));
          return;
        }
        sent += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 1));
      },
    });
    await expect(store.put("vid/interrompido-00000001.mp4", source, "video/mp4")).rejects.toThrow();
    expect(source.destroyed).toBe(true);
    expect(await store.stat("vid/interrompido-00000001.mp4")).toBeNull();
  }, 60_000);
});

describe("media pipeline on S3", () => {
  it("stores image variants in the bucket, shows them through /media, and sweeps orphans from the bucket", async () => {
    const services = await createTestServices(makeDataDir("eef-s3-app-"), server().env(APP_BUCKET));
    const client = rawClient();
    try {
      expect(services.store.name).toBe("s3");
      expect(services.config.database.kind).toBe(TEST_DATABASE);
      expect(await services.store.isConnected()).toBe(true);

      // An image saved through the media service: every variant lands in the bucket, nothing on local disk.
      const orphan = await services.media.saveImage(await makeTestImage(1700, 900), "orfa.jpg");
      expect(orphan.store).toBe("s3");
      const orphanKeys = mediaKeys(orphan);
      expect(orphanKeys.length).toBe(8);
      expect(await bucketKeys(client, APP_BUCKET)).toEqual([...orphanKeys].sort());
      expect(fs.existsSync(path.join(services.dataDir, "media"))).toBe(false);
      const main = await services.store.get(orphan.key);
      expect(main?.size).toBe((await services.store.stat(orphan.key))?.size);
      expect((await buffer(main!.body)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

      // Pages get /media/ URLs that point at those objects (served by our route from the store).
      const view = toMediaView(
        {
          media_store: orphan.store,
          media_kind: orphan.kind,
          media_key: orphan.key,
          media_mime_type: orphan.mime_type,
          media_width: orphan.width,
          media_height: orphan.height,
          media_variants: orphan.variants,
        },
        services.store,
      );
      expect(view?.src).toBe(`/media/${orphan.key}`);
      const srcSetUrls = [view!.srcSet, view!.webpSrcSet].flatMap((set) => set!.split(", ").map((item) => item.split(" ")[0]!));
      expect(srcSetUrls.sort()).toEqual(orphanKeys.map((key) => `/media/${key}`).sort());

      // A news item's media, read back through the news service.
      const newsId = await createNews(services, { media: "image" });
      const article = await services.news.getNews(newsId);
      const newsMediaKey = article.media!.src.replace(/^\/media\//, "");
      expect(await services.store.stat(newsMediaKey)).not.toBeNull();

      // A video file streamed from disk (larger than one part) goes up as a multipart upload.
      const videoFile = path.join(services.dataDir, "video.part");
      const videoBytes = Buffer.alloc(9 * 1024 * 1024 + 7, 3);
      fs.writeFileSync(videoFile, videoBytes);
      const video = await services.media.saveVideoFile(videoFile, "video/mp4", videoBytes.length, "jogo.mp4");
      const range = await services.store.get(video.key, { start: videoBytes.length - 4, end: videoBytes.length - 1 });
      expect(range?.size).toBe(videoBytes.length);
      expect(await buffer(range!.body)).toEqual(videoBytes.subarray(-4));

      // The sweeper, with a clock an hour ahead: the unreferenced image and video go, with all their objects.
      const result = await sweepOrphans({
        db: services.database.db,
        store: services.store,
        installationId: await services.installation.id(),
        log: createLogger({ logLevel: "silent" }),
        graceMs: 0,
        now: () => new Date(Date.now() + 60 * 60 * 1000),
      });
      expect(result).toEqual({ removedRecords: 2, removedFiles: orphanKeys.length + 1, removedTempFiles: 0, skippedUnowned: 0 });
      const remaining = await bucketKeys(client, APP_BUCKET);
      for (const key of [...orphanKeys, video.key]) expect(remaining).not.toContain(key);
      expect(remaining).toContain(newsMediaKey);
      expect(remaining).toHaveLength(6);
    } finally {
      client.destroy();
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A loopback port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
