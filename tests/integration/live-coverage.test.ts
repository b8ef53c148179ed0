/**
 * Live coverage's API (issue 20): PATCH /api/news/:id with `coverage` / `scoreboard`, POST /api/news/:id/updates,
 * PATCH / DELETE /api/news/:id/updates/:updateId, GET /api/news/:id/updates?cursor=. Who may do what per role, the
 * pt-BR refusals with their stable codes, keyset paging, a draft's updates invisible to readers, and the events each
 * change sends (only the story's paths for an update). Real services on a fresh database (SQLite, then PostgreSQL with
 * TEST_DATABASE=postgres), the route modules' own loaders and actions.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { resolveAuthSecret } from "#app/.server/auth/secret.server.ts";
import { createSessionCookieCheck } from "#app/.server/auth/session-cookie-signature.server.ts";
import { createSiteEventStreams } from "#server/site-event-streams.ts";
import type { SiteEvent, SiteEventDetail } from "#app/.server/events/event-bus.ts";
import { t } from "#app/i18n/newsroom.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import { LIVE_EVENT_INLINE_BYTES } from "#app/lib/live-coverage.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import * as item from "#app/routes/api/news-item.ts";
import * as one from "#app/routes/api/news-live-update.ts";
import * as list from "#app/routes/api/news-live-updates.ts";
import * as liveForm from "#app/routes/api/news-live-form.ts";
import { createSyndication } from "#app/.server/syndication/syndication.server.ts";
import { startNewsScheduler } from "#app/.server/news/publishing/news-scheduler.server.ts";
import { memberSessionCookie } from "#tests/factories/route-context.ts";
import { createNews } from "#tests/factories/news.ts";
import { migrations } from "#migrations/index.ts";
import { createPostgresDatabase, createTestServices, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { testsActor } from "#tests/factories/actors.ts";

const open = useTestServices("eef-live-", { SITE_URL: "http://127.0.0.1:4321" });
const ORIGIN = "http://127.0.0.1:4321";

function contextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

type Module = { loader: (args: never) => Promise<Response>; action: (args: never) => Promise<Response> };

async function call(
  services: TestServices,
  module: Module,
  method: string,
  path: string,
  params: Record<string, string>,
  cookie: string | null,
  body?: unknown,
) {
  const url = `${ORIGIN}${path}`;
  const request = new Request(url, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const args = { request, context: contextOf(services), params, url: new URL(url), pattern: path } as never;
  const response = method === "GET" ? await module.loader(args) : await module.action(args);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

const patchNews = (services: TestServices, id: string, cookie: string | null, body: unknown) =>
  call(services, item as unknown as Module, "PATCH", `/api/news/${id}`, { id }, cookie, body);
/** The feeds and sitemaps a live change also renews (their dates follow the story's last change). */
const FEEDS = ["/rss.xml", "/rss/destaques.xml", "/sitemap.xml", "/sitemaps/news.xml"];

const postUpdate = (services: TestServices, id: string, cookie: string | null, body: unknown) =>
  call(services, list as unknown as Module, "POST", `/api/news/${id}/updates`, { id }, cookie, body);
const getUpdates = (services: TestServices, id: string, cookie: string | null, cursor?: string) =>
  call(services, list as unknown as Module, "GET", `/api/news/${id}/updates${cursor ? `?cursor=${cursor}` : ""}`, { id }, cookie);
const changeUpdate = (services: TestServices, id: string, updateId: string, cookie: string | null, method: string, body?: unknown) =>
  call(services, one as unknown as Module, method, `/api/news/${id}/updates/${updateId}`, { id, updateId }, cookie, body);

async function liveStory(services: TestServices, cookie: string) {
  const id = await createNews(services, { title: "Flamengo x Vasco ao vivo", media: null });
  expect((await patchNews(services, id, cookie, { coverage: "live" })).status).toBe(200);
  return id;
}

describe("cobertura ao vivo: estado e placar", () => {
  it("inicia, encerra e desliga guardando início e fim; o placar é validado e pode ser removido", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { media: null });

    const started = await patchNews(services, id, editor.cookie, { coverage: "live" });
    expect(started.status).toBe(200);
    expect(started.json?.coverage).toMatchObject({ state: "live", endedAt: null, scoreboard: null });
    const startedAt = started.json?.coverage.startedAt as string;
    expect(Date.parse(startedAt)).not.toBeNaN();

    const scoreboard = { home: "Flamengo", away: "Vasco", homeScore: 2, awayScore: 1, period: "2º tempo" };
    const scored = await patchNews(services, id, editor.cookie, { scoreboard });
    expect(scored.json?.coverage.scoreboard).toEqual(scoreboard);

    const ended = await patchNews(services, id, editor.cookie, { coverage: "ended" });
    expect(ended.json?.coverage).toMatchObject({ state: "ended", startedAt });
    expect(Date.parse(ended.json?.coverage.endedAt)).toBeGreaterThanOrEqual(Date.parse(startedAt));

    expect((await patchNews(services, id, editor.cookie, { coverage: null })).json?.coverage).toBeNull();
    const row = await services.database.db
      .selectFrom("news")
      .select(["live_started_at", "live_ended_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ live_started_at: startedAt, live_ended_at: ended.json?.coverage.endedAt });

    // Started again: the first start is kept, the end cleared.
    const again = await patchNews(services, id, editor.cookie, { coverage: "live" });
    expect(again.json?.coverage).toMatchObject({ state: "live", startedAt, endedAt: null });
    expect((await patchNews(services, id, editor.cookie, { scoreboard: null })).json?.coverage.scoreboard).toBeNull();
  });

  it("recusa valores inválidos com códigos estáveis e mensagens em português", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { media: null });
    const good = { home: "Grêmio", away: "Inter", homeScore: 0, awayScore: 0, period: "1º tempo" };
    const cases: Array<[unknown, string, string, string]> = [
      [{ coverage: "sim" }, "coverage_invalid", "coverage", t.liveNewsroom.coverageInvalid],
      [{ scoreboard: { ...good, home: " " } }, "scoreboard_invalid", "scoreboard.home", t.liveNewsroom.teamRequired],
      [
        { scoreboard: { ...good, away: "x".repeat(LIVE_LIMITS.teamName + 1) } },
        "scoreboard_invalid",
        "scoreboard.away",
        t.liveNewsroom.teamTooLong(LIVE_LIMITS.teamName),
      ],
      [{ scoreboard: { ...good, homeScore: -1 } }, "scoreboard_invalid", "scoreboard.homeScore", t.liveNewsroom.scoreInvalid(LIVE_LIMITS.scoreMax)],
      [{ scoreboard: { ...good, awayScore: 1.5 } }, "scoreboard_invalid", "scoreboard.awayScore", t.liveNewsroom.scoreInvalid(LIVE_LIMITS.scoreMax)],
      [{ scoreboard: { ...good, homeScore: "2" } }, "scoreboard_invalid", "scoreboard.homeScore", t.liveNewsroom.scoreInvalid(LIVE_LIMITS.scoreMax)],
      [
        { scoreboard: { ...good, period: "p".repeat(LIVE_LIMITS.period + 1) } },
        "scoreboard_invalid",
        "scoreboard.period",
        t.liveNewsroom.periodTooLong(LIVE_LIMITS.period),
      ],
      [{ scoreboard: "2x1" }, "scoreboard_invalid", "scoreboard", t.liveNewsroom.scoreboardInvalid],
    ];
    for (const [body, code, field, message] of cases) {
      const refused = await patchNews(services, id, editor.cookie, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json?.error).toMatchObject({ code, message, fields: { [field]: [message] } });
    }
    const mixed = await patchNews(services, id, editor.cookie, { coverage: "live", title: "Outro" });
    expect(mixed.status).toBe(400);
    expect(mixed.json?.error).toMatchObject({ code: "live_patch_mixed", message: t.liveNewsroom.mixedPatch });
    // Nothing of it was stored; a plain save still works through the same route.
    expect((await getUpdates(services, id, null)).json?.coverage).toBeNull();
    const saved = await patchNews(services, id, editor.cookie, { title: "Título novo" });
    expect(saved.json).toMatchObject({ id, version: 2 });
  });
});

