/**
 * Text pasted from Word or a web page (issue 33): soft hyphens, zero-width spaces, BOMs, no-break space runs,
 * direction overrides and control characters (NUL included: a 500 on PostgreSQL if it ever reached the database)
 * are cleaned on save by app/lib/clean-text.ts, never refused: in a story's title, subtitle, body and media texts
 * through the JSON API, in a live update, and in a "Devolver ao repórter" note. Only a private-use character is
 * refused, naming its word. Real services on a fresh database (SQLite, then PostgreSQL with TEST_DATABASE=postgres),
 * the route modules' own actions and loaders.
 */
import { describe, expect, it } from "vitest";
import { pendingReturn } from "#app/.server/news/publishing/news-review.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import type { Role } from "#app/lib/roles.ts";
import { action as newsItemAction, loader as newsItemLoader } from "#app/routes/api/news-item.ts";
import { action as newsAction } from "#app/routes/api/news.ts";
import { action as updatesAction, loader as updatesLoader } from "#app/routes/api/news-live-updates.ts";
import { action as returnAction } from "#app/routes/api/news-return.ts";
import { routeContextOf } from "#tests/factories/route-context.ts";
import { createMember } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { memberActor } from "#app/.server/auth/permissions.server.ts";

const SITE = "http://127.0.0.1:4321";
const open = useTestServices("eef-paste-", { SITE_URL: SITE });

/** What a paste brings along: soft hyphen, zero-width space, BOM, a no-break space run, an override, NUL. */
const dirty = (word: string) => `\uFEFF${word.slice(0, 3)}\u00AD${word.slice(3)}\u200B\u00A0\u00A0\u00A0vence\u202E o\u0000 clássico`;
const clean = (word: string) => `${word} vence o clássico`;

