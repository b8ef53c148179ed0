import type { Kysely } from "kysely";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { handleNewsFormAction } from "#app/.server/http/news-form-action.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { action as newsItemAction, loader as newsItemLoader } from "#app/routes/api/news-item.ts";
import { action as newsAction } from "#app/routes/api/news.ts";
import * as newsBody from "#migrations/2026-11-26-600-news-body.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

/**
 * The structured body end to end on a real database (SQLite, then PostgreSQL): the migration that converts every
 * plain-text body and revision, and the JSON API and the no-JavaScript form taking plain text or structured content.
 */
const SITE = "http://127.0.0.1:4321";
const open = useTestServices("eef-news-body-", { SITE_URL: SITE });

const heading = { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Intertítulo" }] };
const linked = {
  type: "paragraph",
  content: [
    { type: "text", text: "Veja o " },
    { type: "text", text: "regulamento", marks: [{ type: "bold" }, { type: "link", attrs: { href: "https://example.org/regulamento" } }] },
  ],
};
const structured = {
  type: "doc",
  content: [
    heading,
    linked,
    { type: "bulletList", content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "item" }] }] }] },
  ],
};

function contextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

async function adminCookie(services: TestServices): Promise<string> {
  const admin = await createAdmin(services);
  const result = await services.auth.signInWithPassword({ email: admin.email, password: admin.password, ip: "10.1.0.1", headers: new Headers() });
  if (!result.ok) throw new Error("admin sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return token;
}

async function api(services: TestServices, cookie: string, method: string, path: string, body: unknown): Promise<Response> {
  const request = new Request(`${SITE}${path}`, {
    method,
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const id = /\/api\/news\/(.+)$/.exec(path)?.[1];
  const args = { request, context: contextOf(services), params: id ? { id } : {}, url: new URL(request.url), pattern: path };
  try {
    // The routes' generated argument types are more than a call needs: the same fields React Router passes.
    return (await (id
      ? newsItemAction(args as unknown as Parameters<typeof newsItemAction>[0])
      : newsAction(args as unknown as Parameters<typeof newsAction>[0]))) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function article(services: TestServices, id: string) {
  const request = new Request(`${SITE}/api/news/${id}`);
  const response = (await newsItemLoader({
    request,
    context: contextOf(services),
    params: { id },
    url: new URL(request.url),
    pattern: "",
  } as unknown as Parameters<typeof newsItemLoader>[0])) as Response;
  return ((await response.json()) as { news: { fullContent: string; body: unknown } }).news;
}

describe("the news-body migration", () => {
  it("converts every plain-text body and revision to paragraphs (blank line) and line breaks (single); down keeps the text", async () => {
    const services = await open();
    // biome-ignore lint/suspicious/noExplicitAny: migrations run on Kysely<any>.
    const db = services.database.db as Kysely<any>;
    const id = await createNews(services, { media: null, fullContent: "Primeiro.\nLinha dois.\n\nSegundo <b>parágrafo</b>." });
    await services.newsEditor.updateNews(
      id,
      { title: "Novo título", subtitle: "Sub", fullContent: "Texto novo.", isHighlighted: false, removeMedia: false },
      null,
      testsActor,
    );
    const revision = await db.selectFrom("news_revisions").select("id").where("news_id", "=", id).executeTakeFirstOrThrow();
    // Back to the schema before the migration, with the bodies as they were: plain text only.
    await newsBody.down(db);
    await db.updateTable("news").set({ full_content: "Agora.\n\n\nDepois." }).where("id", "=", id).execute();
    await db
      .updateTable("news_revisions")
      .set({ full_content: "Primeiro.\nLinha dois.\n\nSegundo <b>parágrafo</b>." })
      .where("id", "=", revision.id)
      .execute();
    const columnsBefore = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect("body" in columnsBefore).toBe(false);

    await newsBody.up(db);
    const news = await db.selectFrom("news").select(["body", "full_content"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(JSON.parse(news.body)).toEqual({
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: "Agora." }] },
        { type: "paragraph", content: [{ type: "text", text: "Depois." }] },
      ],
    });
    const old = await db.selectFrom("news_revisions").select("body").where("id", "=", revision.id).executeTakeFirstOrThrow();
    // Nothing is interpreted: "<b>" stays text.
    expect(JSON.parse(old.body)).toEqual({
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: "Primeiro." }, { type: "hardBreak" }, { type: "text", text: "Linha dois." }] },
        { type: "paragraph", content: [{ type: "text", text: "Segundo <b>parágrafo</b>." }] },
      ],
    });
    // The app reads the converted body; the article's plain text is what it was.
    expect((await services.news.getNews(id)).body).toEqual(JSON.parse(news.body));
    expect(news.full_content).toBe("Agora.\n\n\nDepois.");

    await newsBody.down(db);
    const after = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect("body" in after).toBe(false);
    expect(after.full_content).toBe("Agora.\n\n\nDepois.");
    await newsBody.up(db);
  });
});

