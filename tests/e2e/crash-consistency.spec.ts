/**
 * The real server killed with SIGKILL in the middle of a news save (create with an image), a news delete and a
 * sponsor upload, then restarted on the same data directory and database. After each restart: no news item or
 * sponsor points at a missing media record, no record at a missing file, every stored object is whole (decoded to
 * the end, served in full), no temporary file is served, the pages and API answer 200. Then the real sweeper
 * (`npm run media:sweep`) leaves exactly the referenced files: no orphan remains and nothing referenced is gone.
 *
 * The kills land at chosen points, found by watching the data directory in a tight loop:
 * - news create, mid-body: the test sends half of the image and kills once the upload's temporary file exists;
 * - news create, while the media is being stored: the whole body is sent and the kill comes the moment the first
 *   image variant (or the store's temporary file for it) appears, before the news row can be written;
 * - news delete: the kill comes the moment the first of the item's files is removed (the row is already gone);
 * - sponsor upload, while the logo is being stored (as the second news case).
 * The saves are checked to have been cut (no answer reached the client).
 *
 * On SQLite and, with TEST_DATABASE=postgres, on a PostgreSQL database of its own.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createAdmin, type TestAccount } from "../factories/auth.ts";
import {
  expectConsistent,
  filesUnder,
  multipartBody,
  rawRequest,
  runSweep,
  signInCookie,
  snapshot,
  storedObjects,
  temporaryFiles,
  whenTrue,
} from "./support/faults.ts";
import { makeNoisyJpeg } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "./support/site.ts";

const NEWS_FIELDS = { title: "Notícia cortada", subtitle: "O servidor caiu no meio.", fullContent: "Conteúdo.", category: "Futebol" };

test("SIGKILL no meio de salvar notícia, apagar notícia e enviar patrocinador: nada quebrado depois, e a varredura deixa só o que é usado", async () => {
  test.setTimeout(180_000);
  let admin!: TestAccount;
  const site: RunningSite = await startSite({
    setup: async (services) => {
      admin = await createAdmin(services, { password: "Senha-admin-1" });
    },
  });
  try {
    let cookie = await signInCookie(site.url, admin.email, admin.password);
    const headers = () => ({ Origin: site.url, Cookie: cookie });
    // 1300 px wide: four widths in JPEG and WebP, eight files per image; noise makes them slow enough to encode.
    const image = await makeNoisyJpeg(1300, 800);
    const logo = await makeNoisyJpeg(1300, 800);

    // What must survive everything: a news item and a sponsor saved before the crashes, and one to delete later.
    const post = async (url: string, fields: Record<string, string>, field: string, data: Buffer) => {
      const body = multipartBody(fields, { field, name: "foto.jpg", type: "image/jpeg", data });
      const response = await fetch(`${site.url}${url}`, {
        method: "POST",
        headers: { ...headers(), "Content-Type": body.contentType },
        body: Buffer.concat([body.head, body.file, body.tail]),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const keptNews = await post("/api/news", { ...NEWS_FIELDS, title: "Notícia que fica" }, "media", image);
    const keptSponsor = await post("/api/sponsors", {}, "image", logo);
    const doomedNews = await post("/api/news", { ...NEWS_FIELDS, title: "Notícia que será apagada" }, "media", image);
    const before = await snapshot(site);
    const keptMedia = before.media.filter((row) => row.id !== before.news.find((item) => item.id === doomedNews)!.media_id);
    const keptKeys = [...new Set(keptMedia.flatMap((row) => [row.key, ...(JSON.parse(row.variants) as Array<{ key: string }>).map((variant) => variant.key)]))];
    expect(keptKeys.length).toBeGreaterThanOrEqual(16);
    const known = () => new Set(storedObjects(site.dataDir));

    /** Kills the server (SIGKILL) the moment `trigger` holds, checks the request got no answer, restarts it. */
    const crash = async (what: string, trigger: () => boolean, options: { mustCut: boolean; timeoutMs?: number }, send: () => ReturnType<typeof rawRequest>) => {
      const request = send();
      await whenTrue(trigger, options.timeoutMs ?? 20_000, what);
      const answeredBeforeKill = request.answered();
      await site.whileStopped(() => undefined, "SIGKILL");
      const outcome = await request.outcome;
      if (options.mustCut) {
        expect(answeredBeforeKill, `${what}: a resposta chegou antes do SIGKILL`).toBe(false);
        expect(outcome, what).toHaveProperty("error");
      }
      cookie = await signInCookie(site.url, admin.email, admin.password).catch(() => cookie);
      test.info().annotations.push({ type: "crash", description: `${what}: ${JSON.stringify(outcome).slice(0, 120)}` });
      return expectConsistent(site);
    };

    // 1. News create, killed mid-body: half of the image sent, the upload's temporary file on disk.
    {
      const body = multipartBody(NEWS_FIELDS, { field: "media", name: "foto.jpg", type: "image/jpeg", data: image });
      const uploads = path.join(site.dataDir, "tmp", "uploads");
      const after = await crash(
        "notícia: no meio do corpo",
        () => filesUnder(uploads).some((name) => fs.statSync(path.join(uploads, name), { throwIfNoEntry: false })?.size),
        { mustCut: true },
        () => {
          const request = rawRequest(`${site.url}/api/news`, "POST", { ...headers(), "Content-Type": body.contentType, "Content-Length": String(body.length) });
          request.request.write(body.head);
          request.request.write(body.file.subarray(0, body.file.length >> 1));
          return request;
        },
      );
      expect(after.news.map((item) => item.id).sort()).toEqual([keptNews, doomedNews].sort());
      expect(temporaryFiles(site.dataDir).length, "o arquivo parcial ficou (a varredura o remove)").toBeGreaterThan(0);
    }

    // 2. News create, killed while its image is being stored (the body complete, variants being written).
    {
      const existing = known();
      const tmp = path.join(site.dataDir, "media", ".tmp");
      const body = multipartBody(NEWS_FIELDS, { field: "media", name: "foto.jpg", type: "image/jpeg", data: image });
      const after = await crash(
        "notícia: gravando a imagem",
        () => filesUnder(tmp).length > 0 || storedObjects(site.dataDir).some((key) => !existing.has(key)),
        { mustCut: true },
        () => {
          const request = rawRequest(`${site.url}/api/news`, "POST", { ...headers(), "Content-Type": body.contentType, "Content-Length": String(body.length) });
          request.request.end(Buffer.concat([body.head, body.file, body.tail]));
          return request;
        },
      );
      expect(after.news.map((item) => item.id).sort()).toEqual([keptNews, doomedNews].sort());
    }

    // 3. News delete, killed as the first of its files goes.
    {
      const doomed = (await snapshot(site)).media.find((row) => row.id === before.news.find((item) => item.id === doomedNews)!.media_id)!;
      const doomedFiles = [doomed.key, ...(JSON.parse(doomed.variants) as Array<{ key: string }>).map((variant) => variant.key)];
      const after = await crash(
        "notícia: apagando",
        () => doomedFiles.some((key) => !fs.existsSync(path.join(site.dataDir, "media", key))),
        { mustCut: false },
        () => {
          const request = rawRequest(`${site.url}/api/news/${doomedNews}`, "DELETE", headers());
          request.request.end();
          return request;
        },
      );
      // The row went first: the item is gone for readers, whatever files the kill left (the sweep removes them).
      expect(after.news.map((item) => item.id)).toEqual([keptNews]);
      expect((await fetch(`${site.url}/api/news/${doomedNews}`)).status).toBe(404);
    }

    // 4. Sponsor upload, killed while the logo is being stored.
    {
      const existing = known();
      const tmp = path.join(site.dataDir, "media", ".tmp");
      const body = multipartBody({}, { field: "image", name: "logo.jpg", type: "image/jpeg", data: logo });
      const after = await crash(
        "patrocinador: gravando o logo",
        () => filesUnder(tmp).length > 0 || storedObjects(site.dataDir).some((key) => !existing.has(key)),
        { mustCut: true },
        () => {
          const request = rawRequest(`${site.url}/api/sponsors`, "POST", { ...headers(), "Content-Type": body.contentType, "Content-Length": String(body.length) });
          request.request.end(Buffer.concat([body.head, body.file, body.tail]));
          return request;
        },
      );
      expect(after.sponsors.map((sponsor) => sponsor.id)).toEqual([keptSponsor]);
    }

    // The crashes left something behind for the sweep (else this test would prove nothing about it).
    const leftovers = storedObjects(site.dataDir).filter((key) => !keptKeys.includes(key));
    expect(leftovers.length + temporaryFiles(site.dataDir).length).toBeGreaterThan(0);

    // 5. The real sweep, once everything is older than its (shortened) grace period.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const output = runSweep(site);
    expect(output).toMatch(/Removidos: \d+ registro\(s\) de mídia, \d+ objeto\(s\), \d+ arquivo\(s\) temporário\(s\)\./);
    const swept = await expectConsistent(site);
    expect(swept.news.map((item) => item.id)).toEqual([keptNews]);
    expect(swept.sponsors.map((sponsor) => sponsor.id)).toEqual([keptSponsor]);
    expect(swept.media.map((row) => row.id).sort()).toEqual(keptMedia.map((row) => row.id).sort());
    // Exactly the referenced files remain: no orphan, nothing referenced deleted, no temporary file.
    expect(storedObjects(site.dataDir).sort()).toEqual([...keptKeys].sort());
    expect(swept.referencedKeys.sort()).toEqual([...keptKeys].sort());
    expect(temporaryFiles(site.dataDir)).toEqual([]);
    // The kept image is still served by the article and the sponsor still in the footer's API.
    const kept = (await (await fetch(`${site.url}/api/news/${keptNews}`)).json()) as { news: { media: { src: string } } };
    expect((await fetch(`${site.url}${kept.news.media.src}`)).status).toBe(200);
  } finally {
    await test.info().attach("log do servidor", { body: site.logs(), contentType: "text/plain" });
    await site.stop();
  }
});
