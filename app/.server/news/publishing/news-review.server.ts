import { randomUUID } from "node:crypto";
import { href } from "react-router";
import type { Kysely } from "kysely";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { Database, NewsReviewEventsTable } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { Mailer } from "#app/.server/mail/mailer.server.ts";

/**
 * A step of the review queue: sent for review, approved (published or scheduled from review), returned with a note;
 * and what a reporter does without review: `corrected` (their own published or scheduled story saved, live at once)
 * and `published_directly` (published or scheduled by a reporter with the "publica sem revisão" right).
 */
export type ReviewEventKind = NewsReviewEventsTable["kind"];

/** A review step as the history and the form show it. */
export interface ReviewEventView {
  kind: ReviewEventKind;
  version: number;
  /** Who did it: the account's name (or e-mail); null when unknown. */
  by: string | null;
  at: string;
  note: string | null;
}

export function insertReviewEvent(
  db: Kysely<Database>,
  event: { newsId: string; version: number; kind: ReviewEventKind; actorId: string | null; note?: string | null; at: string },
) {
  return db
    .insertInto("news_review_events")
    .values({
      id: randomUUID(),
      news_id: event.newsId,
      version: event.version,
      kind: event.kind,
      actor_id: event.actorId,
      note: event.note ?? null,
      created_at: event.at,
    })
    .execute();
}

export function deleteReviewEventsOf(db: Kysely<Database>, newsIds: readonly string[]) {
  return db.deleteFrom("news_review_events").where("news_id", "in", newsIds).execute();
}

const nameOf = (row: { user_name: string | null; user_email: string | null }) => row.user_name?.trim() || row.user_email || null;

/** A story's review steps, oldest first. */
export async function listReviewEvents(db: Kysely<Database>, newsId: string): Promise<ReviewEventView[]> {
  const rows = await db
    .selectFrom("news_review_events")
    .leftJoin("user", "user.id", "news_review_events.actor_id")
    .select([
      "news_review_events.kind",
      "news_review_events.version",
      "news_review_events.note",
      "news_review_events.created_at",
      "user.name as user_name",
      "user.email as user_email",
    ])
    .where("news_review_events.news_id", "=", newsId)
    .orderBy("news_review_events.version", "asc")
    .orderBy("news_review_events.created_at", "asc")
    .execute();
  return rows.map((row) => ({ kind: row.kind, version: row.version, by: nameOf(row), at: row.created_at, note: row.note }));
}

/**
 * The note the reporter sees at the top of the form: the story's last review step, when it was a return (sending it
 * for review again, or its approval, ends it). Null otherwise.
 */
export async function pendingReturn(db: Kysely<Database>, newsId: string): Promise<ReviewEventView | null> {
  const events = await listReviewEvents(db, newsId);
  const last = events.at(-1);
  return last?.kind === "returned" ? last : null;
}

/**
 * A reporter fixing a live match's story saves again and again: the editors get one e-mail for the first correction
 * of a story in this window, not one per save (every save stays in the history).
 */
export const CORRECTION_MAIL_QUIET_MS = 10 * 60_000;

/** What the review queue sends by e-mail, after the save's commit. */
export interface ReviewNotifier {
  /** A story was sent for review: every editor and admin (but whoever sent it) gets an e-mail. */
  submitted(newsId: string, actorId: string | null): void;
  /** A story in review was published or scheduled (`approved`) or returned: its owner gets an e-mail. */
  decided(newsId: string, kind: "approved" | "returned", actorId: string | null, note?: string): void;
  /**
   * A reporter changed a story without review: corrected their own published or scheduled story, or published or
   * scheduled it with the "publica sem revisão" right. Every editor and admin gets an e-mail (for corrections, one per
   * story in CORRECTION_MAIL_QUIET_MS).
   */
  changedByReporter(newsId: string, kind: "corrected" | "published_directly", actorId: string | null, at?: string): void;
  /** Resolves once every e-mail asked for so far has been handed to the mailer (or failed): before closing, in tests. */
  idle(): Promise<void>;
}

/**
 * The review queue's e-mails, sent after the commit and never awaited by the save: a failure (the database read, the
 * mail server) is logged and the save stands. pt-BR texts in app/i18n/newsroom.ts (t.review.mail).
 */
