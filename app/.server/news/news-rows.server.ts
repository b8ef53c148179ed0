import type { NewsArticle, NewsConflictCurrent, NewsContent, NewsStatus, NewsSummary } from "#app/lib/news-view.ts";
import type { NewNewsRow, NewsRow } from "#app/.server/db/schema.ts";
import { type CardScore, type MatchOfTheDay, storedScoreboard } from "#app/lib/live-coverage.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { docToPlainText, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { type JoinedMediaColumns, toMediaView } from "#app/.server/media/media-view.server.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import type { NewsWithMediaRow } from "./news.queries.server.ts";

/**
 * The one mapping between a `news` row (snake_case, the highlight as 0/1, slugs stored as "" when unknown) and the
 * objects of app/lib/news-view.ts. Services, the editor, the history, the search, the seeds and the test factories
 * all go through here.
 */

/** The columns that hold a news item's texts and highlight (news and news_revisions have the same). */
export type NewsContentColumns = Pick<NewsRow, "title" | "subtitle" | "full_content" | "body" | "category" | "author" | "is_highlighted">;

/**
 * The structured body of a row. Written as JSON by this module (checked on the way in); a row without one (the bulk
 * seed writes plain text) reads as its text's paragraphs.
 */
export function bodyOf(row: Pick<NewsRow, "full_content" | "body">): RichDoc {
  return row.body ? (JSON.parse(row.body) as RichDoc) : plainTextToDoc(row.full_content);
}

export function newsContentOf(row: NewsContentColumns): NewsContent {
  return {
    title: row.title,
    subtitle: row.subtitle,
    fullContent: row.full_content,
    body: bodyOf(row),
    category: row.category,
    author: row.author,
    isHighlighted: Boolean(row.is_highlighted),
  };
}

/** The body's two columns: the JSON and its plain text. */
export function bodyColumns(body: RichDoc): Pick<NewsRow, "full_content" | "body"> {
  return { full_content: docToPlainText(body), body: JSON.stringify(body) };
}

/**
 * The columns of a news item's content. The body is `body` when given, else the plain text `fullContent` (seeds,
 * the import and older callers); `full_content` is always the body's plain text.
 */
export function newsContentColumns(content: Omit<NewsContent, "body"> & { body?: RichDoc | undefined }): NewsContentColumns {
  return {
    title: content.title,
    subtitle: content.subtitle,
    ...bodyColumns(content.body ?? plainTextToDoc(content.fullContent)),
    category: content.category,
    author: content.author,
    is_highlighted: content.isHighlighted ? 1 : 0,
  };
}

/** Whether a stored story is in review (a draft sent for review, see viewStatusOf). */
export const inReview = (row: { status: NewsStatus; review_requested_at: string | null }) =>
  row.status === "draft" && row.review_requested_at !== null;

/** The status the newsroom sees: a draft sent for review is `review` (stored as 'draft', see the roles migration). */
export function viewStatusOf(row: Pick<NewsRow, "status" | "review_requested_at">): NewsStatus {
  return row.status === "draft" && row.review_requested_at ? "review" : row.status;
}

/** A news row (with its joined media columns) as list pages show it. */
export function toNewsSummary(
  row: Pick<
    NewsWithMediaRow,
    | "id"
    | "title"
    | "subtitle"
    | "category"
    | "author"
    | "category_slug"
    | "author_slug"
    | "is_highlighted"
    | "created_at"
    | "published_at"
    | "status"
    | "review_requested_at"
  > &
    Partial<Pick<NewsWithMediaRow, "live_coverage" | "live_scoreboard" | "live_kickoff_at">> &
    JoinedMediaColumns & { owner_id?: string | null },
  store: Pick<MediaStore, "publicUrl">,
): NewsSummary {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    category: row.category,
    author: row.author,
    categorySlug: row.category_slug || null,
    authorSlug: row.author_slug || null,
    isHighlighted: Boolean(row.is_highlighted),
    createdAt: row.created_at,
    publishedAt: row.published_at,
    status: viewStatusOf(row),
    media: toMediaView(row, store),
    // Who may change an unpublished story is the newsroom's business only: a published one never says.
    ...(row.status !== "published" && row.owner_id ? { ownerId: row.owner_id } : {}),
    ...(row.live_coverage === "live" ? { live: true as const } : {}),
    ...cardScoreOf(row),
    // An announced match (its scoreboard's teams, a kickoff, no coverage yet): when it starts.
    ...(!row.live_coverage && row.live_kickoff_at && row.live_scoreboard ? { kickoff: row.live_kickoff_at } : {}),
  };
}