describe("atualizações: permissões por papel", () => {
  it("editor e administrador postam em qualquer notícia; o repórter só na própria; anônimo 401", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const admin = await memberSessionCookie(services, "admin");
    const reporter = await memberSessionCookie(services, "reporter");
    const id = await liveStory(services, editor.cookie);

    expect((await postUpdate(services, id, null, { text: "Gol!" })).status).toBe(401);
    const notYours = await postUpdate(services, id, reporter.cookie, { text: "Gol!" });
    expect(notYours.status).toBe(403);
    expect(notYours.json?.error).toMatchObject({ code: "story_not_yours", message: t.roles.notOwnStory });
    expect((await patchNews(services, id, reporter.cookie, { scoreboard: null })).json?.error.code).toBe("story_not_yours");

    const byEditor = await postUpdate(services, id, editor.cookie, { text: "Começa o jogo no Maracanã." });
    expect(byEditor.status).toBe(201);
    expect(typeof byEditor.json?.update.id).toBe("string");
    expect((await postUpdate(services, id, admin.cookie, { text: "Cartão amarelo.", keyEvent: true })).status).toBe(201);

    // A reporter's own story (they created it): they start the coverage and post to it, edit and delete there.
    await services.database.db.updateTable("news").set({ owner_id: reporter.userId }).where("id", "=", id).execute();
    const own = await postUpdate(services, id, reporter.cookie, { text: "Do repórter no estádio." });
    expect(own.status).toBe(201);
    const updateId = own.json?.update.id as string;
    expect((await changeUpdate(services, id, updateId, reporter.cookie, "PATCH", { pinned: true })).json?.update.pinned).toBe(true);
    expect((await changeUpdate(services, id, updateId, reporter.cookie, "DELETE")).status).toBe(204);
    await services.database.db.updateTable("news").set({ owner_id: editor.userId }).where("id", "=", id).execute();
    const other = await changeUpdate(services, id, byEditor.json?.update.id, reporter.cookie, "DELETE");
    expect(other.json?.error.code).toBe("story_not_yours");
  });

  it(`no máximo ${LIVE_LIMITS.postsPerMinute} atualizações por minuto por membro: a seguinte é 429 com Retry-After; outro membro segue`, async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const admin = await memberSessionCookie(services, "admin");
    const id = await liveStory(services, editor.cookie);
    for (let n = 1; n <= LIVE_LIMITS.postsPerMinute; n++) {
      expect((await postUpdate(services, id, editor.cookie, { text: `Lance ${n}` })).status, `atualização ${n}`).toBe(201);
    }
    const refused = await postUpdate(services, id, editor.cookie, { text: "Uma a mais" });
    expect(refused.status).toBe(429);
    expect(refused.json?.error.code).toBe("live_rate_limited");
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json?.error.message).toBe(t.liveNewsroom.rateLimited(wait));
    const stored = await services.database.db.selectFrom("news_live_updates").select("text").where("news_id", "=", id).execute();
    expect(stored).toHaveLength(LIVE_LIMITS.postsPerMinute);
    expect(stored.map((row) => row.text)).not.toContain("Uma a mais");
    expect((await postUpdate(services, id, admin.cookie, { text: "Do administrador" })).status).toBe(201);
  });

  it("valida o texto como o corpo: texto simples ou documento, uma mídia no máximo, imagem da casa", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const refusals: Array<[unknown, number, string, string]> = [
      [{}, 400, "live_text_required", t.liveNewsroom.textRequired],
      [{ text: "   " }, 400, "live_text_required", t.liveNewsroom.textRequired],
      [{ text: "x".repeat(LIVE_LIMITS.updateText + 1) }, 400, "live_text_too_long", t.liveNewsroom.textTooLong(LIVE_LIMITS.updateText)],
      [{ text: 12 }, 400, "invalid_field_type", t.api.fieldType("text")],
      [{ text: "ok", keyEvent: "sim" }, 400, "invalid_field_type", t.liveNewsroom.flag("keyEvent")],
      [{ text: { type: "doc", content: [{ type: "script", text: "alert(1)" }] } }, 400, "live_text_invalid", t.liveNewsroom.textInvalid],
      [
        {
          text: {
            type: "doc",
            content: [
              { type: "paragraph", content: [{ type: "text", text: "Dois vídeos" }] },
              { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
              { type: "embed", attrs: { provider: "youtube", id: "aqz-KE-bpKQ" } },
            ],
          },
        },
        400,
        "live_media_too_many",
        t.liveNewsroom.tooManyMedia(LIVE_LIMITS.updateMediaBlocks),
      ],
      [
        {
          text: {
            type: "doc",
            content: [
              { type: "paragraph", content: [{ type: "text", text: "Foto" }] },
              { type: "image", attrs: { mediaId: "nao-existe", alt: "Torcida" } },
            ],
          },
        },
        400,
        "body_media_unknown",
        "",
      ],
    ];
    for (const [body, status, code, message] of refusals) {
      const refused = await postUpdate(services, id, editor.cookie, body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(refused.json?.error.code).toBe(code);
      if (message) expect(refused.json?.error.message).toBe(message);
      expect(refused.json?.error.fields?.text ?? refused.json?.error.fields?.keyEvent).toBeTruthy();
    }
    const withEmbed = await postUpdate(services, id, editor.cookie, {
      text: {
        type: "doc",
        content: [
          { type: "paragraph", content: [{ type: "text", text: "O gol, em vídeo", marks: [{ type: "bold" }] }] },
          { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
        ],
      },
      keyEvent: true,
    });
    expect(withEmbed.status).toBe(201);
    expect(withEmbed.json?.update).toMatchObject({ keyEvent: true, pinned: false, text: expect.stringContaining("O gol, em vídeo") });
    const off = await createNews(services, { media: null });
    const refused = await postUpdate(services, off, editor.cookie, { text: "Sem cobertura" });
    expect(refused.status).toBe(409);
    expect(refused.json?.error).toMatchObject({ code: "coverage_off", message: t.liveNewsroom.coverageOff });
    expect((await changeUpdate(services, id, "nao-existe", editor.cookie, "PATCH", { pinned: true })).json?.error.code).toBe("update_not_found");
    expect((await changeUpdate(services, id, withEmbed.json?.update.id, editor.cookie, "PATCH", {})).json?.error.code).toBe("empty_patch");
  });
});

