/**
 * The news form's autosave of an existing story (GET / PUT / DELETE /api/news/:id/autosave): admins only, one copy
 * per story per user that nobody else reads, never a change to the story readers see (no version, revision or
 * event), deleted by that user's real save and with the story, and held to the save's field limits and character
 * rules. Real services on a fresh database (SQLite, then PostgreSQL with TEST_DATABASE=postgres), the route module's
 * own loader and action.
 */
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { NEWS_AUTOSAVE_MAX_BYTES, NEWS_BODY_MAX_CHARS, NEWS_LIMITS } from "#app/lib/limits.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { action, loader } from "#app/routes/api/news-autosave.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { createNews, eraseNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { editorActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-autosave-", { SITE_URL: "http://127.0.0.1:4321" });
const BASE = "http://127.0.0.1:4321/api/news";

function contextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

async function signIn(services: TestServices, account: { email: string; password: string }): Promise<string> {
  const result = await services.auth.signInWithPassword({ email: account.email, password: account.password, ip: "10.1.0.2", headers: new Headers() });
  if (!result.ok) throw new Error("sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return token;
}

const adminCookie = async (services: TestServices) => signIn(services, await createAdmin(services));

/** A live session of a user who is not an admin (admins only can sign in, so the admin row goes afterwards). */
async function nonAdminCookie(services: TestServices): Promise<string> {
  const account = await createAdmin(services);
  const cookie = await signIn(services, account);
  // Only the admins row (revoking also ends the account's sessions): the session stays, of someone who is not an admin.
  await services.database.db.deleteFrom("admins").where("user_id", "=", account.id).execute();
  return cookie;
}

async function call(services: TestServices, method: string, id: string, cookie: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const url = `${BASE}/${id}/autosave`;
  const request = new Request(url, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const args = { request, context: contextOf(services), params: { id }, url: new URL(url), pattern: "/api/news/:id/autosave" } as never;
  return (method === "GET" ? await loader(args) : await action(args)) as Response;
}

const doc = (text: string) => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
const typed = (title: string) => ({
  title,
  subtitle: "Subtítulo em edição",
  body: doc(`Corpo: ${title}`),
  category: "Vôlei",
  isHighlighted: true,
  version: 1,
});

async function storyRow(services: TestServices, id: string) {
  return services.database.db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirst();
}
const autosaveCount = async (services: TestServices, id?: string) => {
  let query = services.database.db.selectFrom("news_autosaves").select((eb) => eb.fn.countAll<number>().as("n"));
  if (id) query = query.where("news_id", "=", id);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

describe("who may use it", () => {
  it("anonymous: 401; signed in but not an admin: 403 (JSON); nothing is kept", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    const stranger = await nonAdminCookie(services);
    for (const [cookie, status, code] of [
      [null, 401, "unauthorized"],
      [stranger, 403, "forbidden"],
    ] as const) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const response = await call(services, method, id, cookie, method === "PUT" ? typed("Invasão") : undefined);
        expect(response.status, `${method} ${status}`).toBe(status);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
      }
    }
    expect(await autosaveCount(services)).toBe(0);
    // Methods it does not take: 405, before anything else.
    expect((await call(services, "POST", id, null, typed("x"))).status).toBe(405);
    expect((await call(services, "PATCH", id, stranger, typed("x"))).status).toBe(405);
  });

  it("each admin has their own copy: another admin neither reads nor discards it", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    const ana = await adminCookie(services);
    const beto = await adminCookie(services);
    expect((await call(services, "PUT", id, ana, typed("Versão da Ana"))).status).toBe(200);
    expect(await (await call(services, "GET", id, beto)).json()).toEqual({ autosave: null });
    expect((await call(services, "DELETE", id, beto)).status).toBe(404);
    expect((await call(services, "PUT", id, beto, typed("Versão do Beto"))).status).toBe(200);

    const ownOfAna = (await (await call(services, "GET", id, ana)).json()) as { autosave: { title: string; body: unknown; isHighlighted: boolean } };
    expect(ownOfAna.autosave).toMatchObject({ title: "Versão da Ana", body: doc("Corpo: Versão da Ana"), isHighlighted: true, category: "Vôlei" });
    const ownOfBeto = (await (await call(services, "GET", id, beto)).json()) as { autosave: { title: string } };
    expect(ownOfBeto.autosave.title).toBe("Versão do Beto");
    const answer = await call(services, "GET", id, ana);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");

    // One row per story per user: a new autosave overwrites it.
    expect((await call(services, "PUT", id, ana, typed("Versão da Ana, de novo"))).status).toBe(200);
    expect(await autosaveCount(services, id)).toBe(2);
    expect(((await (await call(services, "GET", id, ana)).json()) as { autosave: { title: string } }).autosave.title).toBe("Versão da Ana, de novo");

    expect((await call(services, "DELETE", id, ana)).status).toBe(204);
    expect(await (await call(services, "GET", id, ana)).json()).toEqual({ autosave: null });
    expect(((await (await call(services, "GET", id, beto)).json()) as { autosave: { title: string } }).autosave.title).toBe("Versão do Beto");
  });
});

