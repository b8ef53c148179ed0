import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import pino from "pino";
import type { Logger } from "#app/.server/logger.server.ts";
import { describe, expect, it } from "vitest";
import { t } from "#app/i18n/newsroom.ts";
import { REVIEW_NOTE_MAX } from "#app/lib/limits.ts";
import { newsInputSchema, newsPatchSchema } from "#app/lib/news-schema.ts";
import type { Role } from "#app/lib/roles.ts";
import { listNewsVersions } from "#app/.server/news/editor/news-revisions.server.ts";
import { listReviewEvents, pendingReturn } from "#app/.server/news/publishing/news-review.server.ts";
import { createMember } from "#tests/factories/auth.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { eraseNews } from "#tests/factories/news.ts";

/**
 * The review queue: a story sent for review mails every editor and admin; publishing, scheduling or returning it mails
 * its reporter; returning needs a note, an editor, and a story in review; the history keeps each step. Real services
 * (SMTP_URL unset: the mails are .eml files in DATA_DIR/outbox), both databases.
 */
const SITE = "http://127.0.0.1:4321";
const open = useTestServices("eef-review-", { SITE_URL: SITE });

const input = (fields: Record<string, unknown>) =>
  newsInputSchema.parse({ title: "Final do estadual", subtitle: "Subtítulo", fullContent: "Texto", category: "Futebol", ...fields });
const patch = (fields: Record<string, unknown>) => newsPatchSchema.parse(fields);

async function member(services: TestServices, role: Role, name: string) {
  const account = await createMember(services, role, { name });
  return { kind: "member" as const, userId: account.id, role, email: account.email };
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

/** Empties the outbox, once the mails already asked for are written. */
async function clearOutbox(services: TestServices) {
  await mails(services);
  fs.rmSync(path.join(services.dataDir, "outbox"), { recursive: true, force: true });
}

async function team(services: TestServices) {
  return {
    reporter: await member(services, "reporter", "Rita Repórter"),
    editor: await member(services, "editor", "Ana Editora"),
    admin: await member(services, "admin", "Beto Admin"),
  };
}

describe("e-mails da fila de revisão", () => {
  it("enviar para revisão avisa cada editor e administrador (título, autor, link de edição), não o repórter", async () => {
    const services = await open();
    const { reporter, editor, admin } = await team(services);
    const draft = await services.newsEditor.createNews(input({ status: "draft" }), null, reporter);
    expect(await mails(services)).toEqual([]);

    await services.newsEditor.patchNews(draft.id, patch({ status: "review" }), null, reporter);
    const sent = await mails(services);
    expect(sent.map((mail) => mail.to).sort()).toEqual([editor.email, admin.email].sort());
    for (const mail of sent) {
      expect(mail.subject).toBe(t.review.mail.submittedSubject("Esporte em Foco", "Final do estadual"));
      expect(mail.text).toContain("Rita Repórter enviou uma notícia para revisão");
      expect(mail.text).toContain("Final do estadual");
      expect(mail.text).toContain(`${SITE}/edit-news/${draft.id}`);
    }
    // Saving it again while in review sends nothing more.
    await services.newsEditor.patchNews(draft.id, patch({ title: "Final do estadual" }), null, reporter);
    expect(await mails(services)).toHaveLength(2);
  });

  it("uma notícia criada direto em revisão também avisa", async () => {
    const services = await open();
    const { reporter, editor, admin } = await team(services);
    await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    expect((await mails(services)).map((mail) => mail.to).sort()).toEqual([editor.email, admin.email].sort());
  });

  it("publicar uma notícia em revisão avisa o dono; agendar também; publicar em lote também", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const story = await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    await clearOutbox(services);
    await services.newsEditor.patchNews(story.id, patch({ status: "published" }), null, editor);
    expect(await mails(services)).toEqual([
      {
        to: reporter.email,
        subject: t.review.mail.publishedSubject("Esporte em Foco", "Final do estadual"),
        text: expect.stringContaining(`Ana Editora aprovou e publicou a sua notícia`),
      },
    ]);
    expect((await mails(services))[0]!.text).toContain(`${SITE}/article/${story.id}`);

    const scheduled = await services.newsEditor.createNews(input({ title: "Clássico de domingo", status: "review" }), null, reporter);
    await clearOutbox(services);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    await services.newsEditor.patchNews(scheduled.id, patch({ status: "scheduled", publishAt: at }), null, editor);
    const [mail, ...rest] = await mails(services);
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ to: reporter.email, subject: t.review.mail.scheduledSubject("Esporte em Foco", "Clássico de domingo") });
    expect(mail!.text).toContain("Ana Editora aprovou a sua notícia e a agendou para");

    const bulk = await services.newsEditor.createNews(input({ title: "Rodada da Copa", status: "review" }), null, reporter);
    await clearOutbox(services);
    await services.newsEditor.bulkAction("publish", [bulk.id], editor);
    expect((await mails(services)).map((sent) => [sent.to, sent.subject])).toEqual([
      [reporter.email, t.review.mail.publishedSubject("Esporte em Foco", "Rodada da Copa")],
    ]);
  });

  it("publicar uma notícia que não estava em revisão não manda e-mail", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const draft = await services.newsEditor.createNews(input({ status: "draft" }), null, reporter);
    await services.newsEditor.patchNews(draft.id, patch({ status: "published" }), null, editor);
    expect(await mails(services)).toEqual([]);
  });

  it("uma falha do servidor de e-mail fica no log e nunca falha o salvamento", async () => {
    const lines: string[] = [];
    const log = pino({ level: "error" }, { write: (line: string) => lines.push(line) }) as unknown as Logger;
    // Nothing listens on port 1: every send fails.
    const services = await open({ SMTP_URL: "smtp://127.0.0.1:1" }, { log });
    const { reporter } = await team(services);
    const saved = await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    expect(saved.status).toBe("review");
    await services.reviewMail.idle();
    await services.mailer.idle();
    expect(lines.join("\n")).toContain("review mail could not be sent");
    expect((await services.news.getNews(saved.id, { includeUnpublished: true })).status).toBe("review");
  });
});

