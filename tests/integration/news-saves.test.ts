import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "#app/.server/errors.ts";
import { toApiError } from "#app/.server/http/api.server.ts";
import type { UploadedFile } from "#app/.server/media/upload.server.ts";
import { createNewsEditor } from "#app/.server/news/editor/news-editor.service.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { newsPatchSchema } from "#app/lib/news-schema.ts";
import { createNews, makeTestImage } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

type Services = TestServices;

const open = useTestServices("eef-saves-");

/** A JPEG as the upload parser hands it over: a temporary file with its detected type. */
async function uploadedImage(services: Services): Promise<UploadedFile> {
  const file = path.join(services.dataDir, `upload-${Date.now()}-${Math.random()}.jpg`);
  fs.writeFileSync(file, await makeTestImage(900, 500));
  return {
    path: file,
    size: fs.statSync(file).size,
    originalName: "foto.jpg",
    declaredType: "image/jpeg",
    mimeType: "image/jpeg",
    kind: "image",
    extension: "jpg",
    cleanup: () => fs.promises.rm(file, { force: true }),
  };
}

async function row(services: Services, id: string) {
  return services.database.db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirst();
}
const mediaCount = async (services: Services) =>
  Number(
    (
      await services.database.db
        .selectFrom("media")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const patch = (fields: Record<string, unknown>) => newsPatchSchema.parse(fields);

describe("PATCH changes only what was sent; PUT replaces", () => {
  it("PATCH {title, subtitle} keeps the text, category, author, highlight and media", async () => {
    const services = await open();
    const id = await createNews(services, {
      title: "Antes",
      subtitle: "Sub antes",
      fullContent: "Texto completo que não pode sumir.",
      category: "Vôlei",
      author: "Ana Repórter",
      isHighlighted: true,
    });
    const before = await row(services, id);
    await services.newsEditor.patchNews(id, patch({ title: "Depois", subtitle: "Sub depois" }), null, testsActor);
    const after = await row(services, id);
    expect(after).toMatchObject({
      title: "Depois",
      subtitle: "Sub depois",
      full_content: "Texto completo que não pode sumir.",
      category: "Vôlei",
      author: "Ana Repórter",
      is_highlighted: 1,
      media_id: before!.media_id,
    });
    expect(after!.media_id).not.toBeNull();
    expect(after!.updated_at > before!.updated_at).toBe(true);
  });

  it("each field alone; empty optional fields take the spec's defaults; a flag can be turned off", async () => {
    const services = await open();
    const id = await createNews(services, { title: "T", subtitle: "S", fullContent: "F", category: "Tênis", author: "Beto", isHighlighted: true });
    await services.newsEditor.patchNews(id, patch({ isHighlighted: false }), null, testsActor);
    expect(await row(services, id)).toMatchObject({ is_highlighted: 0, title: "T", category: "Tênis" });
    await services.newsEditor.patchNews(id, patch({ category: "" }), null, testsActor);
    expect(await row(services, id)).toMatchObject({ category: t.news.defaultCategory, author: "Beto" });
    await services.newsEditor.patchNews(id, patch({ author: "  " }), null, testsActor);
    expect(await row(services, id)).toMatchObject({ author: services.config.site.defaultAuthor });
    await services.newsEditor.patchNews(id, patch({ fullContent: "" }), null, testsActor);
    expect(await row(services, id)).toMatchObject({ full_content: "S" });
    await services.newsEditor.patchNews(id, patch({ removeMedia: true }), null, testsActor);
    expect((await row(services, id))!.media_id).toBeNull();
  });

  it("PATCH refuses what a whole item would refuse, and an empty change", () => {
    expect(newsPatchSchema.safeParse({ title: "" }).error?.issues[0]?.message).toBe(t.newsForm.titleRequired);
    expect(newsPatchSchema.safeParse({ title: "x".repeat(301) }).success).toBe(false);
    expect(newsPatchSchema.safeParse({}).error?.issues[0]?.message).toBe(t.api.emptyPatch);
    expect(newsPatchSchema.safeParse({ category: 5 }).error?.issues[0]?.message).toBe(t.api.fieldType("category"));
  });

  it("PUT (updateNews) replaces the item: absent optional fields take their defaults", async () => {
    const services = await open();
    const id = await createNews(services, { fullContent: "Longo", category: "Vôlei", author: "Ana", isHighlighted: true, media: null });
    await services.newsEditor.updateNews(id, { title: "Novo", subtitle: "Sub novo", isHighlighted: false, removeMedia: false }, null, testsActor);
    expect(await row(services, id)).toMatchObject({
      title: "Novo",
      full_content: "Sub novo",
      category: t.news.defaultCategory,
      author: services.config.site.defaultAuthor,
      is_highlighted: 0,
    });
  });
});

describe("saves of an item that is gone", () => {
  it("PATCH or PUT of a missing id is a 404, and the uploaded file is not kept", async () => {
    const services = await open();
    const before = await mediaCount(services);
    const upload = await uploadedImage(services);
    await expect(services.newsEditor.patchNews("nao-existe", patch({ title: "X" }), upload, testsActor)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      services.newsEditor.updateNews("nao-existe", { title: "X", subtitle: "Y", isHighlighted: false, removeMedia: false }, null, testsActor),
    ).rejects.toMatchObject({
      status: 404,
      code: "news_not_found",
    });
    expect(fs.existsSync(upload.path)).toBe(false);
    expect(await mediaCount(services)).toBe(before);
  });

  it("an item deleted while its save was storing the new media: 404, and that media is removed at once", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    let stored: string | null = null;
    // The real media service, with the item deleted by "another editor" right after the file is stored.
    const editor = createNewsEditor({
      db: services.database.db,
      store: services.store,
      events: services.events,
      log: services.log,
      defaultAuthor: "Redação",
      timeZone: "America/Sao_Paulo",
      media: {
        async saveUpload(file) {
          const saved = await services.media.saveUpload(file);
          stored = saved.id;
          await services.database.db.deleteFrom("news").where("id", "=", id).execute();
          return saved;
        },
        deleteMedia: (mediaId) => services.media.deleteMedia(mediaId),
      },
    });
    const before = await mediaCount(services);
    await expect(
      editor.patchNews(id, patch({ title: "Tarde demais", mediaDescription: "Foto do estádio." }), await uploadedImage(services), testsActor),
    ).rejects.toMatchObject({ status: 404 });
    expect(stored).not.toBeNull();
    expect(await mediaCount(services)).toBe(before);
    // No stored object is left (the store's own temporary folder aside).
    const files = fs
      .readdirSync(path.join(services.dataDir, "media"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.parentPath.includes(".tmp"));
    expect(files).toEqual([]);
  });

  it("deleting an item someone else deleted first is a 404", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    await services.newsEditor.deleteNews(id, testsActor);
    await expect(services.newsEditor.deleteNews(id, testsActor)).rejects.toMatchObject({ status: 404, code: "news_not_found" });
  });
});

describe("errors that say nothing to strangers", () => {
  it("a database failure reaches the client as the operation's prefix and a request id; the log has the cause", async () => {
    const services = await open();
    await services.database.close();
    const failure = await services.news.listNewsPage({ limit: 24 }).catch((error: unknown) => error);
    const lines: string[] = [];
    const log = pino(
      { level: "error" },
      new Writable({
        write: (chunk, _encoding, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const response = toApiError(failure, new Request("http://localhost/api/news", { headers: { "x-request-id": "req-42" } }), log);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("news_list_failed");
    expect(body.error.message).toBe(`Falha ao buscar notícias. ${t.errors.tryAgain("req-42")}`);
    for (const leak of ["sqlite", "SQLite", "database", services.dataDir, "not open"]) expect(body.error.message).not.toContain(leak);
    expect(response.headers.get("x-request-id")).toBe("req-42");
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]!) as { reqId: string; err: { message: string } };
    expect(logged.reqId).toBe("req-42");
    expect(logged.err.message).toMatch(/^Falha ao buscar notícias: ./);
    // Errors meant for users keep their message.
    const notFound = await toApiError(new NotFoundError("news_not_found", t.news.notFound), new Request("http://localhost/"), log).json();
    expect(notFound).toEqual({ error: { code: "news_not_found", message: t.news.notFound } });
  });
});
