import type { ExpressionBuilder, Kysely, Updateable } from "kysely";
import type { Database, MediaRow, MediaTable, NewMediaRow } from "#app/.server/db/schema.ts";

/** The description, caption and credit of a media item (each: a text, null to clear, absent to leave as it is). */
export type MediaTextColumns = Pick<Updateable<MediaTable>, "description" | "caption" | "credit">;

export function setMediaText(db: Kysely<Database>, mediaId: string, text: MediaTextColumns) {
  return db.updateTable("media").set(text).where("id", "=", mediaId).execute();
}

/** Whether a media item is still there (a revision may name one removed since). */
export async function mediaExists(db: Kysely<Database>, mediaId: string): Promise<boolean> {
  return Boolean(await db.selectFrom("media").select("id").where("id", "=", mediaId).executeTakeFirst());
}

export function insertMedia(db: Kysely<Database>, row: NewMediaRow) {
  return db.insertInto("media").values(row).execute();
}

export function findMedia(db: Kysely<Database>, mediaId: string): Promise<MediaRow | undefined> {
  return db.selectFrom("media").selectAll().where("id", "=", mediaId).executeTakeFirst();
}

export function deleteMediaRow(db: Kysely<Database>, mediaId: string) {
  return db.deleteFrom("media").where("id", "=", mediaId).execute();
}

const UNREFERENCED = {
  news: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("news").select("news.id").whereRef("news.media_id", "=", "media.id"))),
  sponsors: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("sponsors").select("sponsors.id").whereRef("sponsors.media_id", "=", "media.id"))),
  // A member's profile photo (member_profiles).
  profiles: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("member_profiles").select("member_profiles.user_id").whereRef("member_profiles.photo_media_id", "=", "media.id"))),
  // An older version of a news item can be restored with its media: kept as long as a revision refers to it.
  revisions: (eb: ExpressionBuilder<Database, "media">) =>
    eb.not(eb.exists(eb.selectFrom("news_revisions").select("news_revisions.id").whereRef("news_revisions.media_id", "=", "media.id"))),
};

/**
 * Not named by an image block of a news body or of a revision's body (app/lib/rich-text.ts). The body is JSON text,
 * so this is a LIKE on the id as the checked body writes it (`"mediaId":"<id>"`); ids are letters, digits, `-` and
 * `_` (a LIKE wildcard that can only match more, i.e. keep more). Asked per candidate record, never as a correlated
 * condition over every media row: the few old unreferenced records are checked against the bodies one by one.
 */
function notInBodies(mediaId: string) {
  const pattern = `%"mediaId":"${mediaId}"%`;
  return (eb: ExpressionBuilder<Database, "media">) =>
    eb.and([
      eb.not(eb.exists(eb.selectFrom("news").select("news.id").where("news.body", "like", pattern))),
      eb.not(eb.exists(eb.selectFrom("news_revisions").select("news_revisions.id").where("news_revisions.body", "like", pattern))),
    ]);
}

/** Whether an image block of a news body, or of a revision's body, names this media record. */
export async function namedByABody(db: Kysely<Database>, mediaId: string): Promise<boolean> {
  const row = await db.selectFrom("media").select("id").where("id", "=", mediaId).where(notInBodies(mediaId)).executeTakeFirst();
  return !row;
}

/**
 * The media records of one store created before `before` that no news item, sponsor, profile or news revision refers to
 * (their bodies are asked per record: `namedByABody`).
 */
export function findUnreferencedMedia(db: Kysely<Database>, storeName: string, before: Date) {
  return db
    .selectFrom("media")
    .select(["id", "key", "variants"])
    .where("store", "=", storeName)
    .where("created_at", "<", before.toISOString())
    .where(UNREFERENCED.news)
    .where(UNREFERENCED.sponsors)
    .where(UNREFERENCED.profiles)
    .where(UNREFERENCED.revisions)
    .execute();
}

/**
 * Deletes a media record if nothing refers to it (bodies included). The delete repeats the "unreferenced" test, so a record attached
 * to a news item since it was found is kept. Returns whether it was deleted.
 */
export async function deleteMediaIfUnreferenced(db: Kysely<Database>, mediaId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom("media")
    .where("id", "=", mediaId)
    .where(UNREFERENCED.news)
    .where(UNREFERENCED.sponsors)
    .where(UNREFERENCED.profiles)
    .where(UNREFERENCED.revisions)
    .where(notInBodies(mediaId))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** The main key and variants of every media record (to tell which store objects a record points to). */
export function allMediaKeyColumns(db: Kysely<Database>) {
  return db.selectFrom("media").select(["key", "variants"]).execute();
}