describe("Devolver ao repórter", () => {
  it("volta a rascunho com a nota, avisa o dono por e-mail, e a nota fica até o novo envio", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const story = await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    await clearOutbox(services);

    const returned = await services.newsEditor.returnToReporter(story.id, "  Falta ouvir o técnico.  ", editor, 1);
    expect(returned).toMatchObject({ status: "draft", version: 2 });
    const row = await services.database.db
      .selectFrom("news")
      .select(["status", "review_requested_at"])
      .where("id", "=", story.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "draft", review_requested_at: null });
    const sent = await mails(services);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: reporter.email, subject: t.review.mail.returnedSubject("Esporte em Foco", "Final do estadual") });
    expect(sent[0]!.text).toContain("Ana Editora devolveu a sua notícia");
    expect(sent[0]!.text).toContain("Nota: Falta ouvir o técnico.");
    expect(sent[0]!.text).toContain(`${SITE}/edit-news/${story.id}`);

    expect(await pendingReturn(services.database.db, story.id)).toMatchObject({ by: "Ana Editora", note: "Falta ouvir o técnico." });
    // A draft save keeps the note; sending it for review again ends it.
    await services.newsEditor.patchNews(story.id, patch({ title: "Final do estadual (com o técnico)", status: "draft" }), null, reporter);
    expect(await pendingReturn(services.database.db, story.id)).not.toBeNull();
    await services.newsEditor.patchNews(story.id, patch({ status: "review" }), null, reporter);
    expect(await pendingReturn(services.database.db, story.id)).toBeNull();
  });

  it("exige a nota (e até REVIEW_NOTE_MAX caracteres); nada muda quando recusada", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const story = await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    await expect(services.newsEditor.returnToReporter(story.id, "   ", editor)).rejects.toMatchObject({
      status: 400,
      code: "note_required",
      fields: { note: [t.review.noteRequired] },
    });
    await expect(services.newsEditor.returnToReporter(story.id, "x".repeat(REVIEW_NOTE_MAX + 1), editor)).rejects.toMatchObject({
      status: 400,
      code: "note_too_long",
    });
    expect((await services.news.getNews(story.id, { includeUnpublished: true })).status).toBe("review");
    expect(await listReviewEvents(services.database.db, story.id)).toHaveLength(1);
  });

  it("o repórter não devolve (403 com código); uma notícia fora de revisão é 409", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const story = await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    await expect(services.newsEditor.returnToReporter(story.id, "Nota", reporter)).rejects.toMatchObject({ status: 403, code: "return_forbidden" });
    const draft = await services.newsEditor.createNews(input({ status: "draft" }), null, reporter);
    await expect(services.newsEditor.returnToReporter(draft.id, "Nota", editor)).rejects.toMatchObject({ status: 409, code: "not_in_review" });
    const live = await services.newsEditor.createNews(input({ status: "published" }), null, editor);
    await expect(services.newsEditor.returnToReporter(live.id, "Nota", editor)).rejects.toMatchObject({ status: 409, code: "not_in_review" });
    expect((await services.news.getNews(story.id, { includeUnpublished: true })).status).toBe("review");
  });
});