/** The score a card shows: a scoreboard under live or ended coverage (a story's own text otherwise says nothing). */
export function cardScoreOf(row: { live_coverage?: "live" | "ended" | null; live_scoreboard?: string | null }): { score?: CardScore } {
  const board = row.live_coverage ? storedScoreboard(row.live_scoreboard) : null;
  return board && row.live_coverage ? { score: { ...board, state: row.live_coverage } } : {};
}

/** A match of the "Jogos de hoje" strip, or null (no scoreboard or coverage: not a match). */
export function toMatchOfTheDay(row: {
  id: string;
  title: string;
  live_coverage: "live" | "ended" | null;
  live_scoreboard: string | null;
  live_started_at: string | null;
  live_kickoff_at: string | null;
  live_competition: string | null;
}): MatchOfTheDay | null {
  const competition = row.live_competition || null;
  const { score } = cardScoreOf(row);
  if (score && row.live_started_at) return { id: row.id, title: row.title, score, startedAt: row.live_started_at, competition };
  // Announced, waiting for its kickoff: the teams of its scoreboard.
  const board = row.live_coverage === null && row.live_kickoff_at ? storedScoreboard(row.live_scoreboard) : null;
  if (board && row.live_kickoff_at)
    return { id: row.id, title: row.title, score: { ...board, state: "next" }, startedAt: row.live_kickoff_at, competition };
  return null;
}

/** A news row with its full text and joined media as the article page (and GET /api/news/:id) shows it. */
export function toNewsArticle(
  row: Parameters<typeof toNewsSummary>[0] & Pick<NewsRow, "full_content" | "body" | "updated_at" | "text_updated_at" | "version" | "media_id">,
  store: Pick<MediaStore, "publicUrl">,
): NewsArticle {
  return {
    ...toNewsSummary(row, store),
    fullContent: row.full_content,
    body: bodyOf(row),
    updatedAt: row.updated_at,
    textUpdatedAt: row.text_updated_at ?? null,
    version: row.version,
    mediaId: row.media_id,
  };
}

/** The item as saved now, for the answer to a save based on an older version (409). */
export function toNewsConflictCurrent(row: NewsRow): NewsConflictCurrent {
  return {
    id: row.id,
    version: row.version,
    ...newsContentOf(row),
    status: viewStatusOf(row),
    publishedAt: row.published_at,
    mediaId: row.media_id,
    updatedAt: row.updated_at,
  };
}

/**
 * A row for a news item published when it was created (created, published and, unless said, updated at
 * `createdAt`): the demo and bulk seeds, the Firestore import and the test factories. `terms` are the canonical
 * category and author with their slugs (taxonomy.server.ts), which take the place of the content's spelling.
 */
export function publishedNewsRow(item: {
  id: string;
  content: NewsContentColumns;
  terms: Pick<NewNewsRow, "category" | "author" | "category_slug" | "author_slug">;
  mediaId: string | null;
  createdAt: string;
  updatedAt?: string;
}): NewNewsRow {
  return {
    id: item.id,
    ...item.content,
    ...item.terms,
    media_id: item.mediaId,
    created_at: item.createdAt,
    published_at: item.createdAt,
    first_published_at: item.createdAt,
    updated_at: item.updatedAt ?? item.createdAt,
  };
}