describe("the story readers see", () => {
  it("an autosave changes nothing of it: texts, version, date, revisions, no event", async () => {
    const services = await open();
    const id = await createNews(services, { title: "Título publicado", media: null });
    const cookie = await adminCookie(services);
    const before = await storyRow(services, id);
    const events: string[] = [];
    services.events.subscribe((event) => events.push(event));
    for (let i = 0; i < 3; i++) expect((await call(services, "PUT", id, cookie, typed(`Rascunho ${i}`))).status).toBe(200);
    expect(await storyRow(services, id)).toEqual(before);
    expect(await services.database.db.selectFrom("news_revisions").select("id").where("news_id", "=", id).execute()).toEqual([]);
    expect((await services.news.getNews(id)).title).toBe("Título publicado");
    expect(events).toEqual([]);
  });

  it("a real save by the same user deletes their copy (not another admin's); a late autosave of the old form is refused", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    const anaAccount = await createAdmin(services);
    const ana = await signIn(services, anaAccount);
    const beto = await adminCookie(services);
    await call(services, "PUT", id, ana, typed("Ana"));
    await call(services, "PUT", id, beto, typed("Beto"));
    const input = newsInputSchema.parse({ title: "Salvo de verdade", subtitle: "S", fullContent: "Texto.", category: "Vôlei", version: "1" });
    await services.newsEditor.updateNews(id, input, null, editorActor(anaAccount.id));
    expect(await (await call(services, "GET", id, ana)).json()).toEqual({ autosave: null });
    expect(((await (await call(services, "GET", id, beto)).json()) as { autosave: { title: string } }).autosave.title).toBe("Beto");
    // An autosave still on its way from the form Ana just saved (version 1; the story is at 2, saved by her).
    const late = await call(services, "PUT", id, ana, typed("Ana, atrasado"));
    expect(late.status).toBe(409);
    expect(await (await call(services, "GET", id, ana)).json()).toEqual({ autosave: null });
    // Beto's form (version 1) still autosaves: the newer version is not his.
    expect((await call(services, "PUT", id, beto, typed("Beto 2"))).status).toBe(200);
  });

  it("deleting the story deletes every autosave of it (the editor, and the foreign key on its own)", async () => {
    const services = await open();
    const first = await createNews(services, { media: null });
    const second = await createNews(services, { media: null });
    const ana = await adminCookie(services);
    const beto = await adminCookie(services);
    for (const id of [first, second]) for (const cookie of [ana, beto]) await call(services, "PUT", id, cookie, typed("x"));
    expect(await autosaveCount(services)).toBe(4);
    await eraseNews(services, first);
    expect(await autosaveCount(services, first)).toBe(0);
    // A row removed without the editor (an operator, a script): the cascade.
    await services.database.db.deleteFrom("news").where("id", "=", second).execute();
    expect(await autosaveCount(services)).toBe(0);
    // A story that does not exist (any more): 404, nothing kept.
    expect((await call(services, "PUT", first, ana, typed("x"))).status).toBe(404);
    expect(await autosaveCount(services)).toBe(0);
  });
});

describe("the fields, as a save checks them", () => {
  it("limits, characters that cannot be cleaned, the body's schema and size: 400 with the field's pt-BR message; nothing kept", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    const cookie = await adminCookie(services);
    const refused = async (body: unknown, field: string, message: string) => {
      const response = await call(services, "PUT", id, cookie, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const answer = (await response.json()) as { error: { code: string; fields: Record<string, string[]> } };
      expect(answer.error.code).toBe("validation_failed");
      expect(answer.error.fields[field]).toEqual([message]);
    };
    await refused({ title: "x".repeat(NEWS_LIMITS.title + 1) }, "title", t.newsForm.tooLong(t.newsForm.fieldLabel.title, NEWS_LIMITS.title));
    await refused({ category: "Vôlei\uE000" }, "category", t.newsForm.unsaveableCharacter(t.newsForm.fieldLabel.category, "Vôlei\uE000", "U+E000"));
    await refused({ body: doc("o \uE000texto") }, "body", t.newsForm.unsaveableCharacter(t.newsForm.fieldLabel.fullContent, "\uE000texto", "U+E000"));
    await refused(
      { body: doc("a".repeat(NEWS_LIMITS.fullContent + 1)) },
      "body",
      t.newsForm.tooLong(t.newsForm.fieldLabel.fullContent, NEWS_LIMITS.fullContent),
    );
    const script = await call(services, "PUT", id, cookie, { body: { type: "doc", content: [{ type: "script", text: "alert(1)" }] } });
    expect(script.status).toBe(400);
    // Not a string where text goes.
    expect((await call(services, "PUT", id, cookie, { title: 42 })).status).toBe(400);
    expect((await call(services, "PUT", id, cookie, "não é JSON")).status).toBe(400);
    expect(await autosaveCount(services)).toBe(0);

    // An empty form in progress is fine (nothing is required while typing).
    expect((await call(services, "PUT", id, cookie, {})).status).toBe(200);
  });

  it("a body larger than the cap is refused (413), declared or as it arrives", async () => {
    const services = await open();
    const id = await createNews(services, { media: null });
    const cookie = await adminCookie(services);
    expect(NEWS_AUTOSAVE_MAX_BYTES).toBeGreaterThan(NEWS_BODY_MAX_CHARS);
    const huge = JSON.stringify({ title: "x", subtitle: "y".repeat(NEWS_AUTOSAVE_MAX_BYTES) });
    const declared = await call(services, "PUT", id, cookie, huge, { "Content-Length": String(Buffer.byteLength(huge)) });
    expect(declared.status).toBe(413);
    // Without a length (the stream is counted).
    const streamed = await call(services, "PUT", id, cookie, huge);
    expect(streamed.status).toBe(413);
    expect(await autosaveCount(services)).toBe(0);
  });
});
