/**
 * Two installations on one S3 bucket (s3rver on loopback), e.g. production and a staging copy started with a fresh
 * database and production's bucket credentials: the staging copy's sweep removes none of production's objects,
 * and production's own sweep still removes its real orphans. On SQLite and PostgreSQL.
 */
import fs from "node:fs";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { mediaKeys } from "#app/.server/media/media-keys.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { createS3Client } from "#app/.server/storage/s3-store.server.ts";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import { createTestServices, makeDataDir } from "#tests/factories/services.ts";
import { bucketKeys, startS3Server, type TestS3Server } from "#tests/storage/s3-server.ts";

const BUCKET = "compartilhado";
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server([BUCKET]);
}, 30_000);
afterAll(async () => {
  await s3?.stop();
});

it("a second installation on a fresh database against the same bucket sweeps none of the first one's objects", async () => {
  const env = s3.env(BUCKET);
  const production = await createTestServices(makeDataDir("eef-prod-"), env);
  const staging = await createTestServices(makeDataDir("eef-staging-"), env);
  const config = parseConfig({ DATA_DIR: production.dataDir, ...env });
  if (config.media.store !== "s3") throw new Error("the S3 server's environment sets MEDIA_STORE=s3");
  const client = createS3Client(config.media.s3);
  try {
    const [productionId, stagingId] = [await production.installation.id(), await staging.installation.id()];
    expect(productionId).not.toBe(stagingId);

    // Production: two published items and one orphan (an upload whose save failed), plus an object stored before
    // installations had ids.
    for (let index = 0; index < 2; index++) await createNews(production, { media: "image" });
    const orphan = await production.media.saveImage(await makeTestImage(900, 500), "orfa.jpg");
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: "img/anterior-0001/400.webp", Body: "legado" }));
    const before = await bucketKeys(client, BUCKET);
    expect(before.filter((key) => key.startsWith(`${productionId}/`)).length).toBe(3 * 6);

    // Staging sweeps as if everything were old: its database references nothing, yet nothing of production goes.
    const later = () => new Date(Date.now() + 48 * 3600_000);
    const common = { graceMs: 3600_000, now: later, batchPauseMs: 0, log: production.log };
    const stagingSweep = await sweepOrphans({ ...common, db: staging.database.db, store: staging.store, installationId: stagingId });
    expect(stagingSweep).toMatchObject({ removedRecords: 0, removedFiles: 0 });
    expect(await bucketKeys(client, BUCKET)).toEqual(before);

    // Production's own sweep removes its orphan only.
    const productionSweep = await sweepOrphans({ ...common, db: production.database.db, store: production.store, installationId: productionId });
    expect(productionSweep).toMatchObject({ removedRecords: 1, removedFiles: 6 });
    const after = await bucketKeys(client, BUCKET);
    expect(after).toEqual(before.filter((key) => !mediaKeys(orphan).includes(key)));
    expect(after).toContain("img/anterior-0001/400.webp");
  } finally {
    client.destroy();
    for (const services of [production, staging]) {
      await services.close();
      fs.rmSync(services.dataDir, { recursive: true, force: true });
    }
  }
}, 60_000);
