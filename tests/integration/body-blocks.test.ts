import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FieldsError } from "#app/.server/errors.ts";
import { createLogger } from "#app/.server/logger.server.ts";
import { loadBodyMedia } from "#app/.server/media/body-media.server.ts";
import { mediaKeys } from "#app/.server/media/media-keys.ts";
import { sweepOrphans } from "#app/.server/media/orphan-sweeper.server.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import { eraseNews, makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-blocks-");
const HOUR = 60 * 60 * 1000;
const silent = createLogger({ logLevel: "silent" });
const SITE = { name: "Esporte em Foco", url: "https://esporte.example", description: "Notícias", defaultAuthor: "Redação" };

/** A body with an image block naming `mediaId` (and a paragraph and an embed around it). */
function bodyWith(mediaId: string) {
  return JSON.stringify({
    type: "doc",
    content: [
      { type: "paragraph", content: [{ type: "text", text: "O lance do jogo:" }] },
      { type: "image", attrs: { mediaId, alt: "Atacante cabeceia para o gol", caption: "Gol da virada", credit: "Ana Lima" } },
      { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
    ],
  });
}

const input = (body: string, title = "Virada no clássico") => newsInputSchema.parse({ title, subtitle: "Resumo", category: "Futebol", body });

/** Makes a media record and its files look `ms` old (the sweeper leaves younger ones alone). */
async function ageMedia(services: TestServices, mediaId: string, ms: number) {
  const row = await services.database.db.selectFrom("media").selectAll().where("id", "=", mediaId).executeTakeFirstOrThrow();
  const when = new Date(Date.now() - ms);
  await services.database.db.updateTable("media").set({ created_at: when.toISOString() }).where("id", "=", mediaId).execute();
  for (const key of mediaKeys(row)) fs.utimesSync(path.join(services.dataDir, "media", key), when, when);
}

const sweep = async (services: TestServices) =>
  sweepOrphans({
    db: services.database.db,
    store: services.store,
    log: silent,
    graceMs: HOUR,
    installationId: await services.installation.id(),
    batchPauseMs: 0,
  });
const exists = async (services: TestServices, id: string) =>
  Boolean(await services.database.db.selectFrom("media").select("id").where("id", "=", id).executeTakeFirst());

describe("images of news bodies", () => {
  it("the orphan sweeper keeps images a body or a revision's body names, and removes an inline upload nobody saved", async () => {
    const services = await open();
    const inline = await services.media.saveImage(await makeTestImage(900, 500), "lance.jpg");
    const unsaved = await services.media.saveImage(await makeTestImage(600, 400), "desistiu.jpg");
    const { id } = await services.newsEditor.createNews(input(bodyWith(inline.id)), null, testsActor);
    await ageMedia(services, inline.id, 3 * HOUR);
    await ageMedia(services, unsaved.id, 3 * HOUR);

    const first = await sweep(services);
    expect(await exists(services, inline.id)).toBe(true);
    expect(await exists(services, unsaved.id)).toBe(false);
    expect(first.removedRecords).toBe(1);
    for (const key of mediaKeys(inline)) expect(fs.existsSync(path.join(services.dataDir, "media", key))).toBe(true);

    // The image taken out of the body: the revision of the version that had it still names it (it can be restored).
    await services.newsEditor.patchNews(id, newsPatchSchema.parse({ fullContent: "Sem a imagem agora." }), null, testsActor);
    await sweep(services);
    expect(await exists(services, inline.id)).toBe(true);

    // The item deleted (its revisions too): nothing names the image any more, and it goes.
    await eraseNews(services, id);
    const last = await sweep(services);
    expect(last.removedRecords).toBe(1);
    expect(await exists(services, inline.id)).toBe(false);
  });

  it("a save naming a media item that is not an image of our store is refused under `body`", async () => {
    const services = await open();
    const refusal = async (mediaId: string) => {
      const error = await services.newsEditor.createNews(input(bodyWith(mediaId)), null, testsActor).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(FieldsError);
      return (error as FieldsError).fields;
    };
    expect(await refusal("0b8f5a52-51f8-4a35-9a55-3f0cfb1c2d10")).toEqual({ body: [blocksText.mediaUnknown] });
    const video = await services.media.saveVideo(Buffer.from("um video"), "video/mp4", "v.mp4");
    expect(await refusal(video.id)).toEqual({ body: [blocksText.mediaUnknown] });
    // Another store's record (the same id space, not our files).
    const image = await services.media.saveImage(await makeTestImage(400, 300), "outra.jpg");
    await services.database.db.updateTable("media").set({ store: "s3" }).where("id", "=", image.id).execute();
    expect(await refusal(image.id)).toEqual({ body: [blocksText.mediaUnknown] });
    expect(await services.database.db.selectFrom("news").select("id").execute()).toEqual([]);

    // An edit is checked the same way.
    const mine = await services.media.saveImage(await makeTestImage(400, 300), "minha.jpg");
    const { id } = await services.newsEditor.createNews(input(bodyWith(mine.id)), null, testsActor);
    const edit = await services.newsEditor
      .patchNews(id, newsPatchSchema.parse({ body: bodyWith("1c2d3e4f-0000-4000-8000-000000000001") }), null, testsActor)
      .catch((thrown: unknown) => thrown);
    expect((edit as FieldsError).fields).toEqual({ body: [blocksText.mediaUnknown] });
  });

  it("the article's media views, the plain text and the feed (absolute image addresses, caption and credit)", async () => {
    const services = await open();
    const inline = await services.media.saveImage(await makeTestImage(1200, 675), "lance.jpg");
    const { id } = await services.newsEditor.createNews(input(bodyWith(inline.id)), null, testsActor);
    const row = await services.database.db.selectFrom("news").select(["full_content"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.full_content).toBe(
      "O lance do jogo:\n\nAtacante cabeceia para o gol\nGol da virada — Foto: Ana Lima\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ",
    );

    const article = await services.news.getNews(id);
    const views = await loadBodyMedia(services.database.db, services.store, [article.body]);
    expect(views[inline.id]).toMatchObject({ kind: "image", width: 1200, height: 675 });
    expect(views[inline.id]?.webpSrcSet).toMatch(/ 400w, .* 800w/);

    const xml = await createSyndication({ db: services.database.db, store: services.store, site: SITE }).rss({ highlightedOnly: false });
    const encoded = xml.slice(xml.indexOf("<content:encoded>"), xml.indexOf("</content:encoded>"));
    // The body goes out as CDATA: its HTML as the renderer escaped it.
    expect(encoded).toMatch(/<img src="https:\/\/esporte\.example\/media\/[^"]+\/800\.jpg" srcSet="https:\/\/esporte\.example\/media\/[^"]+ 400w, /);
    expect(encoded).toContain('width="1200" height="675" alt="Atacante cabeceia para o gol"');
    expect(encoded).toContain("<figcaption>Gol da virada — Foto: Ana Lima</figcaption>");
    expect(encoded).toContain("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  });
});
