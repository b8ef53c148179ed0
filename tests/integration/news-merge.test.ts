import { describe, expect, it } from "vitest";
import { toApiError } from "#app/.server/http/api.server.ts";
import { NewsConflictError, NewsMergeConflictError } from "#app/.server/news/editor/news-save.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { MergeConflict } from "#app/lib/news-merge.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { useTestServices } from "#tests/factories/use-services.ts";
import { editorActor, testsActor } from "#tests/factories/actors.ts";

/**
 * "Salvar mesmo assim" (issue 18): a save based on an older version writes only the fields its editor changed from
 * that version, over what is saved now; a field both changed differently is a 409 with both values until chosen.
 */
const open = useTestServices("eef-merge-");
const doc = (text: string): RichDoc => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

/** The whole form as editor A sends it: the values it opened with, changed where it changed them. */
function formOf(fields: Record<string, unknown>) {
  return newsInputSchema.parse({
    title: "Título original",
    subtitle: "Resumo original",
    body: JSON.stringify(doc("Corpo original")),
    category: "Futebol",
    author: "Ana",
    ...fields,
  });
}

async function storyOf(services: Awaited<ReturnType<typeof open>>, id: string) {
  return services.news.getNews(id, { includeUnpublished: true });
}

async function setup() {
  const services = await open();
  const other = await createAdmin(services, { name: "Bruno Editor" });
  const created = await services.newsEditor.createNews(formOf({}), null, testsActor);
  return { services, id: created.id, other };
}

