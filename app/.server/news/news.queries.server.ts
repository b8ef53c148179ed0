import type { ExpressionBuilder, Kysely, Updateable } from "kysely";
import type { Database, NewNewsRow, NewsTable } from "#app/.server/db/schema.ts";
import type { NewsStatus } from "#app/lib/news-view.ts";

/** The media columns every listing joins (aliased as JoinedMediaColumns expects). */
export const JOINED_MEDIA_COLUMNS = [
  "media.store as media_store",
  "media.kind as media_kind",
  "media.key as media_key",
  "media.mime_type as media_mime_type",
  "media.width as media_width",
  "media.height as media_height",
  "media.variants as media_variants",
  "media.description as media_description",
  "media.caption as media_caption",
  "media.credit as media_credit",
  "media.focus_x as media_focus_x",
  "media.focus_y as media_focus_y",
] as const;

function selectNewsWithMedia(db: Kysely<Database>) {
  return (
    db
      .selectFrom("news")
      .leftJoin("media", "media.id", "news.media_id")
      // A story in the Lixeira is shown to no one, the newsroom's previews included.
      .where("news.deleted_at", "is", null)
      .select([
        "news.id",
        "news.title",
        "news.subtitle",
        "news.category",
        "news.author",
        "news.category_slug",
        "news.author_slug",
        "news.is_highlighted",
        "news.created_at",
        "news.updated_at",
        "news.status",
        "news.review_requested_at",
        "news.published_at",
        "news.version",
        "news.media_id",
        "news.owner_id",
        "news.live_coverage",
        "news.live_scoreboard",
        "news.live_kickoff_at",
        ...JOINED_MEDIA_COLUMNS,
      ])
  );
}

export type NewsWithMediaRow = Awaited<ReturnType<typeof findRecentNews>>[number];

/** Where a page of the list starts: just after (older than) this item. */
export interface ListCursor {
  publishedAt: string;
  id: string;
}

/** Only the news of one category, one author or one club (by slug). */
export interface ListFilter {
  categorySlug?: string | null;
  authorSlug?: string | null;
  teamSlug?: string | null;
}

/** The stories tagged with a club: a subquery on news_teams' (team_slug, news_id) index. */
function taggedWith(db: Kysely<Database>, teamSlug: string) {
  return db.selectFrom("news_teams").select("news_teams.news_id").where("news_teams.team_slug", "=", teamSlug);
}

/**
 * The SQL form of viewStatusOf (news-rows.server.ts): a story in review is stored as a draft sent for review
 * (migration 2026-11-27-401), so `draft` and `review` are told apart by the review request.
 */
export function hasViewStatus(eb: ExpressionBuilder<Database, "news">, status: NewsStatus) {
  if (status === "review") return eb.and([eb("news.status", "=", "draft"), eb("news.review_requested_at", "is not", null)]);
  if (status === "draft") return eb.and([eb("news.status", "=", "draft"), eb("news.review_requested_at", "is", null)]);
  return eb("news.status", "=", status);
}

/**
 * One page of the list, newest publication first (ties broken by id so the order is stable), optionally only the
 * highlighted news or one category's or author's, of one status (readers: always 'published') or of every status
 * (`null`, the admin's "Todas"). Keyset paging on (published_at, id): a page costs the same whether it is the first or
 * the thousandth, served by the (status, published_at, id), (status, is_highlighted, published_at, id),
 * (published_at, id), (category_slug, status, published_at, id) and (author_slug, status, published_at, id) indexes.
 */
