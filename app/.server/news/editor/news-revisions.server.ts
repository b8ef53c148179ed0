import { randomUUID } from "node:crypto";
import type { Insertable, Kysely, Selectable } from "kysely";
import type { NewsContent, NewsStatus } from "#app/lib/news-view.ts";
import type { Database, NewsRevisionsTable, NewsTable } from "#app/.server/db/schema.ts";
import { newsContentOf, viewStatusOf } from "#app/.server/news/news-rows.server.ts";

/** One version of a news item as the history shows and compares it. */
export interface NewsVersionView extends NewsContent {
  /** The revision's id; null for the current version. */
  revisionId: string | null;
  version: number;
  mediaId: string | null;
  savedAt: string;
  /** Who saved it: the account's name (or e-mail), null when unknown (imports, scripts, the scheduler). */
  savedBy: string | null;
  /**
   * Its status and publication date; null for revisions saved before revisions kept them. The current version's is
   * the status the newsroom sees (`review` for a draft sent for review, viewStatusOf); a revision keeps only the
   * stored one (a draft in review was kept as `draft`).
   */
  status: NewsStatus | null;
  publishedAt: string | null;
}

/** Every version of a news item, newest first: the current one, then its revisions. Null when there is no such item. */
export async function listNewsVersions(
  db: Kysely<Database>,
  newsId: string,
): Promise<Array<NewsVersionView & { statusChange: StatusChange | null }> | null> {
  const current = await db
    .selectFrom("news")
    .leftJoin("user", "user.id", "news.updated_by")
    .select([
      "news.version",
      "news.title",
      "news.subtitle",
      "news.full_content",
      "news.body",
      "news.category",
      "news.author",
      "news.is_highlighted",
      "news.media_id",
      "news.updated_at as saved_at",
      "news.status",
      "news.review_requested_at",
      "news.published_at",
      "user.name as user_name",
      "user.email as user_email",
    ])
    .where("news.id", "=", newsId)
    .executeTakeFirst();
  if (!current) return null;
  const revisions = await db
    .selectFrom("news_revisions")
    .leftJoin("user", "user.id", "news_revisions.saved_by")
    .select([
      "news_revisions.id",
      "news_revisions.version",
      "news_revisions.title",
      "news_revisions.subtitle",
      "news_revisions.full_content",
      "news_revisions.body",
      "news_revisions.category",
      "news_revisions.author",
      "news_revisions.is_highlighted",
      "news_revisions.media_id",
      "news_revisions.saved_at",
      "news_revisions.status",
      "news_revisions.published_at",
      "user.name as user_name",
      "user.email as user_email",
    ])
    .where("news_revisions.news_id", "=", newsId)
    .orderBy("news_revisions.version", "desc")
    .execute();
  type Row = Omit<typeof current, "status" | "published_at" | "review_requested_at"> & { status: NewsStatus | null; published_at: string | null };
  const view = (row: Row, revisionId: string | null): NewsVersionView => ({
    revisionId,
    version: row.version,
    ...newsContentOf(row),
    mediaId: row.media_id,
    savedAt: row.saved_at,
    savedBy: row.user_name?.trim() || row.user_email || null,
    status: row.status,
    publishedAt: row.published_at,
  });
  const versions = [view({ ...current, status: viewStatusOf(current) }, null), ...revisions.map((row) => view(row, row.id))];
  return versions.map((version, index) => ({ ...version, statusChange: statusChangeOf(version, versions[index + 1] ?? null) }));
}

/**
 * What a version did to the item's publication, against the version before it (`older`; null for the first):
 * published it, took it offline, scheduled it (or moved its schedule), or nothing. Unknown (null) when either
 * status is unknown (revisions saved before revisions kept it).
 */
export function statusChangeOf(
  version: Pick<NewsVersionView, "status" | "publishedAt">,
  older: Pick<NewsVersionView, "status" | "publishedAt"> | null,
): StatusChange | null {
  // For the publication, a story in review is a draft: sending it for review (or back) publishes nothing.
  const status = publicationOf(version.status);
  if (!status) return null;
  if (!older) return status === "draft" ? null : { kind: status, publishedAt: version.publishedAt };
  const before = publicationOf(older.status);
  if (!before) return null;
  if (status === "scheduled" && (before !== "scheduled" || older.publishedAt !== version.publishedAt))
    return { kind: "scheduled", publishedAt: version.publishedAt };
  if (status === before) return null;
  if (status === "published") return { kind: "published", publishedAt: version.publishedAt };
  return { kind: before === "published" ? "unpublished" : "draft", publishedAt: version.publishedAt };
}

/** A version's status as far as its publication goes: `review` is a draft (sent for review). */
function publicationOf(status: NewsStatus | null): "draft" | "scheduled" | "published" | null {
  return status === "review" ? "draft" : status;
}

/** A change of publication: published, unpublished (was live, now a draft), back to a draft (was scheduled), scheduled. */
export interface StatusChange {
  kind: "published" | "unpublished" | "draft" | "scheduled";
  /** The publication date the version had (for a schedule: when it goes live). */
  publishedAt: string | null;
}

/** The revision that keeps `row` (the version a save is about to replace). */
export function revisionOf(row: Selectable<NewsTable>): Insertable<NewsRevisionsTable> {
  return {
    id: randomUUID(),
    news_id: row.id,
    version: row.version,
    title: row.title,
    subtitle: row.subtitle,
    full_content: row.full_content,
    body: row.body,
    category: row.category,
    author: row.author,
    is_highlighted: row.is_highlighted,
    media_id: row.media_id,
    saved_by: row.updated_by,
    saved_at: row.updated_at,
    status: row.status,
    published_at: row.published_at,
  };
}

export function insertRevision(db: Kysely<Database>, revision: Insertable<NewsRevisionsTable>) {
  return db.insertInto("news_revisions").values(revision).execute();
}

/** One revision of one item; undefined when there is none (or it belongs to another item). */
export function findRevision(db: Kysely<Database>, newsId: string, revisionId: string) {
  return db.selectFrom("news_revisions").selectAll().where("id", "=", revisionId).where("news_id", "=", newsId).executeTakeFirst();
}

export function deleteRevisionsOf(db: Kysely<Database>, newsId: string) {
  return db.deleteFrom("news_revisions").where("news_id", "=", newsId).execute();
}

/** The revision that kept `version` of an item; undefined when there is none (that version was never saved over). */
export function findRevisionAtVersion(db: Kysely<Database>, newsId: string, version: number) {
  return db.selectFrom("news_revisions").selectAll().where("news_id", "=", newsId).where("version", "=", version).executeTakeFirst();
}
