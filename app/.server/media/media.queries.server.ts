import type { Kysely, Updateable } from "kysely";
import type { Database, MediaTable } from "../db/schema.ts";

/** The description, caption and credit of a media item (each: a text, null to clear, absent to leave as it is). */
export type MediaTextColumns = Pick<Updateable<MediaTable>, "description" | "caption" | "credit">;

export function setMediaText(db: Kysely<Database>, mediaId: string, text: MediaTextColumns) {
  return db.updateTable("media").set(text).where("id", "=", mediaId).execute();
}

/** Whether a media item is still there (a revision may name one removed since). */
export async function mediaExists(db: Kysely<Database>, mediaId: string): Promise<boolean> {
  return Boolean(await db.selectFrom("media").select("id").where("id", "=", mediaId).executeTakeFirst());
}