describe("histórico da revisão", () => {
  it("registra quem enviou, quem devolveu (com a nota) e quem aprovou, cada um na versão que criou", async () => {
    const services = await open();
    const { reporter, editor, admin } = await team(services);
    const draft = await services.newsEditor.createNews(input({ status: "draft" }), null, reporter);
    await services.newsEditor.patchNews(draft.id, patch({ status: "review" }), null, reporter);
    await services.newsEditor.returnToReporter(draft.id, "Confira o placar.", editor);
    await services.newsEditor.patchNews(draft.id, patch({ status: "review" }), null, reporter);
    await services.newsEditor.patchNews(draft.id, patch({ status: "published" }), null, admin);

    const steps = await listReviewEvents(services.database.db, draft.id);
    expect(steps.map(({ kind, version, by, note }) => ({ kind, version, by, note }))).toEqual([
      { kind: "submitted", version: 2, by: "Rita Repórter", note: null },
      { kind: "returned", version: 3, by: "Ana Editora", note: "Confira o placar." },
      { kind: "submitted", version: 4, by: "Rita Repórter", note: null },
      { kind: "approved", version: 5, by: "Beto Admin", note: null },
    ]);
    // Each step is on a version the history lists.
    const versions = (await listNewsVersions(services.database.db, draft.id))!.map((version) => version.version);
    for (const step of steps) expect(versions).toContain(step.version);

    // Deleting the story takes its steps with it.
    await eraseNews(services, draft.id, editor);
    expect(await listReviewEvents(services.database.db, draft.id)).toEqual([]);
  });

  it("a versão atual de uma notícia em revisão diz 'Em revisão' (não 'Rascunho'), e enviá-la não conta como mudança de publicação", async () => {
    const services = await open();
    const { reporter, editor } = await team(services);
    const story = await services.newsEditor.createNews(input({ status: "review" }), null, reporter);
    const created = (await listNewsVersions(services.database.db, story.id))!;
    expect(created.map(({ version, status, statusChange }) => ({ version, status, statusChange }))).toEqual([
      { version: 1, status: "review", statusChange: null },
    ]);

    const draft = await services.newsEditor.createNews(input({ status: "draft" }), null, reporter);
    await services.newsEditor.patchNews(draft.id, patch({ status: "review" }), null, reporter);
    const sent = (await listNewsVersions(services.database.db, draft.id))!;
    expect(sent.map(({ version, status, statusChange }) => ({ version, status, statusChange }))).toEqual([
      { version: 2, status: "review", statusChange: null },
      { version: 1, status: "draft", statusChange: null },
    ]);

    // Returned: a draft again, still no change of publication.
    await services.newsEditor.returnToReporter(draft.id, "Confira o placar.", editor);
    const back = (await listNewsVersions(services.database.db, draft.id))!;
    expect(back[0]).toMatchObject({ version: 3, status: "draft", statusChange: null });
  });
});
