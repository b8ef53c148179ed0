import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/.server/db/database.server.ts";
import { migrateToLatest } from "#app/.server/db/migrate.server.ts";
import { listReviewEvents } from "#app/.server/news/publishing/news-review.server.ts";
import { listNewsVersions } from "#app/.server/news/editor/news-revisions.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { DEFAULT_NEWSROOM_QUERY } from "#app/lib/newsroom-query.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import type { Role } from "#app/lib/roles.ts";
import { migrations } from "#migrations/index.ts";
import { createMember } from "#tests/factories/auth.ts";
import { createPostgresDatabase, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

/**
 * Reporters fix their own stories (issue 33): a correction of their own published story goes live at once, is kept
 * in the history with their name, and every editor and admin gets an e-mail; someone else's story stays refused. The
 * "publica sem revisão" right lets a reporter publish and schedule their own stories; without it they never do. A
 * reporter never highlights nor signs as someone else, and an editor's approval never carries such a choice from the
 * reporter's save. Real services (the mails are .eml files in DATA_DIR/outbox), both databases.
 */
const SITE = "http://127.0.0.1:4321";
const open = useTestServices("eef-reporter-fix-", { SITE_URL: SITE });

const input = (fields: Record<string, unknown>) =>
  newsInputSchema.parse({ title: "Flamengo vence o clássico", subtitle: "Subtítulo", fullContent: "Texto", category: "Futebol", ...fields });
const patch = (fields: Record<string, unknown>) => newsPatchSchema.parse(fields);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function member(services: TestServices, role: Role, name: string) {
  const account = await createMember(services, role, { name });
  return { kind: "member" as const, userId: account.id, role, email: account.email };
}

async function team(services: TestServices) {
  return {
    reporter: await member(services, "reporter", "Rita Repórter"),
    colleague: await member(services, "reporter", "Caio Repórter"),
    editor: await member(services, "editor", "Ana Editora"),
    admin: await member(services, "admin", "Beto Admin"),
  };
}

/** Every mail written so far (after the queued ones are out), as recipient, subject and text. */
async function mails(services: TestServices) {
  await services.reviewMail.idle();
  await services.mailer.idle();
  const dir = path.join(services.dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .sort();
  const parsed = await Promise.all(files.map((file) => simpleParser(fs.readFileSync(path.join(dir, file)))));
  return parsed.map((mail) => ({
    to: mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined,
    subject: mail.subject ?? "",
    text: mail.text ?? "",
  }));
}

async function clearOutbox(services: TestServices) {
  await mails(services);
  fs.rmSync(path.join(services.dataDir, "outbox"), { recursive: true, force: true });
}

const rowOf = (services: TestServices, id: string) =>
  services.database.db
    .selectFrom("news")
    .select(["status", "version", "title", "author", "author_user_id", "is_highlighted", "published_at", "updated_by"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

async function refused(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toMatchObject({ status: 403, code });
}

describe("o repórter corrige as próprias notícias", () => {
  it("a correção da notícia publicada vai ao ar, fica no histórico com o nome dele e cada editor recebe um e-mail", async () => {
    const services = await open();
    const { reporter, editor, admin } = await team(services);
    const { newsEditor } = services;
    const story = await newsEditor.createNews(input({ title: "Flamengo vense o clássico", status: "review" }), null, reporter);
    await newsEditor.patchNews(story.id, patch({ status: "published" }), null, editor);
    const before = await rowOf(services, story.id);
    await clearOutbox(services);

    // The form's save (PUT): the typo fixed; the story stays live with its publication date.
    const saved = await newsEditor.updateNews(story.id, input({ title: "Flamengo vence o clássico", version: before.version }), null, reporter);
    expect(saved).toMatchObject({ status: "published", version: before.version + 1 });
    const after = await rowOf(services, story.id);
    expect(after).toMatchObject({ status: "published", title: "Flamengo vence o clássico", published_at: before.published_at });
    expect(after.updated_by).toBe(reporter.userId);
    expect((await services.news.getNews(story.id)).title).toBe("Flamengo vence o clássico");

    // The history: the version replaced is a revision, the new one saved by the reporter, with the correction step.
    const versions = (await listNewsVersions(services.database.db, story.id))!;
    expect(versions[0]).toMatchObject({ version: before.version + 1, title: "Flamengo vence o clássico", savedBy: "Rita Repórter" });
    expect(versions[1]).toMatchObject({ version: before.version, title: "Flamengo vense o clássico", status: "published" });
    const steps = await listReviewEvents(services.database.db, story.id);
    expect(steps.at(-1)).toMatchObject({ kind: "corrected", by: "Rita Repórter", version: before.version + 1 });

    // Every editor and admin is told (the reporter is not), with the story and its history.
    const sent = await mails(services);
    expect(sent.map((mail) => mail.to).sort()).toEqual([editor.email, admin.email].sort());
    for (const mail of sent) {
      expect(mail.subject).toBe(t.review.mail.correctedSubject("Esporte em Foco", "Flamengo vence o clássico"));
      expect(mail.text).toContain("Rita Repórter corrigiu uma notícia");
      expect(mail.text).toContain(`${SITE}/article/${story.id}`);
      expect(mail.text).toContain(`${SITE}/edit-news/${story.id}/historico`);
    }

    // The newsroom list marks it until someone saves it again.
    const listed = async () =>
      (await services.newsroom.page({ ...DEFAULT_NEWSROOM_QUERY }, 50)).rows.find((row) => row.id === story.id)?.correctedByReporter;
    expect(await listed()).toBe(true);

    // A PATCH too; a second correction within CORRECTION_MAIL_QUIET_MS is in the history but mails nobody again.
    expect(await newsEditor.patchNews(story.id, patch({ subtitle: "Subtítulo corrigido" }), null, reporter)).toMatchObject({ status: "published" });
    expect((await listReviewEvents(services.database.db, story.id)).filter((step) => step.kind === "corrected")).toHaveLength(2);
    expect(await mails(services)).toHaveLength(2);
    expect(await listed()).toBe(true);
    await newsEditor.patchNews(story.id, patch({ isHighlighted: true }), null, editor);
    expect(await listed()).toBe(false);
    // A scheduled story of theirs keeps its time.
    const scheduled = await newsEditor.createNews(input({ status: "review" }), null, reporter);
    const at = inAnHour();
    await newsEditor.patchNews(scheduled.id, patch({ status: "scheduled", publishAt: at }), null, editor);
    expect(await newsEditor.patchNews(scheduled.id, patch({ title: "Agendada corrigida" }), null, reporter)).toMatchObject({ status: "scheduled" });
    expect(await rowOf(services, scheduled.id)).toMatchObject({ status: "scheduled", title: "Agendada corrigida", published_at: at });
  });

  it("nunca a notícia de outra pessoa (403), nem despublica, agenda, exclui ou publica sem o direito", async () => {
    const services = await open();
    const { reporter, colleague, editor } = await team(services);
    const { newsEditor } = services;
    const theirs = await newsEditor.createNews(input({ status: "review" }), null, colleague);
    await newsEditor.patchNews(theirs.id, patch({ status: "published" }), null, editor);
    const editors = await newsEditor.createNews(input({ title: "Do editor" }), null, editor);
    for (const id of [theirs.id, editors.id]) {
      await refused(newsEditor.patchNews(id, patch({ title: "Invadida" }), null, reporter), "story_not_yours");
      await refused(newsEditor.updateNews(id, input({ title: "Invadida" }), null, reporter), "story_not_yours");
      await refused(newsEditor.requireMayEdit(id, reporter), "story_not_yours");
      expect((await rowOf(services, id)).title).not.toBe("Invadida");
    }

    // Without the right: no publishing, scheduling or unpublishing, of a new story or of their own.
    await refused(newsEditor.createNews(input({ status: "published" }), null, reporter), "publish_forbidden");
    await refused(newsEditor.createNews(input({ status: "scheduled", publishAt: inAnHour() }), null, reporter), "publish_forbidden");
    const draft = await newsEditor.createNews(input({ status: "draft" }), null, reporter);
    await refused(newsEditor.patchNews(draft.id, patch({ status: "published" }), null, reporter), "publish_forbidden");
    await refused(newsEditor.patchNews(draft.id, patch({ status: "scheduled", publishAt: inAnHour() }), null, reporter), "publish_forbidden");
    const mine = await newsEditor.createNews(input({ status: "review" }), null, reporter);
    await newsEditor.patchNews(mine.id, patch({ status: "scheduled", publishAt: inAnHour() }), null, editor);
    // A new time is a new schedule: refused (the same minute, as the form sends it back, is the same schedule);
    // unpublishing too.
    await refused(
      newsEditor.patchNews(mine.id, patch({ status: "scheduled", publishAt: new Date(Date.now() + 7_200_000).toISOString() }), null, reporter),
      "publish_forbidden",
    );
    const kept = (await rowOf(services, mine.id)).published_at;
    expect(
      await newsEditor.patchNews(
        mine.id,
        patch({ status: "scheduled", publishAt: kept.replace(/:\d\d\.\d+Z$/, ":59.000Z"), title: "Mesmo horário" }),
        null,
        reporter,
      ),
    ).toMatchObject({ status: "scheduled" });
    expect(await rowOf(services, mine.id)).toMatchObject({ status: "scheduled", title: "Mesmo horário" });
    await newsEditor.patchNews(mine.id, patch({ status: "published" }), null, editor);
    await refused(newsEditor.patchNews(mine.id, patch({ unpublish: true }), null, reporter), "publish_forbidden");
    await refused(newsEditor.updateNews(mine.id, input({ unpublish: true }), null, reporter), "publish_forbidden");
    await refused(newsEditor.deleteNews(mine.id, reporter), "delete_forbidden");
    expect((await rowOf(services, draft.id)).status).toBe("draft");
    expect((await rowOf(services, mine.id)).status).toBe("published");
  });

  it("nunca destaca nem assina por outro; o destaque e o autor que o editor deu continuam", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const { newsEditor } = services;
    // A new story: not highlighted, signed by the reporter, whatever was sent.
    const story = await newsEditor.createNews(input({ status: "draft", isHighlighted: true, author: "Ana Editora" }), null, reporter);
    expect(await rowOf(services, story.id)).toMatchObject({ is_highlighted: 0, author: "Rita Repórter", author_user_id: reporter.userId });
    // Their own save: the highlight and another author are not taken.
    await newsEditor.patchNews(story.id, patch({ isHighlighted: true, author: "Ana Editora", title: "Revista" }), null, reporter);
    await newsEditor.updateNews(
      story.id,
      input({ isHighlighted: true, author: "Agência Qualquer", title: "Revista de novo", status: "draft" }),
      null,
      reporter,
    );
    expect(await rowOf(services, story.id)).toMatchObject({ is_highlighted: 0, author: "Rita Repórter", title: "Revista de novo" });

    // The editor highlights and co-signs it; the reporter's correction (the form sends no highlight) keeps both.
    await newsEditor.patchNews(story.id, patch({ status: "published", isHighlighted: true, author: "Redação Esporte em Foco" }), null, editor);
    await newsEditor.updateNews(story.id, input({ title: "Corrigida pelo repórter" }), null, reporter);
    await newsEditor.patchNews(story.id, patch({ isHighlighted: false, author: "Ana Editora" }), null, reporter);
    expect(await rowOf(services, story.id)).toMatchObject({
      status: "published",
      is_highlighted: 1,
      author: "Redação Esporte em Foco",
      title: "Corrigida pelo repórter",
    });
    // Signing as themself stays theirs to choose.
    await newsEditor.patchNews(story.id, patch({ author: "rita reporter" }), null, reporter);
    expect(await rowOf(services, story.id)).toMatchObject({ author: "Rita Repórter", author_user_id: reporter.userId, is_highlighted: 1 });
  });

  it("o editor que aprova não leva o destaque forjado no último salvamento do repórter", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const { newsEditor } = services;
    const story = await newsEditor.createNews(input({ status: "draft" }), null, reporter);
    // The last save before review, with a highlight and another author forged in (the API, not the form).
    await newsEditor.updateNews(story.id, input({ status: "review", isHighlighted: true, author: "Ana Editora", version: 1 }), null, reporter);
    await newsEditor.patchNews(story.id, patch({ isHighlighted: "true" }), null, reporter);
    // The editor publishes it from review: the form as loaded (the story's own values), and the plain PATCH.
    const loaded = await services.news.getNews(story.id, { includeUnpublished: true });
    expect(loaded).toMatchObject({ status: "review", isHighlighted: false, author: "Rita Repórter" });
    await newsEditor.updateNews(
      story.id,
      input({ title: loaded.title, author: loaded.author, isHighlighted: loaded.isHighlighted, status: "published", version: loaded.version }),
      null,
      editor,
    );
    expect(await rowOf(services, story.id)).toMatchObject({ status: "published", is_highlighted: 0, author: "Rita Repórter" });
    expect((await listReviewEvents(services.database.db, story.id)).map((step) => step.kind)).toEqual(["submitted", "approved"]);

    const second = await newsEditor.createNews(input({ status: "review", isHighlighted: true }), null, reporter);
    await newsEditor.patchNews(second.id, patch({ status: "published" }), null, editor);
    expect(await rowOf(services, second.id)).toMatchObject({ status: "published", is_highlighted: 0 });
  });
});

describe("o direito “publica sem revisão”", () => {
  it("dado em /equipe, o repórter publica e agenda as próprias notícias (os editores são avisados); retirado, volta à revisão", async () => {
    const services = await open();
    const { reporter, colleague, editor, admin } = await team(services);
    const { newsEditor } = services;
    const by = { userId: admin.userId, email: admin.email };
    expect((await services.team.members()).find((m) => m.userId === reporter.userId)?.publishesWithoutReview).toBe(false);

    expect(await services.team.setPublishesWithoutReview(by, reporter.userId, true)).toEqual({ ok: true, message: t.team.publishesOn });
    expect(await services.team.setPublishesWithoutReview(by, reporter.userId, true)).toEqual({ ok: true, message: t.team.publishesAlreadyOn });
    expect(await services.team.setPublishesWithoutReview(by, "ninguem", true)).toMatchObject({ ok: false, status: 404 });
    expect((await services.team.members()).find((m) => m.userId === reporter.userId)?.publishesWithoutReview).toBe(true);
    expect((await services.team.changes()).map((change) => change.action)).toContain("publishes_on");
    await clearOutbox(services);

    // Published directly, on creation and from their own draft; scheduled; each with an e-mail to the editors.
    const direct = await newsEditor.createNews(input({ title: "Gol no fim", isHighlighted: true }), null, reporter);
    expect(direct.status).toBe("published");
    expect(await rowOf(services, direct.id)).toMatchObject({ status: "published", is_highlighted: 0, author: "Rita Repórter" });
    expect((await listReviewEvents(services.database.db, direct.id)).map((step) => [step.kind, step.by])).toEqual([
      ["published_directly", "Rita Repórter"],
    ]);
    const draft = await newsEditor.createNews(input({ title: "Rascunho dela", status: "draft" }), null, reporter);
    expect((await newsEditor.patchNews(draft.id, patch({ status: "published" }), null, reporter)).status).toBe("published");
    const later = await newsEditor.createNews(input({ title: "Agendada dela", status: "scheduled", publishAt: inAnHour() }), null, reporter);
    expect(later.status).toBe("scheduled");
    const sent = await mails(services);
    expect(sent.filter((mail) => mail.to === editor.email).map((mail) => mail.subject)).toEqual(
      expect.arrayContaining([
        t.review.mail.directPublishedSubject("Esporte em Foco", "Gol no fim"),
        t.review.mail.directPublishedSubject("Esporte em Foco", "Rascunho dela"),
        t.review.mail.directScheduledSubject("Esporte em Foco", "Agendada dela"),
      ]),
    );
    expect(sent.some((mail) => mail.to === reporter.email)).toBe(false);

    // Never someone else's story, and the right is the reporter's alone.
    const theirs = await newsEditor.createNews(input({ status: "draft" }), null, colleague);
    await refused(newsEditor.patchNews(theirs.id, patch({ status: "published" }), null, reporter), "story_not_yours");
    await refused(newsEditor.createNews(input({ status: "published" }), null, colleague), "publish_forbidden");

    // Taken back: valid on the next save.
    expect(await services.team.setPublishesWithoutReview(by, reporter.userId, false)).toEqual({ ok: true, message: t.team.publishesOff });
    await refused(newsEditor.createNews(input({ status: "published" }), null, reporter), "publish_forbidden");
  });

  it("a migração (2026-11-28-901) deixa o direito desligado para todas as contas que existiam", async () => {
    const dataDir = makeDataDir("eef-publishes-migration-");
    const postgres = TEST_DATABASE === "postgres" ? await createPostgresDatabase() : null;
    const handle = openDatabase({
      database: postgres ? { kind: "postgres", url: postgres.url, poolSize: 2 } : { kind: "sqlite", file: path.join(dataDir, "banco.sqlite") },
    });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the schema before this migration, as migrations see it (Kysely<any>).
      const db = handle.db as Kysely<any>;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "2026-11-28-901"));
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      expect(error).toBeUndefined();
      const at = "2026-01-01T00:00:00.000Z";
      for (const [id, role] of [
        ["reporter-antigo", "reporter"],
        ["editor-antigo", "editor"],
        ["admin-antigo", "admin"],
      ])
        await db.insertInto("admins").values({ user_id: id, role, created_at: at }).execute();
      expect(await migrateToLatest(db)).toContain("2026-11-28-901-publishes-without-review");
      const rows = await db.selectFrom("admins").select(["user_id", "role", "publishes_without_review"]).orderBy("user_id").execute();
      expect(rows.map((row) => [row.user_id, row.role, Number(row.publishes_without_review)])).toEqual([
        ["admin-antigo", "admin", 0],
        ["editor-antigo", "editor", 0],
        ["reporter-antigo", "reporter", 0],
      ]);
      // A member added later, without saying: off too.
      await db.insertInto("admins").values({ user_id: "reporter-novo", role: "reporter", created_at: at }).execute();
      const added = await db.selectFrom("admins").select("publishes_without_review").where("user_id", "=", "reporter-novo").executeTakeFirstOrThrow();
      expect(Number(added.publishes_without_review)).toBe(0);
    } finally {
      await handle.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
