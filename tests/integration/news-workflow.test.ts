import { describe, expect, it } from "vitest";
import { listNewsVersions } from "#app/.server/news/editor/news-revisions.server.ts";
import { newsFormSchema, newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { editorActor, testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-workflow-");
const input = (fields: Record<string, unknown>) => newsInputSchema.parse({ subtitle: "Subtítulo", ...fields });
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function statusOf(services: TestServices, id: string) {
  return services.database.db.selectFrom("news").select(["status", "published_at", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
}

describe("a published story only goes offline on purpose", () => {
  it("a draft save (the form's 'Salvar rascunho', a PUT with status draft) saves the changes and the story stays live", async () => {
    const services = await open();
    const created = await services.newsEditor.createNews(input({ title: "Final do vôlei" }), null, testsActor);
    const before = await statusOf(services, created.id);
    expect(before.status).toBe("published");

    const saved = await services.newsEditor.updateNews(
      created.id,
      input({ title: "Final do vôlei, com fotos", status: "draft", version: 1 }),
      null,
      testsActor,
    );
    expect(saved).toMatchObject({ status: "published", publishedAt: before.published_at, version: 2 });
    expect(await services.news.getNews(created.id)).toMatchObject({ title: "Final do vôlei, com fotos", status: "published" });

    // The no-JavaScript form sends the same fields as text: still live. A schedule of a live story is not taken either.
    const form = newsFormSchema.parse({ title: "Outra", subtitle: "S", fullContent: "Texto", category: "Vôlei", status: "draft", version: "2" });
    expect(form.unpublish).toBeUndefined();
    await services.newsEditor.updateNews(created.id, input({ title: "Outra", status: "draft", version: 2 }), null, testsActor);
    await services.newsEditor.updateNews(
      created.id,
      input({ title: "Outra", status: "scheduled", publishAt: inAnHour(), version: 3 }),
      null,
      testsActor,
    );
    expect(await statusOf(services, created.id)).toMatchObject({ status: "published", published_at: before.published_at, version: 4 });
    // "ask" (the no-JavaScript button before its confirmation) is no request to unpublish.
    expect(newsFormSchema.parse({ title: "T", subtitle: "S", fullContent: "x", category: "C", unpublish: "ask" }).unpublish).toBe(false);
  });

  it("an explicit unpublish takes it offline (readers get not found); so does the API's PATCH with a status", async () => {
    const services = await open();
    const created = await services.newsEditor.createNews(input({ title: "Clássico" }), null, testsActor);
    const offline = await services.newsEditor.updateNews(created.id, input({ title: "Clássico", unpublish: "on", version: 1 }), null, testsActor);
    expect(offline.status).toBe("draft");
    await expect(services.news.getNews(created.id)).rejects.toMatchObject({ status: 404 });

    // Published again, then PATCH {"status":"draft"} (the JSON API's contract): an explicit unpublish.
    await services.newsEditor.patchNews(created.id, newsPatchSchema.parse({ status: "published" }), null, testsActor);
    expect((await services.news.getNews(created.id)).status).toBe("published");
    await services.newsEditor.patchNews(created.id, newsPatchSchema.parse({ title: "Só o título" }), null, testsActor);
    expect((await services.news.getNews(created.id)).status).toBe("published");
    const patched = await services.newsEditor.patchNews(created.id, newsPatchSchema.parse({ status: "draft" }), null, testsActor);
    expect(patched.status).toBe("draft");
    await expect(services.news.getNews(created.id)).rejects.toMatchObject({ status: 404 });

    // Unpublish with a schedule: offline until its time.
    await services.newsEditor.patchNews(created.id, newsPatchSchema.parse({ status: "published" }), null, testsActor);
    const when = inAnHour();
    const rescheduled = await services.newsEditor.updateNews(
      created.id,
      input({ title: "Clássico", status: "scheduled", publishAt: when, unpublish: true }),
      null,
      testsActor,
    );
    expect(rescheduled).toMatchObject({ status: "scheduled", publishedAt: when });
  });

  it("a draft or a scheduled story still changes status as asked (only leaving 'published' needs the request)", async () => {
    const services = await open();
    const draft = await services.newsEditor.createNews(input({ title: "Rascunho", status: "draft" }), null, testsActor);
    expect(
      (await services.newsEditor.updateNews(draft.id, input({ title: "Rascunho", status: "scheduled", publishAt: inAnHour() }), null, testsActor))
        .status,
    ).toBe("scheduled");
    expect((await services.newsEditor.updateNews(draft.id, input({ title: "Rascunho", status: "draft" }), null, testsActor)).status).toBe("draft");
    expect((await services.newsEditor.updateNews(draft.id, input({ title: "Rascunho", status: "published" }), null, testsActor)).status).toBe(
      "published",
    );
  });
});

describe("the history shows status changes", () => {
  it("who published, unpublished and scheduled, and when", async () => {
    const services = await open();
    const ana = await createAdmin(services, { name: "Ana Editora" });
    const bruno = await createAdmin(services, { name: "Bruno Chefe" });
    const created = await services.newsEditor.createNews(input({ title: "Semifinal", status: "draft" }), null, editorActor(ana.id));
    const id = created.id;
    await services.newsEditor.updateNews(id, input({ title: "Semifinal", status: "published", version: 1 }), null, editorActor(ana.id));
    await services.newsEditor.updateNews(id, input({ title: "Semifinal editada", status: "draft", version: 2 }), null, editorActor(ana.id));
    await services.newsEditor.updateNews(id, input({ title: "Semifinal editada", unpublish: true, version: 3 }), null, editorActor(bruno.id));
    const when = inAnHour();
    await services.newsEditor.updateNews(
      id,
      input({ title: "Semifinal editada", status: "scheduled", publishAt: when, version: 4 }),
      null,
      editorActor(bruno.id),
    );

    const versions = (await listNewsVersions(services.database.db, id))!;
    expect(versions.map((version) => [version.version, version.status, version.savedBy, version.statusChange?.kind ?? null])).toEqual([
      [5, "scheduled", "Bruno Chefe", "scheduled"],
      [4, "draft", "Bruno Chefe", "unpublished"],
      [3, "published", "Ana Editora", null],
      [2, "published", "Ana Editora", "published"],
      [1, "draft", "Ana Editora", null],
    ]);
    expect(versions[0]!.statusChange?.publishedAt).toBe(when);
    // Revisions kept their status in the database (both databases: the migration's columns).
    const rows = await services.database.db
      .selectFrom("news_revisions")
      .select(["version", "status"])
      .where("news_id", "=", id)
      .orderBy("version")
      .execute();
    expect(rows.map((row) => row.status)).toEqual(["draft", "published", "published", "draft"]);
  });

  it("a revision saved before revisions kept a status shows no change", async () => {
    const services = await open();
    const created = await services.newsEditor.createNews(input({ title: "Antiga" }), null, testsActor);
    await services.newsEditor.updateNews(created.id, input({ title: "Antiga 2" }), null, testsActor);
    await services.database.db.updateTable("news_revisions").set({ status: null, published_at: null }).where("news_id", "=", created.id).execute();
    const versions = (await listNewsVersions(services.database.db, created.id))!;
    expect(versions.map((version) => version.statusChange)).toEqual([null, null]);
  });
});
