import type { Kysely, Selectable, Updateable } from "kysely";
import { NEWSROOM_BULK_MAX, TRASH_DAYS } from "#app/lib/limits.ts";
import type { Database, NewsTable } from "#app/.server/db/schema.ts";
import { revisionOf } from "#app/.server/news/editor/news-revisions.server.ts";
import { updateNewsAtVersion } from "#app/.server/news/news.queries.server.ts";

/**
 * The newsroom's Lixeira (migration 2026-11-28-981). Deleting a story moves it here instead of erasing it: it becomes
 * a draft (readers lose it at once: every reader query asks for published stories) that the newsroom's lists, forms,
 * review queue and scheduler leave out (`deleted_at` set), keeping its id, links, history, live coverage and media.
 * "Restaurar" brings it back as a draft; "Excluir definitivamente", or TRASH_DAYS, erases it (news-bulk.server.ts).
 */

/**
 * Moves `rows` to the Lixeira inside `trx`; false when one was saved by someone else since it was read (the caller
 * rolls back). The version replaced becomes a revision, so the history says who deleted it and what it was.
 */
export function moveToTrash(trx: Kysely<Database>, rows: readonly Selectable<NewsTable>[], actorId: string | null, now: string): Promise<boolean> {
  return newVersions(trx, rows, {
    status: "draft",
    review_requested_at: null,
    deleted_at: now,
    deleted_by: actorId,
    updated_at: now,
    updated_by: actorId,
  });
}

/** Takes `rows` out of the Lixeira as drafts (same ids, same links); false on a concurrent save (roll back). */
export function restoreFromTrash(
  trx: Kysely<Database>,
  rows: readonly Selectable<NewsTable>[],
  actorId: string | null,
  now: string,
): Promise<boolean> {
  return newVersions(trx, rows, { deleted_at: null, deleted_by: null, updated_at: now, updated_by: actorId });
}

/** Writes `changes` to each row as its next version, the one replaced kept as a revision; false on a concurrent save. */
async function newVersions(trx: Kysely<Database>, rows: readonly Selectable<NewsTable>[], changes: Updateable<NewsTable>): Promise<boolean> {
  if (rows.length === 0) return true;
  await trx.insertInto("news_revisions").values(rows.map(revisionOf)).execute();
  for (const row of rows) {
    if ((await updateNewsAtVersion(trx, row.id, row.version, { ...changes, version: row.version + 1 })) === 0n) return false;
  }
  return true;
}

/** The ids of the stories in the Lixeira since before `now` − TRASH_DAYS, oldest first, at most one bulk's worth. */
export async function expiredTrash(db: Kysely<Database>, now: Date): Promise<string[]> {
  const before = new Date(now.getTime() - TRASH_DAYS * 86_400_000).toISOString();
  const rows = await db
    .selectFrom("news")
    .select("id")
    .where("deleted_at", "is not", null)
    .where("deleted_at", "<", before)
    .orderBy("deleted_at")
    .limit(NEWSROOM_BULK_MAX)
    .execute();
  return rows.map((row) => row.id);
}