describe("atualizações: edição com formatação", () => {
  /** An update as the editor's document: a bold word, an italic one and a link, with a video after them. */
  const formatted = (first: string) => ({
    type: "doc",
    content: [
      {
        type: "paragraph",
        content: [
          { type: "text", text: `${first} de ` },
          { type: "text", text: "Pedro", marks: [{ type: "bold" }] },
          { type: "text", text: " de cabeça, " },
          { type: "text", text: "no ângulo", marks: [{ type: "italic" }] },
          { type: "text", text: ". Veja o " },
          {
            type: "text",
            text: "lance",
            marks: [{ type: "bold" }, { type: "link", attrs: { href: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" } }],
          },
          { type: "text", text: "." },
        ],
      },
      { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
    ],
  });

  async function storedRow(services: TestServices, updateId: string) {
    return services.database.db
      .selectFrom("news_live_updates")
      .select(["body", "text", "key_event", "pinned", "updated_at"])
      .where("id", "=", updateId)
      .executeTakeFirstOrThrow();
  }

  it("PATCH com o documento troca uma palavra e mantém negrito, itálico, link e vídeo", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const posted = await postUpdate(services, id, editor.cookie, { text: formatted("Gol"), keyEvent: true });
    expect(posted.status).toBe(201);
    const updateId = posted.json?.update.id as string;
    expect(posted.json?.update.body).toEqual(formatted("Gol"));

    const edited = await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { text: formatted("Golaço") });
    expect(edited.status).toBe(200);
    expect(edited.json?.update).toMatchObject({ id: updateId, keyEvent: true, pinned: false, body: formatted("Golaço") });
    expect(edited.json?.update.text).toBe("Golaço de Pedro de cabeça, no ângulo. Veja o lance.\n\n" + "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    // What readers get next: the public answer and the stored row say the same.
    const read = await changeUpdate(services, id, updateId, null, "GET");
    expect(read.json?.update.body).toEqual(formatted("Golaço"));
    const row = await storedRow(services, updateId);
    expect(JSON.parse(row.body)).toEqual(formatted("Golaço"));
    expect(row.text).toBe(edited.json?.update.text);
  });

  it("um documento malformado no PATCH é recusado em português e nada muda", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const posted = await postUpdate(services, id, editor.cookie, { text: formatted("Gol") });
    const updateId = posted.json?.update.id as string;
    const before = await storedRow(services, updateId);
    const heard: SiteEvent[] = [];
    services.events.subscribe((event) => heard.push(event));
    const paragraph = (content: unknown[]) => ({ type: "doc", content: [{ type: "paragraph", content }] });
    const refusals: Array<[string, unknown, string, string]> = [
      ["nó desconhecido", { type: "doc", content: [{ type: "script", text: "alert(1)" }] }, "live_text_invalid", t.liveNewsroom.textInvalid],
      [
        "marca desconhecida",
        paragraph([{ type: "text", text: "Gol", marks: [{ type: "underline" }] }]),
        "live_text_invalid",
        t.liveNewsroom.textInvalid,
      ],
      [
        "marca repetida",
        paragraph([{ type: "text", text: "Gol", marks: [{ type: "bold" }, { type: "bold" }] }]),
        "live_text_invalid",
        t.liveNewsroom.textInvalid,
      ],
      ["raiz que não é doc", { type: "paragraph", content: [{ type: "text", text: "Gol" }] }, "live_text_invalid", t.liveNewsroom.textInvalid],
      ["conteúdo que não é lista", { type: "doc", content: "Gol" }, "live_text_invalid", t.liveNewsroom.textInvalid],
      [
        "campo a mais no nó",
        { type: "doc", content: [{ type: "paragraph", content: [], onclick: "x" }] },
        "live_text_invalid",
        t.liveNewsroom.textInvalid,
      ],
      [
        "link javascript:",
        paragraph([{ type: "text", text: "clique", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }]),
        "live_text_invalid",
        t.richText.invalidLink("javascript:alert(1)"),
      ],
      ["documento vazio", { type: "doc", content: [{ type: "paragraph" }] }, "live_text_required", t.liveNewsroom.textRequired],
      [
        "duas mídias",
        { ...formatted("Gol"), content: [...formatted("Gol").content, { type: "embed", attrs: { provider: "youtube", id: "aqz-KE-bpKQ" } }] },
        "live_media_too_many",
        t.liveNewsroom.tooManyMedia(LIVE_LIMITS.updateMediaBlocks),
      ],
      ["lista em vez de documento", [formatted("Gol")], "invalid_field_type", t.api.fieldType("text")],
    ];
    for (const [what, text, code, message] of refusals) {
      const refused = await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { text, pinned: true });
      expect(refused.status, what).toBe(400);
      expect(refused.json?.error, what).toMatchObject({ code, message, fields: { text: [message] } });
    }
    // Nothing changed: not the document, the text, the flag sent with it, nor the time; no event left.
    expect(await storedRow(services, updateId)).toEqual(before);
    expect(heard).toEqual([]);
    expect((await changeUpdate(services, id, updateId, null, "GET")).json?.update).toMatchObject({ body: formatted("Gol"), pinned: false });
  });
});

describe("atualizações: leitura pública", () => {
  it("pagina das mais novas para as mais antigas, fixadas à parte, lances importantes no resumo", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const total = LIVE_LIMITS.pageSize + 5;
    const ids: string[] = [];
    // Two members take turns: each stays under the per-member limit of posts a minute.
    const posters = [editor.cookie, (await memberSessionCookie(services, "admin")).cookie];
    for (let i = 0; i < total; i++) {
      const posted = await postUpdate(services, id, posters[i % 2]!, { text: `Minuto ${i}`, keyEvent: i % 10 === 0 });
      ids.push(posted.json?.update.id);
    }
    const pinned = await postUpdate(services, id, editor.cookie, { text: "Escalações confirmadas", pinned: true });

    const first = await getUpdates(services, id, null);
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toMatch(/public/);
    expect(first.json?.pinned.map((u: { text: string }) => u.text)).toEqual(["Escalações confirmadas"]);
    expect(first.json?.updates).toHaveLength(LIVE_LIMITS.pageSize);
    expect(first.json?.updates[0].text).toBe(`Minuto ${total - 1}`);
    expect(first.json?.keyEvents.map((k: { summary: string }) => k.summary)).toEqual(["Minuto 20", "Minuto 10", "Minuto 0"]);
    const second = await getUpdates(services, id, null, first.json?.nextCursor);
    expect(second.json?.updates.map((u: { text: string }) => u.text)).toEqual([4, 3, 2, 1, 0].map((n) => `Minuto ${n}`));
    expect(second.json?.nextCursor).toBeNull();
    expect(second.json?.pinned).toEqual([]);
    const seen = [...first.json.updates, ...second.json.updates].map((u: { id: string }) => u.id);
    expect(new Set(seen).size).toBe(total);
    expect(seen).not.toContain(pinned.json?.update.id);

    // Edited in place, deleted: the next read shows it.
    await changeUpdate(services, id, ids[total - 1]!, editor.cookie, "PATCH", { text: "Minuto final corrigido" });
    await changeUpdate(services, id, ids[total - 2]!, editor.cookie, "DELETE");
    const after = await getUpdates(services, id, null);
    expect(after.json?.updates.slice(0, 2).map((u: { text: string }) => u.text)).toEqual(["Minuto final corrigido", `Minuto ${total - 3}`]);
    expect((await changeUpdate(services, id, ids[0]!, null, "GET")).json?.update.text).toBe("Minuto 0");

    const bad = await getUpdates(services, id, null, "nao-e-cursor");
    expect(bad.status).toBe(400);
    expect(bad.json?.error.code).toBe("invalid_cursor");
  });

  it("as atualizações de um rascunho não existem para leitores (404); a redação as vê", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const posted = await postUpdate(services, id, editor.cookie, { text: "Antes de publicar" });
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", id).execute();
    const anonymous = await getUpdates(services, id, null);
    expect(anonymous.status).toBe(404);
    expect(anonymous.json?.error.code).toBe("news_not_found");
    expect((await changeUpdate(services, id, posted.json?.update.id, null, "GET")).status).toBe(404);
    const newsroom = await getUpdates(services, id, editor.cookie);
    expect(newsroom.status).toBe(200);
    expect(newsroom.headers.get("Cache-Control")).toBe("private, no-store");
    expect(newsroom.json?.updates.map((u: { text: string }) => u.text)).toEqual(["Antes de publicar"]);
  });
});