describe("Salvar mesmo assim: a three-way merge", () => {
  it("writes only the fields this editor changed: the other editor's title stays, this editor's summary and body land", async () => {
    const { services, id, other } = await setup();
    // B changes the title and saves (version 1 -> 2).
    await services.newsEditor.updateNews(id, formOf({ title: "Título do Bruno", version: 1 }), null, editorActor(other.id));
    // A, still on version 1, changed the summary and the body: a plain save is a conflict.
    const mine = { subtitle: "Resumo da Ana", body: JSON.stringify(doc("Corpo da Ana")), version: 1 };
    await expect(services.newsEditor.updateNews(id, formOf(mine), null, testsActor)).rejects.toBeInstanceOf(NewsConflictError);
    // "Salvar mesmo assim": the fields A changed, on A's base.
    const saved = await services.newsEditor.updateNews(id, formOf({ ...mine, merge: "on", mergeChanged: "subtitle,body" }), null, testsActor);
    expect(saved.version).toBe(3);
    const story = await storyOf(services, id);
    expect(story).toMatchObject({ title: "Título do Bruno", subtitle: "Resumo da Ana", fullContent: "Corpo da Ana", category: "Futebol" });
    expect(story.body).toEqual(doc("Corpo da Ana"));
  });

  it("a field not declared changed is not written even if the form holds another value (the client's view of now is not trusted)", async () => {
    const { services, id, other } = await setup();
    await services.newsEditor.updateNews(id, formOf({ category: "Vôlei", isHighlighted: "on", version: 1 }), null, editorActor(other.id));
    // A's form still holds "Futebol" (its base) and declares only the title.
    await services.newsEditor.updateNews(id, formOf({ title: "Título da Ana", version: 1, merge: "on", mergeChanged: "title" }), null, testsActor);
    expect(await storyOf(services, id)).toMatchObject({ title: "Título da Ana", category: "Vôlei", isHighlighted: true });
    // Declaring a field that did not change from the base writes nothing over the other's value either.
    await services.newsEditor.updateNews(
      id,
      formOf({ title: "Título da Ana", version: 1, merge: "on", mergeChanged: "title,category" }),
      null,
      testsActor,
    );
    expect(await storyOf(services, id)).toMatchObject({ title: "Título da Ana", category: "Vôlei" });
  });

  it("a field both changed differently is a 409 with both values, who and when; nothing is written until chosen", async () => {
    const { services, id, other } = await setup();
    await services.newsEditor.updateNews(id, formOf({ title: "Título do Bruno", author: "Bruno", version: 1 }), null, editorActor(other.id));
    const before = await storyOf(services, id);
    const mine = { title: "Título da Ana", subtitle: "Resumo da Ana", version: 1, merge: "on", mergeChanged: "title,subtitle" };
    const error = await services.newsEditor.updateNews(id, formOf(mine), null, testsActor).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(NewsMergeConflictError);
    const response = toApiError(error, new Request("http://localhost/api/news/x"), services.log);
    expect(response.status).toBe(409);
    const answer = (await response.json()) as { error: { code: string; message: string; merge: MergeConflict } };
    expect(answer.error.code).toBe("news_merge_conflict");
    expect(answer.error.message).toBe(t.newsForm.mergeConflict);
    expect(answer.error.merge.fields).toEqual([{ field: "title", mine: "Título da Ana", theirs: "Título do Bruno" }]);
    expect(answer.error.merge.savedBy).toBe("Bruno Editor");
    expect(answer.error.merge.savedAt).toBe(before.updatedAt);
    expect(answer.error.merge.current.version).toBe(2);
    // Nothing of A's save was written, not even the summary nobody else touched.
    expect(await storyOf(services, id)).toMatchObject({ title: "Título do Bruno", subtitle: "Resumo original", version: 2 });

    // A chooses, against version 2: its own title. The summary goes too; B's author stays.
    await services.newsEditor.updateNews(id, formOf({ ...mine, mergeChoices: "title=mine", mergeSeen: 2 }), null, testsActor);
    expect(await storyOf(services, id)).toMatchObject({ title: "Título da Ana", subtitle: "Resumo da Ana", author: "Bruno", version: 3 });
  });

  it("choosing the other's value keeps it; choices made against an older version ask again", async () => {
    const { services, id, other } = await setup();
    await services.newsEditor.updateNews(id, formOf({ title: "Título do Bruno", version: 1 }), null, editorActor(other.id));
    const mine = { title: "Título da Ana", body: JSON.stringify(doc("Corpo da Ana")), version: 1, merge: "on", mergeChanged: "title,body" };
    await services.newsEditor.updateNews(id, formOf({ ...mine, mergeChoices: "title=theirs", mergeSeen: 2 }), null, testsActor);
    expect(await storyOf(services, id)).toMatchObject({ title: "Título do Bruno", fullContent: "Corpo da Ana", version: 3 });

    // B saves the title again; a choice made against version 3 no longer counts at version 4.
    await services.newsEditor.updateNews(
      id,
      formOf({ title: "Título do Bruno 2", body: JSON.stringify(doc("Corpo da Ana")), version: 3 }),
      null,
      testsActor,
    );
    const stale = await services.newsEditor
      .updateNews(id, formOf({ ...mine, version: 3, mergeChanged: "title", mergeChoices: "title=mine", mergeSeen: 3 }), null, testsActor)
      .catch((thrown: unknown) => thrown);
    expect(stale).toBeInstanceOf(NewsMergeConflictError);
    expect((stale as NewsMergeConflictError).merge.fields.map((field) => field.field)).toEqual(["title"]);
    expect((await storyOf(services, id)).title).toBe("Título do Bruno 2");
  });

  it("the body is compared as a whole, and the same change on both sides is no conflict", async () => {
    const { services, id, other } = await setup();
    await services.newsEditor.updateNews(
      id,
      formOf({ body: JSON.stringify(doc("Corpo do Bruno")), title: "Igual", version: 1 }),
      null,
      editorActor(other.id),
    );
    const both = await services.newsEditor
      .updateNews(
        id,
        formOf({ body: JSON.stringify(doc("Corpo da Ana")), title: "Igual", version: 1, merge: "on", mergeChanged: "title,body" }),
        null,
        testsActor,
      )
      .catch((thrown: unknown) => thrown);
    expect((both as NewsMergeConflictError).merge.fields).toEqual([{ field: "body", mine: "Corpo da Ana", theirs: "Corpo do Bruno" }]);
  });

  it("media: removing it over the other's unchanged media lands; the other removed it while this editor changed its texts: a conflict", async () => {
    const { services, id, other } = await setup();
    const image = await services.media.saveImage(await makeTestImage(300, 200), "b.jpg");
    await services.database.db.updateTable("news").set({ media_id: image.id }).where("id", "=", id).execute();
    // B changes the title; A, on the same base, removes the media and changes the summary.
    await services.newsEditor.updateNews(id, formOf({ title: "Título do Bruno", version: 1 }), null, editorActor(other.id));
    await services.newsEditor.updateNews(
      id,
      formOf({ subtitle: "Resumo da Ana", removeMedia: "on", version: 1, merge: "on", mergeChanged: "subtitle,media" }),
      null,
      testsActor,
    );
    expect(await storyOf(services, id)).toMatchObject({ title: "Título do Bruno", subtitle: "Resumo da Ana", mediaId: null, version: 3 });

    const second = await services.media.saveImage(await makeTestImage(300, 200), "c.jpg");
    await services.database.db.updateTable("news").set({ media_id: second.id }).where("id", "=", id).execute();
    // B (on version 3) removes the media; A (also on version 3) changed only the media's caption.
    await services.newsEditor.updateNews(id, formOf({ subtitle: "Resumo da Ana", removeMedia: "on", version: 3 }), null, editorActor(other.id));
    const error = await services.newsEditor
      .updateNews(
        id,
        formOf({ subtitle: "Resumo da Ana", mediaCaption: "Legenda da Ana", version: 3, merge: "on", mergeChanged: "media" }),
        null,
        testsActor,
      )
      .catch((thrown: unknown) => thrown);
    expect((error as NewsMergeConflictError).merge.fields).toEqual([{ field: "media", mine: { kind: "text" }, theirs: { kind: "removed" } }]);
  });

  it("without the merge flag, or with a base version never saved, a stale save is today's plain conflict", async () => {
    const { services, id, other } = await setup();
    await services.newsEditor.updateNews(id, formOf({ title: "Título do Bruno", version: 1 }), null, editorActor(other.id));
    const plain = await services.newsEditor
      .updateNews(id, formOf({ subtitle: "Resumo da Ana", version: 1 }), null, testsActor)
      .catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(NewsConflictError);
    expect(plain).not.toBeInstanceOf(NewsMergeConflictError);
    const unknown = await services.newsEditor
      .updateNews(id, formOf({ subtitle: "Resumo da Ana", version: 9, merge: "on", mergeChanged: "subtitle" }), null, testsActor)
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NewsConflictError);
    expect(unknown).not.toBeInstanceOf(NewsMergeConflictError);
    expect(await storyOf(services, id)).toMatchObject({ title: "Título do Bruno", subtitle: "Resumo original", version: 2 });
    // No base at all (no version): the whole form is written, as before.
    await services.newsEditor.updateNews(id, formOf({ subtitle: "Resumo da Ana" }), null, testsActor);
    expect(await storyOf(services, id)).toMatchObject({ title: "Título original", subtitle: "Resumo da Ana", version: 3 });
  });
});