describe("the JSON API and the form: plain text or structured content", () => {
  it("fullContent as plain text is still taken (blank line = paragraph); body as structured content too, and wins", async () => {
    const services = await open();
    const cookie = await adminCookie(services);
    const plain = await api(services, cookie, "POST", "/api/news", {
      title: "Texto",
      subtitle: "Sub",
      category: "Futebol",
      fullContent: "Um.\nDois.\n\nTrês.",
    });
    expect(plain.status).toBe(201);
    const plainId = ((await plain.json()) as { id: string }).id;
    expect((await article(services, plainId)).body).toEqual(plainTextToDoc("Um.\nDois.\n\nTrês."));

    const rich = await api(services, cookie, "POST", "/api/news", {
      title: "Rico",
      subtitle: "Sub",
      category: "Futebol",
      body: structured,
      fullContent: "ignorado",
    });
    expect(rich.status).toBe(201);
    const richId = ((await rich.json()) as { id: string }).id;
    const saved = await article(services, richId);
    expect(saved.body).toEqual(structured);
    expect(saved.fullContent).toBe("Intertítulo\n\nVeja o regulamento\n\n• item");
    // Search indexes the plain text of the structured body.
    const found = await services.search.search({ query: "regulamento" });
    expect(found.hits.map((hit) => hit.id)).toContain(richId);

    // PATCH with a body changes it; the revision keeps the one before.
    const patched = await api(services, cookie, "PATCH", `/api/news/${richId}`, { body: { type: "doc", content: [linked] } });
    expect(patched.status).toBe(200);
    expect((await article(services, richId)).body).toEqual({ type: "doc", content: [linked] });
    const revisions = await services.database.db.selectFrom("news_revisions").select("body").where("news_id", "=", richId).execute();
    expect(revisions.map((row) => JSON.parse(row.body!))).toEqual([structured]);
  });

  it("refuses a javascript: link, an unknown node and an oversize body with a 400 and its pt-BR message", async () => {
    const services = await open();
    const cookie = await adminCookie(services);
    const base = { title: "T", subtitle: "S", category: "Futebol" };
    const bad = {
      type: "doc",
      content: [{ type: "paragraph", content: [{ type: "text", text: "x", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }] }],
    };
    const cases: Array<[unknown, string]> = [
      [bad, t.richText.invalidLink("javascript:alert(1)")],
      [{ type: "doc", content: [{ type: "script", text: "alert(1)" }] }, t.richText.invalid],
      [{ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "x".repeat(450_000) }] }] }, t.richText.tooLarge],
    ];
    for (const [body, message] of cases) {
      const response = await api(services, cookie, "POST", "/api/news", { ...base, body });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(message);
    }
    expect(await services.database.db.selectFrom("news").select("id").execute()).toEqual([]);
  });

  it("the no-JavaScript form: a plain text left as it was keeps the formatting; an edited one becomes paragraphs", async () => {
    const services = await open();
    const cookie = await adminCookie(services);
    const created = await api(services, cookie, "POST", "/api/news", { title: "Rico", subtitle: "Sub", category: "Futebol", body: structured });
    const id = ((await created.json()) as { id: string }).id;
    const post = async (fullContent: string) => {
      const form = new FormData();
      for (const [key, value] of Object.entries({ title: "Rico 2", subtitle: "Sub", category: "Futebol", fullContent, status: "published" }))
        form.append(key, value);
      const request = new Request(`${SITE}/edit-news/${id}`, { method: "POST", headers: { Cookie: cookie }, body: form });
      try {
        await handleNewsFormAction(request, contextOf(services), id);
      } catch (thrown) {
        // A saved edit redirects to the article.
        if (!(thrown instanceof Response) || thrown.status !== 302) throw thrown;
      }
    };
    await post((await article(services, id)).fullContent);
    expect((await article(services, id)).body).toEqual(structured);
    await post("Intertítulo\n\nTexto trocado.");
    expect((await article(services, id)).body).toEqual(plainTextToDoc("Intertítulo\n\nTexto trocado."));
  });
});