describe("minuto e lance de uma atualização", () => {
  const MINUTE_INVALID = t.liveNewsroom.minuteInvalid(LIVE_LIMITS.minuteMax, LIVE_LIMITS.addedTimeMax);

  async function storedMatch(services: TestServices, updateId: string) {
    return services.database.db
      .selectFrom("news_live_updates")
      .select(["minute", "added_time", "event_type", "key_event"])
      .where("id", "=", updateId)
      .executeTakeFirstOrThrow();
  }

  it("guarda o minuto (com acréscimos) e o lance; devolve como foi escrito; sem eles é uma atualização comum", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);

    const goal = await postUpdate(services, id, editor.cookie, { text: "GOL! Pedro de cabeça.", minute: "32", eventType: "goal" });
    expect(goal.status).toBe(201);
    expect(goal.json?.update).toMatchObject({ minute: "32", eventType: "goal", keyEvent: false });
    expect(await storedMatch(services, goal.json?.update.id)).toEqual({ minute: 32, added_time: null, event_type: "goal", key_event: 0 });

    const halfTime = await postUpdate(services, id, editor.cookie, { text: "Fim do primeiro tempo.", minute: "45 + 2'", eventType: "half_time" });
    expect(halfTime.json?.update).toMatchObject({ minute: "45+2", eventType: "half_time" });
    expect(await storedMatch(services, halfTime.json?.update.id)).toMatchObject({ minute: 45, added_time: 2, event_type: "half_time" });

    // A whole number is a minute too; a minute without an event and an event without a minute are fine.
    const card = await postUpdate(services, id, editor.cookie, { text: "Amarelo para o volante.", minute: 58 });
    expect(card.json?.update).toMatchObject({ minute: "58", eventType: null });
    const kickoff = await postUpdate(services, id, editor.cookie, { text: "Bola rolando.", eventType: "kickoff" });
    expect(kickoff.json?.update).toMatchObject({ minute: null, eventType: "kickoff" });

    // Nothing, null or "": an ordinary update, as before.
    for (const extra of [{}, { minute: null, eventType: null }, { minute: "", eventType: "" }]) {
      const plain = await postUpdate(services, id, editor.cookie, { text: "Torcida canta.", ...extra });
      expect(plain.status, JSON.stringify(extra)).toBe(201);
      expect(plain.json?.update).toMatchObject({ minute: null, eventType: null });
      expect(await storedMatch(services, plain.json?.update.id)).toEqual({ minute: null, added_time: null, event_type: null, key_event: 0 });
    }

    // Readers get them, on the page and one by one.
    const page = await getUpdates(services, id, null);
    expect(page.json?.updates.find((u: { id: string }) => u.id === halfTime.json?.update.id)).toMatchObject({
      minute: "45+2",
      eventType: "half_time",
    });
    expect((await changeUpdate(services, id, goal.json?.update.id, null, "GET")).json?.update).toMatchObject({ minute: "32", eventType: "goal" });
  });

  it("recusa minuto e lance inválidos com códigos estáveis e mensagens em português; nada é guardado", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const refusals: Array<[Record<string, unknown>, string, string, string]> = [
      [{ minute: "trinta" }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: "-1" }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: -1 }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: 32.5 }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: String(LIVE_LIMITS.minuteMax + 1) }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: `90+${LIVE_LIMITS.addedTimeMax + 1}` }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: "45+0" }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: true }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ minute: ["32"] }, "live_minute_invalid", "minute", MINUTE_INVALID],
      [{ eventType: "penalty" }, "live_event_invalid", "eventType", t.liveNewsroom.eventInvalid],
      [{ eventType: "Gol" }, "live_event_invalid", "eventType", t.liveNewsroom.eventInvalid],
      [{ eventType: 1 }, "live_event_invalid", "eventType", t.liveNewsroom.eventInvalid],
    ];
    for (const [extra, code, field, message] of refusals) {
      const refused = await postUpdate(services, id, editor.cookie, { text: "GOL!", ...extra });
      expect(refused.status, JSON.stringify(extra)).toBe(400);
      expect(refused.json?.error, JSON.stringify(extra)).toMatchObject({ code, message, fields: { [field]: [message] } });
    }
    const stored = await services.database.db.selectFrom("news_live_updates").select("id").where("news_id", "=", id).execute();
    expect(stored).toEqual([]);

    // The same rules on an edit: refused, and nothing of the update changes.
    const posted = await postUpdate(services, id, editor.cookie, { text: "GOL!", minute: "12", eventType: "goal" });
    const updateId = posted.json?.update.id as string;
    for (const [extra, code] of refusals) {
      const refused = await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { ...extra, pinned: true });
      expect(refused.status, JSON.stringify(extra)).toBe(400);
      expect(refused.json?.error.code).toBe(code);
    }
    expect(await storedMatch(services, updateId)).toEqual({ minute: 12, added_time: null, event_type: "goal", key_event: 0 });

    // The newsroom's plain form (no JavaScript): back to the page with the reason, nothing posted.
    const form = new FormData();
    for (const [name, value] of Object.entries({ intent: "post", text: "GOL!", minute: "99+99", back: "article" })) form.append(name, value);
    const request = new Request(`${ORIGIN}/api/news/${id}/live`, { method: "POST", headers: { cookie: editor.cookie }, body: form });
    const answer = await liveForm.action({ request, context: contextOf(services), params: { id } } as never);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/article/${id}?cobertura=live_minute_invalid#cobertura-ao-vivo`);
    expect((await getUpdates(services, id, null)).json?.updates).toHaveLength(1);
  });

  it("a edição muda o minuto e o lance, null os tira, e o que não vem fica como estava", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const posted = await postUpdate(services, id, editor.cookie, { text: "Cartão para o zagueiro.", minute: "40", eventType: "yellow_card" });
    const updateId = posted.json?.update.id as string;
    const heard: Array<[SiteEvent, SiteEventDetail]> = [];
    services.events.subscribe((event, detail) => heard.push([event, detail]));

    // Yellow was red, and it was in added time.
    const changed = await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { minute: "45+1", eventType: "red_card" });
    expect(changed.status).toBe(200);
    expect(changed.json?.update).toMatchObject({ minute: "45+1", eventType: "red_card", text: "Cartão para o zagueiro." });
    expect(await storedMatch(services, updateId)).toMatchObject({ minute: 45, added_time: 1, event_type: "red_card" });
    expect(heard).toEqual([
      [
        "liveUpdated",
        // The coverage as it is after it; the edited update itself is fetched by the open pages.
        {
          paths: expect.arrayContaining([`/api/news/${id}/updates`]),
          live: { newsId: id, updateId, change: "edited", coverage: expect.any(Object) },
        },
      ],
    ]);

    // Other fields alone leave them as they are.
    expect((await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { pinned: true })).json?.update).toMatchObject({
      minute: "45+1",
      eventType: "red_card",
      pinned: true,
    });
    expect((await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { text: "Vermelho direto." })).json?.update).toMatchObject({
      minute: "45+1",
      eventType: "red_card",
    });
    // null (or "") takes them off: an ordinary update again.
    expect((await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { eventType: null })).json?.update).toMatchObject({
      minute: "45+1",
      eventType: null,
    });
    expect((await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { minute: "" })).json?.update).toMatchObject({
      minute: null,
      eventType: null,
    });
    expect(await storedMatch(services, updateId)).toEqual({ minute: null, added_time: null, event_type: null, key_event: 0 });
    expect((await getUpdates(services, id, null)).json?.keyEvents).toEqual([]);
  });

  it("os lances importantes: as atualizações com lance ou marcadas, pelo minuto, o mais adiantado primeiro", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const admin = await memberSessionCookie(services, "admin");
    const id = await liveStory(services, editor.cookie);
    // Posted as a match is told, with the card at 32 written down only after half time.
    const posts: Array<[string, Record<string, unknown>]> = [
      ["Bola rolando no Maracanã.", { minute: "0", eventType: "kickoff" }],
      ["Escanteio para o Vasco.", { minute: "5" }],
      ["GOL DO FLAMENGO! Pedro de cabeça.", { minute: "12", eventType: "goal" }],
      ["Torcida faz a festa.", { keyEvent: true }],
      ["Intervalo no Maracanã.", { minute: "45+2", eventType: "half_time" }],
      ["Amarelo para o lateral do Vasco.", { minute: "32", eventType: "yellow_card" }],
      ["Substituição no Vasco: entra o camisa 9.", { minute: "46", eventType: "substitution" }],
      ["Expulso! Vermelho direto para o zagueiro.", { minute: "90+3", eventType: "red_card" }],
      ["Fim de jogo: Flamengo 1 x 0 Vasco.", { minute: "90+5", eventType: "full_time" }],
    ];
    const ids: Record<string, string> = {};
    for (const [i, [text, extra]] of posts.entries()) {
      // Two members take turns: the per-member limit of posts a minute stays out of the way.
      const posted = await postUpdate(services, id, i % 2 ? admin.cookie : editor.cookie, { text, ...extra });
      expect(posted.status, text).toBe(201);
      ids[text] = posted.json?.update.id;
    }
    const page = await getUpdates(services, id, null);
    const keyEvents = page.json?.keyEvents as Array<{
      id: string;
      summary: string;
      minute: string | null;
      eventType: string | null;
      createdAt: string;
    }>;
    // The corner has a minute but no event and no mark: not a key event.
    expect(keyEvents.map((event) => [event.minute, event.eventType, event.summary])).toEqual([
      ["90+5", "full_time", "Fim de jogo: Flamengo 1 x 0 Vasco."],
      ["90+3", "red_card", "Expulso! Vermelho direto para o zagueiro."],
      ["46", "substitution", "Substituição no Vasco: entra o camisa 9."],
      ["45+2", "half_time", "Intervalo no Maracanã."],
      ["32", "yellow_card", "Amarelo para o lateral do Vasco."],
      // Marked without a minute: where it was posted, after the goal at 12.
      [null, null, "Torcida faz a festa."],
      ["12", "goal", "GOL DO FLAMENGO! Pedro de cabeça."],
      ["0", "kickoff", "Bola rolando no Maracanã."],
    ]);
    expect(keyEvents.every((event) => event.id === ids[event.summary] && Date.parse(event.createdAt) > 0)).toBe(true);
    // The updates themselves stay newest first.
    expect(page.json?.updates[0]).toMatchObject({ text: "Fim de jogo: Flamengo 1 x 0 Vasco.", minute: "90+5", eventType: "full_time" });
  });

  it("quem pode: as mesmas regras de sempre, com minuto e lance", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const reporter = await memberSessionCookie(services, "reporter");
    const id = await liveStory(services, editor.cookie);
    const posted = await postUpdate(services, id, editor.cookie, { text: "GOL!", minute: "10", eventType: "goal" });
    const updateId = posted.json?.update.id as string;

    expect((await postUpdate(services, id, null, { text: "GOL!", minute: "11", eventType: "goal" })).status).toBe(401);
    const notYours = await postUpdate(services, id, reporter.cookie, { text: "GOL!", minute: "11", eventType: "goal" });
    expect(notYours.status).toBe(403);
    expect(notYours.json?.error).toMatchObject({ code: "story_not_yours", message: t.roles.notOwnStory });
    // Refused for who they are before what they sent is checked (an invalid minute changes nothing of that).
    expect((await postUpdate(services, id, reporter.cookie, { text: "GOL!", minute: "trinta" })).json?.error.code).toBe("story_not_yours");
    const notYoursEdit = await changeUpdate(services, id, updateId, reporter.cookie, "PATCH", { minute: "99", eventType: "red_card" });
    expect(notYoursEdit.json?.error.code).toBe("story_not_yours");
    expect(await storedMatch(services, updateId)).toMatchObject({ minute: 10, event_type: "goal" });

    // The reporter's own story: theirs to tell, minute and event included.
    await services.database.db.updateTable("news").set({ owner_id: reporter.userId }).where("id", "=", id).execute();
    const own = await postUpdate(services, id, reporter.cookie, { text: "Do repórter: pênalti!", minute: "77", eventType: "yellow_card" });
    expect(own.status).toBe(201);
    const edited = await changeUpdate(services, id, own.json?.update.id, reporter.cookie, "PATCH", { eventType: "red_card" });
    expect(edited.json?.update).toMatchObject({ minute: "77", eventType: "red_card" });
  });
});

