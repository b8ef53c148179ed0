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
 * The saves are checked to have been cut (no answer reached the client); the store-phase window is short, so when a
 * busy machine lets such a save finish first, it counts as a whole item and the kill is tried again (at most 3×).
 *
 * On SQLite and, with TEST_DATABASE=postgres, on a PostgreSQL database of its own.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import {
  ageForSweep,
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
import { type RunningSite, startSite } from "#tests/factories/site.ts";

const NEWS_FIELDS = {
  title: "Notícia cortada",
  subtitle: "O servidor caiu no meio.",
  fullContent: "Conteúdo.",
  category: "Futebol",
  mediaDescription: "Foto de teste.",
};

test("SIGKILL no meio de salvar notícia, apagar notícia e enviar patrocinador: nada quebrado depois, e a varredura deixa só o que é usado", async () => {
  // About a minute here; up to three restarts more when a save has to be tried again on a busy machine.
  test.setTimeout(300_000);
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
    const keptSponsor = await post("/api/sponsors", { name: "Patrocinador que fica" }, "image", logo);
    const doomedNews = await post("/api/news", { ...NEWS_FIELDS, title: "Notícia que será apagada" }, "media", image);
    const before = await snapshot(site);
    const keptMedia = before.media.filter((row) => row.id !== before.news.find((item) => item.id === doomedNews)!.media_id);
    const keptKeys = [
      ...new Set(keptMedia.flatMap((row) => [row.key, ...(JSON.parse(row.variants) as Array<{ key: string }>).map((variant) => variant.key)])),
    ];
    expect(keptKeys.length).toBeGreaterThanOrEqual(16);
    const known = () => new Set(storedObjects(site.dataDir));
    // Saves that finished before the kill could land (see `crashMidSave`): whole items, kept like the others.
    const finishedNews: string[] = [];
    const finishedSponsors: string[] = [];

    /** Kills the server (SIGKILL) the moment `trigger` holds, restarts it, checks consistency. */
    const crash = async (what: string, trigger: () => boolean, send: () => ReturnType<typeof rawRequest>) => {
      const request = send();
      await whenTrue(trigger, 20_000, what);
      const answeredBeforeKill = request.answered();
      await site.whileStopped(() => undefined, "SIGKILL");
      const outcome = await request.outcome;
      cookie = await signInCookie(site.url, admin.email, admin.password);
      test.info().annotations.push({ type: "crash", description: `${what}: ${JSON.stringify(outcome).slice(0, 120)}` });
      return { snapshot: await expectConsistent(site), cut: !answeredBeforeKill && "error" in outcome, outcome };
    };

    /**
     * A save killed while its image is being stored: the whole body is sent, and the kill comes the moment the
     * first variant (or the store's temporary file for it) appears. The window until the answer is short (the
     * variants are encoded before the first is stored); when a busy machine lets the save finish first, that
     * save is a whole item (checked like the rest) and the crash is tried again, up to three times.
     */
    const crashMidSave = async (what: string, pathname: string, body: ReturnType<typeof multipartBody>, finished: string[]) => {
      const tmp = path.join(site.dataDir, "media", ".tmp");
      for (let attempt = 1; attempt <= 3; attempt++) {
        const existing = known();
        const result = await crash(
          `${what} (tentativa ${attempt})`,
          () => filesUnder(tmp).length > 0 || storedObjects(site.dataDir).some((key) => !existing.has(key)),
          () => {
            const request = rawRequest(`${site.url}${pathname}`, "POST", {
              ...headers(),
              "Content-Type": body.contentType,
              "Content-Length": String(body.length),
            });
            request.request.end(Buffer.concat([body.head, body.file, body.tail]));
            return request;
          },
        );
        if (result.cut) return result.snapshot;
        expect(result.outcome, `${what}: sem SIGKILL no meio, a gravação terminou`).toMatchObject({ status: 201 });
        finished.push((JSON.parse((result.outcome as { body: string }).body) as { id: string }).id);
      }
      throw new Error(`${what}: a gravação terminou antes do SIGKILL nas três tentativas`);
    };

    // 1. News create, killed mid-body: half of the image sent, the upload's temporary file on disk.
    {
      const body = multipartBody(NEWS_FIELDS, { field: "media", name: "foto.jpg", type: "image/jpeg", data: image });
      const uploads = path.join(site.dataDir, "tmp", "uploads");
      const { snapshot: after, cut } = await crash(
        "notícia: no meio do corpo",
        () => filesUnder(uploads).some((name) => fs.statSync(path.join(uploads, name), { throwIfNoEntry: false })?.size),
        () => {
          const request = rawRequest(`${site.url}/api/news`, "POST", {
            ...headers(),
            "Content-Type": body.contentType,
            "Content-Length": String(body.length),
          });
          request.request.write(body.head);
          request.request.write(body.file.subarray(0, body.file.length >> 1));
          return request;
        },
      );
      expect(cut, "o envio foi cortado").toBe(true);
      expect(after.news.map((item) => item.id).sort()).toEqual([keptNews, doomedNews].sort());
      expect(temporaryFiles(site.dataDir).length, "o arquivo parcial ficou (a varredura o remove)").toBeGreaterThan(0);
    }

    // 2. News create, killed while its image is being stored (the body complete, variants being written).
    {
      const body = multipartBody(NEWS_FIELDS, { field: "media", name: "foto.jpg", type: "image/jpeg", data: image });
      const after = await crashMidSave("notícia: gravando a imagem", "/api/news", body, finishedNews);
      expect(after.news.map((item) => item.id).sort()).toEqual([keptNews, doomedNews, ...finishedNews].sort());
    }

    // 3. News deleted (to the Lixeira: its files untouched), then erased for good from there, killed as the first of
    //    its files goes.
    {
      const doomed = (await snapshot(site)).media.find((row) => row.id === before.news.find((item) => item.id === doomedNews)!.media_id)!;
      const doomedFiles = [doomed.key, ...(JSON.parse(doomed.variants) as Array<{ key: string }>).map((variant) => variant.key)];
      const trashed = await fetch(`${site.url}/api/news/${doomedNews}`, { method: "DELETE", headers: headers() });
      expect(trashed.status).toBe(204);
      expect(
        doomedFiles.every((key) => fs.existsSync(path.join(site.dataDir, "media", key))),
        "na Lixeira, os arquivos ficam",
      ).toBe(true);
      const { snapshot: after } = await crash(
        "notícia: excluindo de vez",
        () => doomedFiles.some((key) => !fs.existsSync(path.join(site.dataDir, "media", key))),
        () => {
          const form = new URLSearchParams({ intent: "erase", id: doomedNews, confirmed: "1" }).toString();
          const request = rawRequest(`${site.url}/redacao?situacao=lixeira`, "POST", {
            ...headers(),
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": String(Buffer.byteLength(form)),
          });
          request.request.end(form);
          return request;
        },
      );
      // The row went first: the item is gone for readers, whatever files the kill left (the sweep removes them).
      expect(after.news.map((item) => item.id).sort()).toEqual([keptNews, ...finishedNews].sort());
      expect((await fetch(`${site.url}/api/news/${doomedNews}`)).status).toBe(404);
    }

    // 4. Sponsor upload, killed while the logo is being stored.
    {
      const body = multipartBody({ name: "Patrocinador interrompido" }, { field: "image", name: "logo.jpg", type: "image/jpeg", data: logo });
      const after = await crashMidSave("patrocinador: gravando o logo", "/api/sponsors", body, finishedSponsors);
      expect(after.sponsors.map((sponsor) => sponsor.id).sort()).toEqual([keptSponsor, ...finishedSponsors].sort());
    }

    // What the items point to now; the crashes left more than that behind for the sweep (else this test would
    // prove nothing about it).
    const referenced = await expectConsistent(site);
    const usedMedia = new Set([...referenced.news.map((item) => item.media_id), ...referenced.sponsors.map((sponsor) => sponsor.media_id)]);
    const usedKeys = [
      ...new Set(
        referenced.media
          .filter((row) => usedMedia.has(row.id))
          .flatMap((row) => [row.key, ...(JSON.parse(row.variants) as Array<{ key: string }>).map((variant) => variant.key)]),
      ),
    ].sort();
    for (const key of keptKeys) expect(usedKeys).toContain(key);
    const leftovers = storedObjects(site.dataDir).filter((key) => !usedKeys.includes(key));
    expect(leftovers.length + temporaryFiles(site.dataDir).length).toBeGreaterThan(0);

    // 5. The real sweep, once everything is older than its (shortened) grace period.
    await ageForSweep(site);
    const output = runSweep(site);
    expect(output).toMatch(/Removidos: \d+ registro\(s\) de mídia, \d+ objeto\(s\), \d+ arquivo\(s\) temporário\(s\)\./);
    const swept = await expectConsistent(site);
    expect(swept.news.map((item) => item.id).sort()).toEqual([keptNews, ...finishedNews].sort());
    expect(swept.sponsors.map((sponsor) => sponsor.id).sort()).toEqual([keptSponsor, ...finishedSponsors].sort());
    // Exactly the media in use remains: no orphan record or file, nothing referenced deleted, no temporary file.
    expect(swept.media.map((row) => row.id).sort()).toEqual([...usedMedia].sort());
    expect(storedObjects(site.dataDir).sort()).toEqual(usedKeys);
    expect(swept.referencedKeys.sort()).toEqual(usedKeys);
    expect(temporaryFiles(site.dataDir)).toEqual([]);
    // The kept image is still served through the article's data.
    const kept = (await (await fetch(`${site.url}/api/news/${keptNews}`)).json()) as { news: { media: { src: string } } };
    expect((await fetch(`${site.url}${kept.news.media.src}`)).status).toBe(200);
  } finally {
    await test.info().attach("log do servidor", { body: site.logs(), contentType: "text/plain" });
    await site.stop();
  }
});
