import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { NewsAutosaveInput } from "#app/lib/news-schema.ts";
import type { NewsAutosaveView } from "#app/lib/news-autosave.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError, NotFoundError } from "#app/.server/errors.ts";

const EMPTY_DOC: RichDoc = { type: "doc", content: [] };

/**
 * The news form's autosave of an existing story (PUT /api/news/:id/autosave): one row per story per user in
 * `news_autosaves`, overwritten by each autosave (an upsert). The story itself is never touched: no new version, no
 * revision, no event, nothing readers see. A real save of the story by that user deletes the row (in the save's
 * transaction, news-editor.service.server.ts); deleting the story deletes every row of it.
 */
export async function saveNewsAutosave(
  db: Kysely<Database>,
  newsId: string,
  userId: string,
  input: NewsAutosaveInput,
  now: Date = new Date(),
): Promise<{ savedAt: string }> {
  const story = await db
    .selectFrom("news")
    .select(["id", "version", "updated_by"])
    .where("id", "=", newsId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!story) throw new NotFoundError("news_not_found", t.news.notFound);
  // From a form this user has since saved (an autosave still on its way when the save went through): nothing to keep.
  if (input.version !== undefined && input.version < story.version && story.updated_by === userId) {
    throw new AppError("autosave_stale", t.autosave.stale, 409);
  }
  const savedAt = now.toISOString();
  const row = {
    title: input.title,
    subtitle: input.subtitle,
    body: JSON.stringify(input.body ?? EMPTY_DOC),
    category: input.category,
    author: input.author,
    media_description: input.mediaDescription,
    media_caption: input.mediaCaption,
    media_credit: input.mediaCredit,
    is_highlighted: input.isHighlighted ? 1 : 0,
    publish_at: input.publishAt,
    base_version: input.version ?? story.version,
    saved_at: savedAt,
  };
  // Deleted between the check and the write: the foreign key refuses the row (a 404 like the check).
  try {
    await db
      .insertInto("news_autosaves")
      .values({ news_id: newsId, user_id: userId, ...row })
      .onConflict((conflict) => conflict.columns(["news_id", "user_id"]).doUpdateSet(row))
      .execute();
  } catch (error) {
    if (!(await db.selectFrom("news").select("id").where("id", "=", newsId).executeTakeFirst())) {
      throw new NotFoundError("news_not_found", t.news.notFound);
    }
    throw error;
  }
  return { savedAt };
}

/** This user's autosave of a story, or null. Never another user's. */
export async function findNewsAutosave(db: Kysely<Database>, newsId: string, userId: string): Promise<NewsAutosaveView | null> {
  const row = await db.selectFrom("news_autosaves").selectAll().where("news_id", "=", newsId).where("user_id", "=", userId).executeTakeFirst();
  if (!row) return null;
  return {
    title: row.title,
    subtitle: row.subtitle,
    body: JSON.parse(row.body) as RichDoc,
    category: row.category,
    author: row.author,
    mediaDescription: row.media_description,
    mediaCaption: row.media_caption,
    mediaCredit: row.media_credit,
    isHighlighted: Boolean(row.is_highlighted),
    publishAt: row.publish_at,
    version: row.base_version,
    savedAt: row.saved_at,
  };
}

/** Deletes this user's autosave of a story (or, without a user, every one of it); true when there was one. */
export async function deleteNewsAutosave(db: Kysely<Database>, newsId: string, userId: string | null): Promise<boolean> {
  let query = db.deleteFrom("news_autosaves").where("news_id", "=", newsId);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