describe("a migração 2026-11-28-971 (minuto e lance)", () => {
  it("acrescenta as colunas vazias: as atualizações de antes continuam comuns e a migração desfaz", async () => {
    const dataDir = makeDataDir("eef-live-match-");
    const postgres = TEST_DATABASE === "postgres" ? await createPostgresDatabase() : null;
    const handle = openDatabase({
      database: postgres ? { kind: "postgres", url: postgres.url, poolSize: 2 } : { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") },
    });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-28-971"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      const at = "2026-11-28T18:00:00.000Z";
      await db
        .insertInto("news")
        .values({
          id: "classico",
          title: "Clássico",
          subtitle: "",
          full_content: "",
          category: "Futebol",
          category_slug: "futebol",
          author: "Ana",
          author_slug: "ana",
          is_highlighted: 0,
          media_id: null,
          created_at: at,
          updated_at: at,
          status: "published",
          published_at: at,
          live_coverage: "live",
        })
        .execute();
      const body = JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Gol!" }] }] });
      await db
        .insertInto("news_live_updates")
        .values({ id: "antiga", news_id: "classico", body, text: "Gol!", key_event: 1, pinned: 0, author_id: null, created_at: at, updated_at: at })
        .execute();

      expect(await migrateToLatest(db)).toContain("2026-11-28-971-live-match-events");
      expect(await db.selectFrom("news_live_updates").selectAll().execute()).toEqual([
        {
          id: "antiga",
          news_id: "classico",
          body,
          text: "Gol!",
          key_event: 1,
          pinned: 0,
          author_id: null,
          created_at: at,
          updated_at: at,
          minute: null,
          added_time: null,
          event_type: null,
        },
      ]);
      // The new columns take what the application writes, on both databases.
      await db.updateTable("news_live_updates").set({ minute: 45, added_time: 2, event_type: "half_time" }).where("id", "=", "antiga").execute();
      expect(await db.selectFrom("news_live_updates").select(["minute", "added_time", "event_type"]).executeTakeFirst()).toEqual({
        minute: 45,
        added_time: 2,
        event_type: "half_time",
      });

      // Undone: the columns go, the update stays.
      await migrations["2026-11-28-971-live-match-events"]!.down!(db);
      expect(await db.selectFrom("news_live_updates").selectAll().execute()).toEqual([
        { id: "antiga", news_id: "classico", body, text: "Gol!", key_event: 1, pinned: 0, author_id: null, created_at: at, updated_at: at },
      ]);
    } finally {
      await handle.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("eventos", () => {
  it("uma atualização avisa só as páginas da notícia; começar a cobertura e mudar o placar mudam os cartões (newsUpdated)", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { title: "Clássico", media: null });
    const heard: Array<[SiteEvent, SiteEventDetail]> = [];
    services.events.subscribe((event, detail) => heard.push([event, detail]));
    await patchNews(services, id, editor.cookie, { coverage: "live" });
    expect(heard.map(([event]) => event)).toEqual(["newsUpdated"]);
    // The story's pages (its lists among them) and its coverage's.
    const cardPaths = heard[0]![1].paths;
    expect(cardPaths).toEqual(expect.arrayContaining([`/article/${id}`, `/api/news/${id}/updates`]));
    heard.length = 0;
    const posted = await postUpdate(services, id, editor.cookie, { text: "Gol" });
    const scoreboard = { home: "A", away: "B", homeScore: 1, awayScore: 0, period: "" };
    await patchNews(services, id, editor.cookie, { scoreboard });
    // The same score again: nothing a card shows changed, the article only.
    await patchNews(services, id, editor.cookie, { scoreboard });
    const livePaths = [`/article/${id}`, `/article/${id}/classico`, `/api/news/${id}/updates`, ...FEEDS];
    const scoreChange = [
      "liveUpdated",
      { paths: livePaths, live: { newsId: id, change: "scoreboard", coverage: expect.objectContaining({ state: "live", scoreboard }) } },
    ];
    expect(heard).toEqual([
      [
        "liveUpdated",
        {
          paths: livePaths,
          // The update whole, and the coverage after it: the open pages ask the server nothing.
          live: {
            newsId: id,
            updateId: posted.json?.update.id,
            change: "created",
            update: posted.json?.update,
            media: {},
            coverage: expect.objectContaining({ state: "live", updatedAt: posted.json?.update.createdAt }),
          },
        },
      ],
      // The cards' score; the story's own open pages take it from the liveUpdated that follows (liveStory).
      ["newsUpdated", { paths: cardPaths, liveStory: id }],
      scoreChange,
      scoreChange,
    ]);
  });

  it("uma atualização longa vai sem o conteúdo no evento (as páginas abertas a buscam), com a cobertura", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await liveStory(services, editor.cookie);
    const heard: SiteEventDetail[] = [];
    services.events.subscribe((event, detail) => event === "liveUpdated" && heard.push(detail));
    const long = await postUpdate(services, id, editor.cookie, { text: "Lance a lance. ".repeat(260).trim() });
    expect(long.status).toBe(201);
    const short = await postUpdate(services, id, editor.cookie, { text: "Gol!" });
    expect(heard.map((detail) => detail.live)).toEqual([
      { newsId: id, updateId: long.json?.update.id, change: "created", coverage: expect.objectContaining({ state: "live" }) },
      expect.objectContaining({ updateId: short.json?.update.id, update: short.json?.update }),
    ]);
    expect(Buffer.byteLength(JSON.stringify({ update: long.json?.update, media: {} }))).toBeGreaterThan(LIVE_EVENT_INLINE_BYTES);
  });

  it("os cartões mostram o placar enquanto a cobertura está no ar e depois de encerrada", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { title: "Clássico", media: null });
    const card = async () => (await services.news.listNewsPage({ limit: 50 })).items.find((item) => item.id === id)!;
    const scoreboard = { home: "Flamengo", away: "Palmeiras", homeScore: 2, awayScore: 1, period: "2º tempo" };
    // A scoreboard without coverage is not shown.
    await patchNews(services, id, editor.cookie, { scoreboard });
    expect((await card()).score).toBeUndefined();
    await patchNews(services, id, editor.cookie, { coverage: "live" });
    expect(await card()).toMatchObject({ live: true, score: { ...scoreboard, state: "live" } });
    await patchNews(services, id, editor.cookie, { coverage: "ended" });
    const ended = await card();
    expect(ended.live).toBeUndefined();
    expect(ended.score).toEqual({ ...scoreboard, state: "ended" });
  });
});