export function findNewsPage(
  db: Kysely<Database>,
  {
    after,
    highlightedOnly,
    limit,
    status,
    categorySlug,
    authorSlug,
    teamSlug,
  }: { after: ListCursor | null; highlightedOnly: boolean; limit: number; status: NewsStatus | null } & ListFilter,
) {
  let query = selectNewsWithMedia(db);
  if (status) query = query.where((eb) => hasViewStatus(eb, status));
  if (highlightedOnly) query = query.where("news.is_highlighted", "=", 1);
  if (categorySlug) query = query.where("news.category_slug", "=", categorySlug);
  if (authorSlug) query = query.where("news.author_slug", "=", authorSlug);
  if (teamSlug) query = query.where("news.id", "in", taggedWith(db, teamSlug));
  if (after) {
    // A row-value comparison: both databases turn it into a range on the index, so no row before the cursor is read.
    query = query.where((eb) => eb(eb.refTuple("news.published_at", "news.id"), "<", eb.tuple(after.publishedAt, after.id)));
  }
  return query.orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

/** The newest `limit` published news, without the ones in `excludeIds`. */
export function findRecentNews(db: Kysely<Database>, limit: number, excludeIds: readonly string[] = []) {
  let query = selectNewsWithMedia(db).where("news.status", "=", "published");
  if (excludeIds.length > 0) query = query.where("news.id", "not in", excludeIds);
  return query.orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

/**
 * The editors' picks for the top of the home that hold at `now` (front-page.server.ts), by position, with their
 * stories (published ones only). Read from the picks (three rows at most), then the stories by id.
 */
export async function findFrontPagePicks(db: Kysely<Database>, now: string) {
  const picks = await db
    .selectFrom("front_page_picks")
    .select(["position", "news_id", "until"])
    .where((eb) => eb.or([eb("until", "is", null), eb("until", ">", now)]))
    .orderBy("position")
    .execute();
  if (picks.length === 0) return [];
  const rows = await selectNewsWithMedia(db)
    .where(
      "news.id",
      "in",
      picks.map((pick) => pick.news_id),
    )
    .where("news.status", "=", "published")
    .execute();
  return picks.flatMap((pick) => {
    const row = rows.find((each) => each.id === pick.news_id);
    return row ? [{ ...row, pick_position: pick.position, pick_until: pick.until }] : [];
  });
}

/**
 * The lead when no editor chose one: the story under live coverage that went out last, else the newest story
 * highlighted since `since`, else none (then the newest story leads, as before). Two index reads.
 */
export async function findDefaultLead(db: Kysely<Database>, since: string, excludeIds: readonly string[]) {
  let live = selectNewsWithMedia(db).where("news.status", "=", "published").where("news.live_coverage", "=", "live");
  if (excludeIds.length > 0) live = live.where("news.id", "not in", excludeIds);
  const onAir = await live.orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(1).executeTakeFirst();
  if (onAir) return onAir;
  let highlighted = selectNewsWithMedia(db)
    .where("news.status", "=", "published")
    .where("news.is_highlighted", "=", 1)
    .where("news.published_at", ">=", since);
  if (excludeIds.length > 0) highlighted = highlighted.where("news.id", "not in", excludeIds);
  return highlighted.orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(1).executeTakeFirst();
}

/**
 * Highlighted published news first (newest first), then the other published news in list order: exactly the home's
 * rule "up to N highlights, filled with other news not already chosen", in one query.
 */
export function findHighlightsFilled(db: Kysely<Database>, limit: number, excludeIds: readonly string[] = []) {
  let query = selectNewsWithMedia(db).where("news.status", "=", "published");
  if (excludeIds.length > 0) query = query.where("news.id", "not in", excludeIds);
  return query.orderBy("news.is_highlighted", "desc").orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

/**
 * The published stories covering a match (a scoreboard under live or ended coverage) whose coverage started since
 * `since`, newest first, at most `limit` (the partial index news_matches_idx); of one category when given.
 */
export function findRecentMatches(db: Kysely<Database>, since: string, limit: number, { categorySlug, teamSlug }: MatchFilter = {}) {
  let query = db
    .selectFrom("news")
    .select(["id", "title", "live_coverage", "live_scoreboard", "live_started_at", "live_kickoff_at", "live_competition"])
    .where("live_scoreboard", "is not", null)
    .where("live_started_at", ">=", since)
    .where("live_coverage", "is not", null)
    .where("status", "=", "published");
  if (categorySlug) query = query.where("category_slug", "=", categorySlug);
  if (teamSlug) query = query.where("id", "in", taggedWith(db, teamSlug));
  return query.orderBy("live_started_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** The matches of one category's or one club's stories (the strips of their pages). */
export interface MatchFilter {
  categorySlug?: string | undefined;
  teamSlug?: string | undefined;
}

/**
 * The published stories announcing a match (teams on the scoreboard) whose kickoff is between `from` and `until`,
 * soonest first, at most `limit` (the partial index news_kickoffs_idx); of one category when given.
 */
export function findUpcomingMatches(db: Kysely<Database>, from: string, until: string, limit: number, { categorySlug, teamSlug }: MatchFilter = {}) {
  let query = db
    .selectFrom("news")
    .select(["id", "title", "live_coverage", "live_scoreboard", "live_started_at", "live_kickoff_at", "live_competition"])
    .where("live_kickoff_at", "is not", null)
    .where("live_kickoff_at", ">=", from)
    .where("live_kickoff_at", "<=", until)
    .where("live_coverage", "is", null)
    .where("live_scoreboard", "is not", null)
    .where("status", "=", "published");
  if (categorySlug) query = query.where("category_slug", "=", categorySlug);
  if (teamSlug) query = query.where("id", "in", taggedWith(db, teamSlug));
  return query.orderBy("live_kickoff_at", "asc").orderBy("id", "asc").limit(limit).execute();
}

/** The newest `limit` published news of one category, without the ones in `excludeIds` (shown higher on the home). */
export function findRecentInCategory(db: Kysely<Database>, categorySlug: string, limit: number, excludeIds: readonly string[]) {
  let query = selectNewsWithMedia(db).where("news.category_slug", "=", categorySlug).where("news.status", "=", "published");
  if (excludeIds.length > 0) query = query.where("news.id", "not in", excludeIds);
  return query.orderBy("news.published_at", "desc").orderBy("news.id", "desc").limit(limit).execute();
}

/** The published news with these ids, with their media and full text, in no particular order. */
export function findNewsWithTextByIds(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectNewsWithMedia(db)
    .select(["news.full_content", "news.body"])
    .where("news.id", "in", ids)
    .where("news.status", "=", "published")
    .execute();
}

/** One news item: only when published, unless `includeUnpublished` (an admin). */
export function findNewsById(db: Kysely<Database>, id: string, { includeUnpublished = false } = {}) {
  let query = selectNewsWithMedia(db).select(["news.full_content", "news.body", "news.text_updated_at"]).where("news.id", "=", id);
  if (!includeUnpublished) query = query.where("news.status", "=", "published");
  return query.executeTakeFirst();
}

/** How many stories wait for an editor (drafts sent for review). */
export async function countInReview(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll().as("n"))
    .where((eb) => hasViewStatus(eb, "review"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertNews(db: Kysely<Database>, row: NewNewsRow) {
  return db.insertInto("news").values(row).execute();
}

/**
 * The whole row of one news item, whatever its status (the editor's starting point); none for a story in the
 * Lixeira: to every form, save and action it is gone until restored (news-trash.server.ts).
 */
export function findNewsRow(db: Kysely<Database>, id: string) {
  return db.selectFrom("news").selectAll().where("id", "=", id).where("deleted_at", "is", null).executeTakeFirst();
}

/**
 * Writes `changes` to the item only if it is still at `version` (nobody saved in between); how many rows changed
 * (0: saved by someone else meanwhile, or deleted).
 */
export async function updateNewsAtVersion(db: Kysely<Database>, id: string, version: number, changes: Updateable<NewsTable>): Promise<bigint> {
  const result = await db.updateTable("news").set(changes).where("id", "=", id).where("version", "=", version).executeTakeFirst();
  return result.numUpdatedRows;
}

/** Sets or clears the highlight flag, as a new version; how many rows changed (0: no such item). */
export async function setNewsHighlight(db: Kysely<Database>, id: string, highlighted: boolean, now: string): Promise<bigint> {
  const result = await db
    .updateTable("news")
    .set((eb) => ({ is_highlighted: highlighted ? 1 : 0, updated_at: now, version: eb("version", "+", 1) }))
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows;
}

/** Deletes the item's row (its revisions go first: see deleteRevisionsOf); how many rows went. */
export async function deleteNewsRow(db: Kysely<Database>, id: string): Promise<bigint> {
  const result = await db.deleteFrom("news").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows;
}

/** The name (or, without one, the e-mail) of the account that saved a version; undefined when there is no such account. */
export async function saverName(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom("user").select(["name", "email"]).where("id", "=", userId).executeTakeFirst();
  return row ? row.name?.trim() || row.email : undefined;
}

/** The titles of the stories with these ids (those that exist), in no particular order. */
export async function findNewsTitles(db: Kysely<Database>, ids: readonly string[]): Promise<string[]> {
  const rows = await db.selectFrom("news").select("title").where("id", "in", ids).execute();
  return rows.map((row) => row.title);
}

/**
 * For each of `ids`, when readers' copy of it last changed (its last save, or its live coverage's last change,
 * whichever is later), or null when readers cannot see it (deleted, unpublished, scheduled, in the trash, unknown):
 * what the service worker asks of its saved articles (/api/news-versions).
 */
export async function findPublicVersions(db: Kysely<Database>, ids: readonly string[]): Promise<Record<string, string | null>> {
  const versions: Record<string, string | null> = Object.fromEntries(ids.map((id) => [id, null]));
  if (ids.length === 0) return versions;
  const rows = await db
    .selectFrom("news")
    .select(["id", "updated_at", "live_updated_at"])
    .where("id", "in", ids)
    .where("status", "=", "published")
    .execute();
  for (const row of rows) {
    const changed = [row.updated_at, row.live_updated_at].filter((at): at is string => at !== null);
    versions[row.id] = new Date(Math.max(...changed.map((at) => Date.parse(at)))).toISOString();
  }
  return versions;
}