async function cookieOf(services: TestServices, role: Role): Promise<{ cookie: string; userId: string }> {
  const account = await createMember(services, role, { name: role === "editor" ? "Ana Editora" : "Rita Repórter" });
  const result = await services.auth.signInWithPassword({ email: account.email, password: account.password, ip: "10.1.0.7", headers: new Headers() });
  if (!result.ok) throw new Error("sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return { cookie: token, userId: account.id };
}

type Handler = (args: never) => Promise<unknown>;

async function call(
  services: TestServices,
  handler: Handler,
  method: string,
  path: string,
  params: Record<string, string>,
  cookie: string,
  body?: unknown,
) {
  const url = `${SITE}${path}`;
  const request = new Request(url, {
    method,
    headers: { cookie, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  let response: Response;
  try {
    response = (await handler({ request, context: routeContextOf(services), params, url: new URL(url), pattern: path } as never)) as Response;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

const paragraph = (...texts: string[]) => ({ type: "paragraph", content: texts.map((text) => ({ type: "text", text })) });

describe("a story pasted from Word, through the JSON API", () => {
  it("title, subtitle and body with U+00AD, U+200B, BOM, NBSP runs, U+202E and NUL are saved cleaned, not refused", async () => {
    const services = await open();
    const { cookie } = await cookieOf(services, "editor");
    const created = await call(services, newsAction as Handler, "POST", "/api/news", {}, cookie, {
      title: dirty("Palmeiras"),
      subtitle: dirty("Corinthians"),
      body: { type: "doc", content: [paragraph(dirty("Santos")), paragraph("\u200B\u00AD\u0000"), paragraph("Fim\u00A0\u00A0do\u001b jogo.")] },
      category: "Futebol",
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;

    const read = await call(services, newsItemLoader as Handler, "GET", `/api/news/${id}`, { id }, cookie);
    expect(read.status).toBe(200);
    expect(read.json.news.title).toBe(clean("Palmeiras"));
    expect(read.json.news.subtitle).toBe(clean("Corinthians"));
    // The paragraph of nothing but invisible characters is an empty paragraph.
    expect(read.json.news.body).toEqual({ type: "doc", content: [paragraph(clean("Santos")), { type: "paragraph" }, paragraph("Fim do jogo.")] });
    const stored = await services.news.getNews(id, { includeUnpublished: true });
    expect(stored.title).toBe(clean("Palmeiras"));
    expect(stored.fullContent).toContain(clean("Santos"));
    expect(stored.fullContent).not.toMatch(/[\u0000\u00AD\u200B\u202E\uFEFF\u00A0]/u);

    // The plain-text body (no editor) the same way.
    const plain = await call(services, newsItemAction as Handler, "PATCH", `/api/news/${id}`, { id }, cookie, {
      fullContent: `${dirty("Grêmio")}\n\nSegundo\u0000 parágrafo.`,
    });
    expect(plain.status, JSON.stringify(plain.json)).toBe(200);
    const replain = await services.news.getNews(id, { includeUnpublished: true });
    expect(replain.fullContent).toBe(`${clean("Grêmio")}\n\nSegundo parágrafo.`);
  });

  it("the media's description, caption and credit are saved cleaned", async () => {
    const services = await open();
    const { cookie } = await cookieOf(services, "editor");
    const id = await createNews(services, { media: "image" });
    const patched = await call(services, newsItemAction as Handler, "PATCH", `/api/news/${id}`, { id }, cookie, {
      mediaDescription: dirty("Torcedores"),
      mediaCaption: dirty("Flamengo"),
      mediaCredit: "Maria\u00A0\u00A0Silva\u200B/Agência\u0000\u202E",
    });
    expect(patched.status, JSON.stringify(patched.json)).toBe(200);
    const row = await services.database.db
      .selectFrom("news")
      .innerJoin("media", "media.id", "news.media_id")
      .select(["media.description", "media.caption", "media.credit"])
      .where("news.id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ description: clean("Torcedores"), caption: clean("Flamengo"), credit: "Maria Silva/Agência" });
  });

  it("an image's description, caption and credit in the body are cleaned by the schema the API saves with", () => {
    const parsed = newsInputSchema.parse({
      title: "T",
      subtitle: "S",
      body: {
        type: "doc",
        content: [
          {
            type: "image",
            attrs: { mediaId: "m1", alt: dirty("Torcida"), caption: "Gol\u00A0\u00A0do\u200B time\u0000", credit: "\uFEFFAna\u202E" },
          },
        ],
      },
    });
    expect(parsed.body?.content[0]).toEqual({
      type: "image",
      attrs: { mediaId: "m1", alt: clean("Torcida"), caption: "Gol do time", credit: "Ana" },
    });
  });

  it("a private-use character is refused (400), naming its word; nothing else in the request is", async () => {
    const services = await open();
    const { cookie } = await cookieOf(services, "editor");
    const refused = await call(services, newsAction as Handler, "POST", "/api/news", {}, cookie, {
      title: `${dirty("Palmeiras")} \uE000Verdão`,
      subtitle: "S",
      fullContent: "Texto",
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.fields.title).toEqual([t.newsForm.unsaveableCharacter("Título", "\uE000Verdão", "U+E000")]);
  });
});

describe("live updates and review notes", () => {
  it("a live update with NUL, ESC and U+202E is published cleaned", async () => {
    const services = await open();
    const { cookie } = await cookieOf(services, "editor");
    const id = await createNews(services, { title: "Flamengo x Vasco ao vivo", media: null });
    expect((await call(services, newsItemAction as Handler, "PATCH", `/api/news/${id}`, { id }, cookie, { coverage: "live" })).status).toBe(200);

    const plain = await call(services, updatesAction as Handler, "POST", `/api/news/${id}/updates`, { id }, cookie, {
      text: "GOL\u0000 do\u001b[31m Flamengo\u202E!\u00A0\u00A0Pedro\u00AD de cabeça\u200B.",
    });
    expect(plain.status, JSON.stringify(plain.json)).toBe(201);
    const rich = await call(services, updatesAction as Handler, "POST", `/api/news/${id}/updates`, { id }, cookie, {
      text: { type: "doc", content: [paragraph("Cartão\u0000 amarelo\u202E\u001b para \uFEFFGerson.")] },
    });
    expect(rich.status, JSON.stringify(rich.json)).toBe(201);

    const listed = await call(services, updatesLoader as Handler, "GET", `/api/news/${id}/updates`, { id }, cookie);
    const texts = (listed.json.updates as Array<{ text: string }>).map((update) => update.text).sort();
    expect(texts).toEqual(["Cartão amarelo para Gerson.", "GOL do[31m Flamengo! Pedro de cabeça."]);

    const refused = await call(services, updatesAction as Handler, "POST", `/api/news/${id}/updates`, { id }, cookie, { text: "Gol do Inter\uF8FF" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.fields.text).toEqual([t.newsForm.unsaveableCharacter(t.liveNewsroom.textLabel, "Inter\uF8FF", "U+F8FF")]);
  });

  it("a 'Devolver ao repórter' note with NUL, ESC and U+202E is saved cleaned", async () => {
    const services = await open();
    const reporter = await cookieOf(services, "reporter");
    const editor = await cookieOf(services, "editor");
    const story = await services.newsEditor.createNews(
      newsInputSchema.parse({ title: "Final do estadual", subtitle: "Sub", fullContent: "Texto", status: "review" }),
      null,
      memberActor({ userId: reporter.userId, role: "reporter" }),
    );
    const returned = await call(services, returnAction as Handler, "POST", `/api/news/${story.id}/return`, { id: story.id }, editor.cookie, {
      note: "Falta\u0000 ouvir\u001b o técnico\u202E.\u00A0\u00A0Confira\u00AD o placar.\r\nObrigada.",
    });
    expect(returned.status, JSON.stringify(returned.json)).toBe(200);
    expect(await pendingReturn(services.database.db, story.id)).toMatchObject({ note: "Falta ouvir o técnico. Confira o placar.\nObrigada." });
  });
});