/**
 * A page's `/events` stream on `services`: the server's own hub (server/event-streams.ts) behind a plain HTTP server on
 * loopback, from `address`, signed in when `cookie` is given. What it has sent so far, and its end.
 */
async function openEventStream(services: AppServices, address: string, cookie?: string) {
  const hub = createSiteEventStreams(services, {
    hasSession: createSessionCookieCheck(resolveAuthSecret(services.config)),
    limits: { perAddress: 20, total: 100 },
  });
  const server = http.createServer((req, res) => hub.handle(req, res, address));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const abort = new AbortController();
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, {
    signal: abort.signal,
    ...(cookie ? { headers: { cookie } } : {}),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => undefined);
  return {
    text: () => text,
    /** How many `newsUpdated` events it sent. */
    newsUpdated: () => [...text.matchAll(/event: newsUpdated\n/g)].length,
    /** The `liveUpdated` events' data it sent, in order. */
    live: () => [...text.matchAll(/event: liveUpdated\ndata: (.*)\n/g)].map((match) => JSON.parse(match[1]!) as { newsId: string }),
    async close() {
      abort.abort();
      await reading;
      hub.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("o fluxo público /events", () => {
  it("salvar um rascunho avisa só as páginas da redação: a de um leitor não recarrega; publicar chega a todas", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const reader = await openEventStream(services, "10.3.0.1");
    const newsroom = await openEventStream(services, "10.3.0.2", editor.cookie);
    const heard: SiteEventDetail[] = [];
    services.events.subscribe((event, detail) => event === "newsUpdated" && heard.push(detail));
    try {
      const created = await services.newsEditor.createNews(
        newsInputSchema.parse({ title: "Rascunho do clássico", subtitle: "Ainda não", status: "draft" }),
        null,
        testsActor,
      );
      await services.newsEditor.patchNews(created.id, newsPatchSchema.parse({ title: "Rascunho do clássico (revisto)" }), null, testsActor);
      // The newsroom's page hears both saves; the reader's hears nothing; the events say they are the newsroom's.
      await expect.poll(() => newsroom.newsUpdated(), { timeout: 5000 }).toBe(2);
      expect(heard.map((detail) => detail.newsroomOnly)).toEqual([true, true]);
      expect(reader.newsUpdated()).toBe(0);
      // Published: everyone hears it.
      await services.newsEditor.patchNews(created.id, newsPatchSchema.parse({ status: "published" }), null, testsActor);
      await expect.poll(() => reader.newsUpdated(), { timeout: 5000 }).toBe(1);
      await expect.poll(() => newsroom.newsUpdated(), { timeout: 5000 }).toBe(3);
      expect(heard[2]?.newsroomOnly).toBeUndefined();
      // From the list's bulk actions: unpublishing is a takedown readers hear; deleting what is now a draft is not.
      expect(await services.newsEditor.bulkAction("unpublish", [created.id], testsActor)).toMatchObject({ changed: 1 });
      await expect.poll(() => reader.newsUpdated(), { timeout: 5000 }).toBe(2);
      expect(await services.newsEditor.bulkAction("delete", [created.id], testsActor)).toMatchObject({ changed: 1 });
      await expect.poll(() => newsroom.newsUpdated(), { timeout: 5000 }).toBe(5);
      expect(heard.map((detail) => detail.newsroomOnly)).toEqual([true, true, undefined, undefined, true]);
      expect(reader.newsUpdated()).toBe(2);
    } finally {
      await reader.close();
      await newsroom.close();
    }
  });

  it("não conta nada da cobertura de uma notícia não publicada (rascunho, agendada); a publicada chega com o que mudou", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const hidden = await liveStory(services, editor.cookie);
    const scheduled = await liveStory(services, editor.cookie);
    const published = await liveStory(services, editor.cookie);
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", hidden).execute();
    await services.database.db
      .updateTable("news")
      .set({ status: "scheduled", published_at: new Date(Date.now() + 86_400_000).toISOString() })
      .where("id", "=", scheduled)
      .execute();
    // A second instance on the same database hears the changes through PostgreSQL (LISTEN/NOTIFY).
    const url = services.config.database.kind === "postgres" ? services.config.database.url : null;
    const other = url ? await createTestServices(undefined, { DATABASE_URL: url, SITE_URL: ORIGIN }) : null;
    const heard: Array<[SiteEvent, SiteEventDetail]> = [];
    services.events.subscribe((event, detail) => event === "liveUpdated" && heard.push([event, detail]));
    const streams = [await openEventStream(services, "10.2.0.1"), ...(other ? [await openEventStream(other, "10.2.0.2")] : [])];
    const newsroom = await openEventStream(services, "10.2.0.3", editor.cookie);
    try {
      if (other) await (other.events as unknown as { listening(): Promise<void> }).listening();
      expect(TEST_DATABASE === "postgres").toBe(other !== null);

      // Every kind of live change on the unpublished stories: posted, edited, deleted, the scoreboard.
      for (const id of [hidden, scheduled]) {
        const posted = await postUpdate(services, id, editor.cookie, { text: "Escalação confirmada" });
        expect(posted.status).toBe(201);
        const updateId = posted.json?.update.id as string;
        expect((await changeUpdate(services, id, updateId, editor.cookie, "PATCH", { text: "Escalação corrigida" })).status).toBe(200);
        expect((await changeUpdate(services, id, updateId, editor.cookie, "DELETE")).status).toBe(204);
        const scoreboard = { home: "A", away: "B", homeScore: 0, awayScore: 0, period: "" };
        // A new score is shown on cards (a newsUpdated only the newsroom hears); the same one again, on the article only.
        expect((await patchNews(services, id, editor.cookie, { scoreboard })).status).toBe(200);
        expect((await patchNews(services, id, editor.cookie, { scoreboard })).status).toBe(200);
        // The badge on its cards: a newsUpdated only the newsroom hears.
        expect((await patchNews(services, id, editor.cookie, { coverage: "ended" })).status).toBe(200);
      }
      // Then one on the published story: once it arrived, everything sent before it has too (events keep their order).
      const marker = await postUpdate(services, published, editor.cookie, { text: "Começa o jogo" });
      for (const stream of streams) {
        await expect.poll(() => stream.live().map((live) => live.newsId), { timeout: 5000 }).toContain(published);
        expect(stream.live()).toEqual([
          {
            newsId: published,
            updateId: marker.json?.update.id,
            change: "created",
            update: marker.json?.update,
            media: {},
            coverage: expect.any(Object),
          },
        ]);
        expect(stream.text()).not.toContain(hidden);
        expect(stream.text()).not.toContain(scheduled);
        expect(stream.newsUpdated()).toBe(0);
      }
      // The changes are the newsroom's alone: its streams hear what changed (its previews follow the coverage).
      const paths = (id: string) => [`/article/${id}`, `/article/${id}/flamengo-x-vasco-ao-vivo`, `/api/news/${id}/updates`, ...FEEDS];
      expect(
        heard.filter(([, detail]) => detail.paths?.[0] === `/article/${hidden}`).map(([, detail]) => [detail.paths, detail.newsroomOnly]),
      ).toEqual(Array.from({ length: 5 }, () => [paths(hidden), true]));
      await expect.poll(() => newsroom.live().filter((live) => live.newsId === scheduled).length, { timeout: 5000 }).toBe(5);
      expect(newsroom.live().filter((live) => live.newsId === hidden)).toHaveLength(5);

      // Published, the story's next change reaches readers.
      await services.database.db.updateTable("news").set({ status: "published" }).where("id", "=", hidden).execute();
      const after = await postUpdate(services, hidden, editor.cookie, { text: "Agora é público" });
      for (const stream of streams) {
        await expect.poll(() => stream.live().map((live) => live.newsId), { timeout: 5000 }).toEqual([published, hidden]);
        expect(stream.live()[1]).toMatchObject({ newsId: hidden, updateId: after.json?.update.id, change: "created", update: after.json?.update });
      }
    } finally {
      for (const stream of [...streams, newsroom]) await stream.close();
      if (other) {
        await other.events.close();
        await other.database.close();
      }
    }
  });
});

describe("feeds e sitemaps", () => {
  it("uma atualização marca a notícia como alterada no RSS, no sitemap de artigos e no do Google News", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { title: "Decisão ao vivo", media: null, createdAt: new Date(Date.now() - 3_600_000) });
    const other = await createNews(services, { title: "Sem cobertura", media: null, createdAt: new Date(Date.now() - 7_200_000) });
    const syndication = createSyndication({
      db: services.database.db,
      store: services.store,
      site: { name: "Esporte em Foco", url: "https://esporte.example.com.br", description: "Notícias.", defaultAuthor: "Redação" },
    });
    const text = async (stream: AsyncIterable<unknown>) => {
      let out = "";
      for await (const chunk of stream) out += String(chunk);
      return out;
    };
    expect(await syndication.rss({ highlightedOnly: false })).not.toContain("dcterms:modified");

    await liveStoryFor(services, id, editor.cookie);
    const posted = await postUpdate(services, id, editor.cookie, { text: "Pênalti marcado" });
    const { live_updated_at: changed } = await services.database.db
      .selectFrom("news")
      .select("live_updated_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(changed).toBe(posted.json?.update.createdAt);
    // Kept in memory until the news change: what the update's event does on a running site (respond.server.ts).
    expect(await syndication.rss({ highlightedOnly: false })).not.toContain("dcterms:modified");
    syndication.invalidate();
    const rss = await syndication.rss({ highlightedOnly: false });
    const item = rss.split("<item>").find((each) => each.includes("Decisão ao vivo")) ?? "";
    expect(rss).toContain('xmlns:dcterms="http://purl.org/dc/terms/"');
    expect(item).toContain(`<dcterms:modified>${new Date(changed!).toISOString()}</dcterms:modified>`);
    expect(rss.split("<item>").find((each) => each.includes("Sem cobertura"))).not.toContain("dcterms:modified");
    const articles = await text((await syndication.sitemapArticles(1))!);
    expect(articles).toMatch(new RegExp(`${id}[^<]*</loc><lastmod>${changed!.slice(0, 19)}`));
    const news = await text(await syndication.sitemapNews());
    expect(news).toMatch(new RegExp(`${id}[^<]*</loc><lastmod>${changed!.slice(0, 19)}`));
    expect(news).not.toMatch(new RegExp(`${other}[^<]*</loc><lastmod>`));
  });
});

