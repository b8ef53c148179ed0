import type { Kysely } from "kysely";
import { t } from "#app/i18n/newsroom.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { AppError } from "#app/.server/errors.ts";
import type { EventBus } from "#app/.server/events/event-bus.ts";
import { type Actor, requireReporterMayChange } from "#app/.server/auth/permissions.server.ts";
import { audienceOf, storyPaths } from "#app/.server/news/story-paths.server.ts";

/** A focus point in percent of the image's width and height, or null for the centre. */
export type MediaFocus = { x: number; y: number } | null;

/**
 * The story whose image's focus point `actor` wants to set, once they may change the story (a reporter: their own
 * drafts): 404 `news_not_found` for an unknown story, 403 otherwise. Asked before the request's body is read, and
 * again in the change's transaction.
 */
export async function storyForMediaFocus(db: Kysely<Database>, newsId: string, actor: Actor) {
  const story = await db
    .selectFrom("news")
    .leftJoin("media", "media.id", "news.media_id")
    .select(["news.id", "news.owner_id", "news.status", "news.review_requested_at", "news.media_id", "media.kind"])
    .where("news.id", "=", newsId)
    .where("news.deleted_at", "is", null)
    .executeTakeFirst();
  if (!story) throw new AppError("news_not_found", t.news.notFound, 404);
  requireReporterMayChange(actor, story);
  return story;
}

/**
 * Sets the focus point of a story's image (the one in its `media_id`): the point boxes of other shapes keep when they
 * crop it (`object-position`). Who may change the story may set it (storyForMediaFocus). The image may be shown by
 * other stories too (an import, a copied story): each one's pages stop being served at once, like a save. 409
 * `media_not_image` when the story has no image.
 */
export async function setStoryMediaFocus(
  { db, events }: { db: Kysely<Database>; events: Pick<EventBus, "withCommit"> },
  newsId: string,
  focus: MediaFocus,
  actor: Actor,
): Promise<{ focus: MediaFocus }> {
  return events.withCommit(db, async (trx, send) => {
    const story = await storyForMediaFocus(trx, newsId, actor);
    if (!story.media_id || story.kind !== "image") throw new AppError("media_not_image", t.mediaFocus.noImage, 409);
    await trx
      .updateTable("media")
      .set({ focus_x: focus?.x ?? null, focus_y: focus?.y ?? null })
      .where("id", "=", story.media_id)
      .execute();
    const showing = await trx
      .selectFrom("news")
      .select(["id", "title", "category_slug", "author_slug", "status"])
      .where("media_id", "=", story.media_id)
      .execute();
    await send("newsUpdated", { paths: storyPaths(...showing), ...audienceOf(...showing) });
    return { focus };
  });
}