export function createReviewNotifier({
  db,
  mailer,
  log,
  site,
  timeZone,
}: {
  db: Kysely<Database>;
  mailer: Pick<Mailer, "send">;
  log: Pick<Logger, "error">;
  site: { name: string; url: string };
  timeZone: string;
}): ReviewNotifier {
  const editLink = (id: string) => `${site.url}${href("/edit-news/:id", { id })}`;

  async function person(userId: string | null): Promise<{ name: string; email: string } | null> {
    if (!userId) return null;
    const row = await db.selectFrom("user").select(["name", "email"]).where("id", "=", userId).executeTakeFirst();
    return row ? { name: row.name?.trim() || row.email, email: row.email } : null;
  }

  const editorsAndAdmins = () =>
    db
      .selectFrom("admins")
      .innerJoin("user", "user.id", "admins.user_id")
      .select(["user.id", "user.email"])
      .where("admins.role", "in", ["editor", "admin"])
      .execute();

  function story(id: string) {
    return db.selectFrom("news").select(["id", "title", "status", "published_at", "owner_id"]).where("id", "=", id).executeTakeFirst();
  }

  const inFlight = new Set<Promise<void>>();
  function background(purpose: string, newsId: string, work: () => Promise<void>) {
    const running = work().catch((error: unknown) => log.error({ err: error, purpose, newsId }, "review mail could not be sent"));
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  }

  function send(to: string, subject: string, text: string, purpose: string, newsId: string) {
    void mailer.send({ to, subject, text }).catch((error: unknown) => log.error({ err: error, purpose, newsId }, "review mail could not be sent"));
  }

  return {
    async idle() {
      while (inFlight.size) await Promise.all(inFlight);
    },
    submitted(newsId, actorId) {
      background("review submitted", newsId, async () => {
        const row = await story(newsId);
        if (!row) return;
        const author = (await person(actorId ?? row.owner_id))?.name ?? t.review.someone;
        for (const editor of await editorsAndAdmins()) {
          if (editor.id === actorId) continue;
          send(
            editor.email,
            t.review.mail.submittedSubject(site.name, row.title),
            t.review.mail.submittedText(row.title, author, editLink(newsId)),
            "review submitted",
            newsId,
          );
        }
      });
    },
    changedByReporter(newsId, kind, actorId, at = new Date().toISOString()) {
      background(`reporter ${kind}`, newsId, async () => {
        const row = await story(newsId);
        if (!row) return;
        if (kind === "corrected") {
          // An earlier correction of this story in the window (its step written before this one's, at `at`): the
          // editors were told then.
          const since = new Date(Date.parse(at) - CORRECTION_MAIL_QUIET_MS).toISOString();
          const recent = await db
            .selectFrom("news_review_events")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("news_id", "=", newsId)
            .where("kind", "=", "corrected")
            .where("created_at", ">=", since)
            .where("created_at", "<", at)
            .executeTakeFirst();
          if (Number(recent?.n ?? 0) > 0) return;
        }
        const reporter = (await person(actorId))?.name ?? t.review.someone;
        const { mail } = t.review;
        const history = `${site.url}${href("/edit-news/:id/historico", { id: newsId })}`;
        const url = `${site.url}${href("/article/:id/:slug?", { id: newsId })}`;
        const [subject, text] =
          kind === "corrected"
            ? [mail.correctedSubject(site.name, row.title), mail.correctedText(row.title, reporter, row.status === "published" ? url : null, history)]
            : row.status === "scheduled"
              ? [
                  mail.directScheduledSubject(site.name, row.title),
                  mail.directScheduledText(row.title, reporter, formatDateTime(row.published_at, timeZone), history),
                ]
              : [mail.directPublishedSubject(site.name, row.title), mail.directPublishedText(row.title, reporter, url, history)];
        for (const editor of await editorsAndAdmins()) {
          if (editor.id !== actorId) send(editor.email, subject, text, `reporter ${kind}`, newsId);
        }
      });
    },
    decided(newsId, kind, actorId, note) {
      background(`review ${kind}`, newsId, async () => {
        const row = await story(newsId);
        if (!row?.owner_id || row.owner_id === actorId) return;
        const owner = await person(row.owner_id);
        if (!owner) return;
        const editor = (await person(actorId))?.name ?? t.review.someone;
        const { mail } = t.review;
        if (kind === "returned") {
          send(
            owner.email,
            mail.returnedSubject(site.name, row.title),
            mail.returnedText(row.title, editor, note ?? "", editLink(newsId)),
            "review returned",
            newsId,
          );
        } else if (row.status === "scheduled") {
          const when = formatDateTime(row.published_at, timeZone);
          send(
            owner.email,
            mail.scheduledSubject(site.name, row.title),
            mail.scheduledText(row.title, editor, when, editLink(newsId)),
            "review approved",
            newsId,
          );
        } else {
          const url = `${site.url}${href("/article/:id/:slug?", { id: newsId })}`;
          send(owner.email, mail.publishedSubject(site.name, row.title), mail.publishedText(row.title, editor, url), "review approved", newsId);
        }
      });
    },
  };
}