async function liveStoryFor(services: TestServices, id: string, cookie: string) {
  expect((await patchNews(services, id, cookie, { coverage: "live" })).status).toBe(200);
}

describe("Jogos de hoje", () => {
  it("a home e a seção listam as partidas publicadas com placar, ao vivo e encerradas; nada de rascunho, de cobertura sem placar nem de dois dias atrás", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const board = (home: string, away: string) => ({ home, away, homeScore: 1, awayScore: 0, period: "1º tempo" });
    const match = async (title: string, category: string, coverage: "live" | "ended" | null, scoreboard: ReturnType<typeof board> | null) => {
      const id = await createNews(services, { title, category, media: null });
      if (scoreboard) expect((await patchNews(services, id, editor.cookie, { scoreboard })).status).toBe(200);
      if (coverage) expect((await patchNews(services, id, editor.cookie, { coverage: "live" })).status).toBe(200);
      if (coverage === "ended") expect((await patchNews(services, id, editor.cookie, { coverage: "ended" })).status).toBe(200);
      return id;
    };
    const live = await match("Flamengo x Palmeiras", "Futebol", "live", board("Flamengo", "Palmeiras"));
    const ended = await match("Grêmio x Inter", "Futebol", "ended", board("Grêmio", "Inter"));
    const volei = await match("Minas x Praia", "Vôlei", "live", board("Minas", "Praia"));
    const draft = await match("Jogo em rascunho", "Futebol", "live", board("C", "D"));
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", draft).execute();
    await match("Cobertura sem placar", "Futebol", "live", null);
    const old = await match("Jogo de anteontem", "Futebol", "ended", board("E", "F"));
    await services.database.db
      .updateTable("news")
      .set({ live_started_at: new Date(Date.now() - 40 * 3_600_000).toISOString() })
      .where("id", "=", old)
      .execute();
    services.news.invalidate();

    const home = await services.news.getHome();
    expect(home.matches.map((each) => each.id).sort()).toEqual([live, ended, volei].sort());
    expect(home.matches.find((each) => each.id === live)).toMatchObject({
      title: "Flamengo x Palmeiras",
      score: { home: "Flamengo", away: "Palmeiras", homeScore: 1, awayScore: 0, state: "live" },
    });
    expect(home.matches.find((each) => each.id === ended)?.score.state).toBe("ended");
    expect((await services.news.sectionMatches("futebol")).map((each) => each.id).sort()).toEqual([live, ended].sort());
    expect((await services.news.sectionMatches("volei")).map((each) => each.id)).toEqual([volei]);

    // A goal reaches the home's strip: the change empties its memo (newsUpdated).
    expect((await patchNews(services, live, editor.cookie, { scoreboard: { ...board("Flamengo", "Palmeiras"), homeScore: 2 } })).status).toBe(200);
    expect((await services.news.getHome()).matches.find((each) => each.id === live)?.score.homeScore).toBe(2);
  });

  it("uma partida anunciada (times, início, competição) aparece como próxima e entra ao vivo sozinha no horário, uma vez", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { title: "Flamengo x Palmeiras: a partida de hoje", category: "Futebol", media: null });
    const kickoff = new Date(Date.now() + 2 * 3_600_000);
    kickoff.setUTCSeconds(0, 0);
    const announce = (announcement: unknown) => patchNews(services, id, editor.cookie, { announcement });

    // Refused, with the field and the reason, nothing stored: no teams yet, no time, a competition too long.
    const noTeams = await announce({ kickoffAt: kickoff.toISOString(), competition: "Brasileirão" });
    expect(noTeams.status).toBe(400);
    expect(noTeams.json?.error).toMatchObject({
      code: "announcement_needs_teams",
      fields: { announcement: [t.liveNewsroom.announcementNeedsTeams] },
    });
    const scoreboard = { home: "Flamengo", away: "Palmeiras", homeScore: 0, awayScore: 0, period: "" };
    expect((await patchNews(services, id, editor.cookie, { scoreboard })).status).toBe(200);
    for (const [body, field] of [
      [{ kickoffAt: "amanhã cedo" }, "announcement.kickoffAt"],
      [{ kickoffAt: "2026-02-31T16:00" }, "announcement.kickoffAt"],
      [{ kickoffAt: kickoff.toISOString(), competition: "x".repeat(LIVE_LIMITS.competition + 1) }, "announcement.competition"],
      ["16:00", "announcement"],
    ] as const) {
      const refused = await announce(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(refused.json?.error.fields ?? {})).toEqual([field]);
    }
    expect(
      await services.database.db.selectFrom("news").select(["live_kickoff_at", "live_competition"]).where("id", "=", id).executeTakeFirstOrThrow(),
    ).toEqual({ live_kickoff_at: null, live_competition: null });

    // Announced (a time on the site's clock is read on it): on the strip as the next match.
    const heard: SiteEvent[] = [];
    services.events.subscribe((event) => heard.push(event));
    expect((await announce({ kickoffAt: kickoff.toISOString(), competition: " Brasileirão " })).status).toBe(200);
    expect(heard).toEqual(["newsUpdated"]);
    const next = (await services.news.getHome()).matches.find((each) => each.id === id);
    expect(next).toMatchObject({ startedAt: kickoff.toISOString(), competition: "Brasileirão", score: { state: "next", home: "Flamengo" } });
    expect((await services.news.sectionMatches("futebol")).map((each) => each.id)).toEqual([id]);

    // Before the kickoff nothing starts; at it, the coverage is live from the kickoff, once.
    const at = (date: Date) => startNewsScheduler({ db: services.database.db, events: services.events, log: services.log, clock: () => date });
    const early = at(new Date(kickoff.getTime() - 60_000));
    expect(await early.startDueMatches()).toEqual([]);
    early.stop();
    const onTime = at(new Date(kickoff.getTime() + 1000));
    const started = await onTime.startDueMatches();
    const again = await onTime.startDueMatches();
    onTime.stop();
    // (The scheduler's own first look may have started it already: either way, once.)
    expect([...started, ...again].length).toBeLessThanOrEqual(1);
    expect(again).toEqual([]);
    const row = await services.database.db
      .selectFrom("news")
      .select(["live_coverage", "live_started_at", "live_kickoff_at", "live_competition"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ live_coverage: "live", live_started_at: kickoff.toISOString(), live_kickoff_at: null, live_competition: "Brasileirão" });
    expect((await services.news.getHome()).matches.find((each) => each.id === id)?.score.state).toBe("live");

    // Turned off afterwards, it stays off (nothing left to start).
    expect((await patchNews(services, id, editor.cookie, { coverage: null })).status).toBe(200);
    const later = at(new Date(kickoff.getTime() + 3_600_000));
    expect(await later.startDueMatches()).toEqual([]);
    later.stop();
  });

  it("um rascunho anunciado não entra ao vivo nem aparece na faixa", async () => {
    const services = await open();
    const editor = await memberSessionCookie(services, "editor");
    const id = await createNews(services, { title: "Jogo ainda em rascunho", media: null });
    const scoreboard = { home: "A", away: "B", homeScore: 0, awayScore: 0, period: "" };
    expect((await patchNews(services, id, editor.cookie, { scoreboard })).status).toBe(200);
    const kickoff = new Date(Date.now() + 60_000).toISOString();
    expect((await patchNews(services, id, editor.cookie, { announcement: { kickoffAt: kickoff } })).status).toBe(200);
    await services.database.db.updateTable("news").set({ status: "draft" }).where("id", "=", id).execute();
    services.news.invalidate();
    expect((await services.news.getHome()).matches).toEqual([]);
    const scheduler = startNewsScheduler({
      db: services.database.db,
      events: services.events,
      log: services.log,
      clock: () => new Date(Date.now() + 120_000),
    });
    expect(await scheduler.startDueMatches()).toEqual([]);
    scheduler.stop();
    expect(
      (await services.database.db.selectFrom("news").select("live_coverage").where("id", "=", id).executeTakeFirstOrThrow()).live_coverage,
    ).toBeNull();
  });
});
