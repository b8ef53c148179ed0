import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { toApiError } from "#app/.server/http/api.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-media-text-");

async function uploaded(services: TestServices, kind: "image" | "video" = "image"): Promise<UploadedFile> {
  const file = path.join(services.dataDir, `upload-${Date.now()}-${Math.random()}.${kind === "image" ? "jpg" : "mp4"}`);
  fs.writeFileSync(file, kind === "image" ? await makeTestImage(900, 500) : Buffer.from(`fake-mp4-${Math.random()}`));
  return {
    path: file,
    size: fs.statSync(file).size,
    originalName: kind === "image" ? "foto.jpg" : "video.mp4",
    declaredType: kind === "image" ? "image/jpeg" : "video/mp4",
    mimeType: kind === "image" ? "image/jpeg" : "video/mp4",
    kind,
    extension: kind === "image" ? "jpg" : "mp4",
    cleanup: () => fs.promises.rm(file, { force: true }),
  };
}

const input = (fields: Record<string, unknown>) => newsInputSchema.parse({ title: "Título", subtitle: "Sub", ...fields });
const mediaCount = async (services: TestServices) =>
  Number(
    (
      await services.database.db
        .selectFrom("media")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("image description, caption and credit", () => {
  it("a new image without a description is refused in pt-BR, with nothing stored and the upload removed", async () => {
    const services = await open();
    const before = await mediaCount(services);
    for (const description of [undefined, "   "]) {
      const file = await uploaded(services);
      const attempt = services.newsEditor.createNews(input({ mediaDescription: description }), file, testsActor);
      await expect(attempt).rejects.toMatchObject({
        status: 400,
        code: "media_description_required",
        message: t.newsForm.mediaDescriptionRequired,
        fields: { mediaDescription: [t.newsForm.mediaDescriptionRequired] },
      });
      expect(fs.existsSync(file.path)).toBe(false);
    }
    expect(await mediaCount(services)).toBe(before);
    const news = await services.database.db.selectFrom("news").select("id").execute();
    expect(news).toEqual([]);

    // The API answer names the field, as the form shows it.
    const error = await services.newsEditor.createNews(input({}), await uploaded(services), testsActor).catch((caught: unknown) => caught);
    const response = toApiError(error, new Request("http://localhost/api/news"), services.log);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "media_description_required",
        message: t.newsForm.mediaDescriptionRequired,
        fields: { mediaDescription: [t.newsForm.mediaDescriptionRequired] },
      },
    });
  });

  it("description, caption and credit are stored with the image and read back on the article and the list", async () => {
    const services = await open();
    const { id } = await services.newsEditor.createNews(
      input({ mediaDescription: "Levantadora toca a bola junto à rede.", mediaCaption: "Final da Superliga.", mediaCredit: "Ana Lima/Agência" }),
      await uploaded(services),
      testsActor,
    );
    expect((await services.news.getNews(id)).media).toMatchObject({
      kind: "image",
      description: "Levantadora toca a bola junto à rede.",
      caption: "Final da Superliga.",
      credit: "Ana Lima/Agência",
    });
    const page = await services.news.listNewsPage({ limit: 5 });
    expect(page.items[0]?.media).toMatchObject({ description: "Levantadora toca a bola junto à rede." });
  });

  it("PUT sets or clears the text of the media kept; PATCH changes only what was sent", async () => {
    const services = await open();
    const { id } = await services.newsEditor.createNews(
      input({ mediaDescription: "Antes.", mediaCaption: "Legenda antes.", mediaCredit: "Crédito antes" }),
      await uploaded(services),
      testsActor,
    );
    const mediaId = (await services.database.db.selectFrom("news").select("media_id").where("id", "=", id).executeTakeFirstOrThrow()).media_id;
    await services.newsEditor.patchNews(id, newsPatchSchema.parse({ mediaCaption: "Legenda nova." }), null, testsActor);
    expect((await services.news.getNews(id)).media).toMatchObject({ description: "Antes.", caption: "Legenda nova.", credit: "Crédito antes" });
    await services.newsEditor.updateNews(id, input({ mediaDescription: "Depois.", mediaCredit: "" }), null, testsActor);
    expect((await services.news.getNews(id)).media).toMatchObject({ description: "Depois.", caption: null, credit: null });
    // Same media record all along.
    expect((await services.database.db.selectFrom("news").select("media_id").where("id", "=", id).executeTakeFirstOrThrow()).media_id).toBe(mediaId);
    // A replacement image needs its own description.
    await expect(
      services.newsEditor.patchNews(id, newsPatchSchema.parse({ title: "Nova foto" }), await uploaded(services), testsActor),
    ).rejects.toMatchObject({
      code: "media_description_required",
    });
    expect((await services.news.getNews(id)).title).toBe("Título");
  });

  it("older images without a description keep working (the pages use the title); videos need none", async () => {
    const services = await open();
    const old = await createNews(services, { title: "Foto antiga", media: "image" });
    expect((await services.news.getNews(old)).media).toMatchObject({ kind: "image", description: null, caption: null, credit: null });
    // Editing the text of an item with such an image, without a new file, is not refused.
    await services.newsEditor.updateNews(old, input({ title: "Foto antiga editada" }), null, testsActor);
    expect((await services.news.getNews(old)).media).toMatchObject({ kind: "image", description: null });

    const { id } = await services.newsEditor.createNews(input({ mediaCredit: "TV Esporte" }), await uploaded(services, "video"), testsActor);
    expect((await services.news.getNews(id)).media).toMatchObject({ kind: "video", description: null, credit: "TV Esporte" });
  });

  it("each field has its length limit and pt-BR message", () => {
    const result = newsInputSchema.safeParse({ title: "T", subtitle: "S", mediaDescription: "a".repeat(301), mediaCredit: "b".repeat(121) });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "Descrição da imagem pode ter no máximo 300 caracteres.",
      "Crédito pode ter no máximo 120 caracteres.",
    ]);
  });
});
