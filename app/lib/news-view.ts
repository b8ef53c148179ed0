import type { CardScore } from "./live-coverage.ts";
import type { MediaView } from "./media-view.ts";
import type { RichDoc } from "./rich-text.ts";

/**
 * A story's status. `review`: a reporter's draft sent for review ("Enviar para revisão"), waiting for an editor;
 * stored as a draft (readers never see it, like any draft).
 */
export type NewsStatus = "draft" | "review" | "scheduled" | "published";

/** A story id as the site makes them (and the importer keeps): short, URL-safe. */
export const NEWS_ID = /^[\w-]{1,64}$/;

export const NEWS_STATUSES: readonly NewsStatus[] = ["draft", "review", "scheduled", "published"];

/** The texts and highlight of a news item, as views and forms name them (what a revision keeps of them too). */
export interface NewsContent {
  title: string;
  subtitle: string;
  /** The body's plain text (`docToPlainText(body)`): what search, summaries and the revision diff read. */
  fullContent: string;
  /** The body as structured content (app/lib/rich-text.ts). */
  body: RichDoc;
  category: string;
  author: string;
  isHighlighted: boolean;
}

/**
 * What a save based on an older version is answered with (409 `news_version_conflict`, in the API and to the form):
 * the item as saved now, with GET /api/news/:id's names.
 */
export interface NewsConflictCurrent extends NewsContent {
  id: string;
  version: number;
  status: NewsStatus;
  publishedAt: string;
  mediaId: string | null;
  updatedAt: string;
}

/** A news item as list pages show it (no full text). */
export interface NewsSummary {
  id: string;
  title: string;
  subtitle: string;
  category: string;
  author: string;
  /** Where /categoria/{slug} and /autor/{slug} list this item's category and author (null: not recorded). */
  categorySlug: string | null;
  authorSlug: string | null;
  isHighlighted: boolean;
  createdAt: string;
  /** The publication date (the date readers see; the planned one while scheduled). Lists sort on it. */
  publishedAt: string;
  /** Readers only ever get 'published' items. */
  status: NewsStatus;
  media: MediaView | null;
  /** The account that created an unpublished story (the newsroom's view only; never on a published one). */
  ownerId?: string;
  /** Under live coverage now ("AO VIVO" on its card); absent otherwise. */
  live?: true;
  /** The match's score, while its coverage is live or once it ended; absent for a story without a scoreboard. */
  score?: CardScore;
  /** A match announced and not started yet: its kickoff (ISO-8601), shown on the card. */
  kickoff?: string;
}

/** A news item as the article page shows it. */
export interface NewsArticle extends NewsSummary {
  /** The body's plain text. */
  fullContent: string;
  /** The body as structured content: what the article page renders. */
  body: RichDoc;
  updatedAt: string;
  /** The last save that changed the title, subtitle or body (null: none since it was written). */
  textUpdatedAt: string | null;
  /** Goes up on every save; sent back with a save so that one based on an older version is refused. */
  version: number;
  mediaId: string | null;
}

export interface SponsorView {
  id: string;
  name: string;
  /** https address, or null. */
  link: string | null;
  /** Display order, 1 = first. */
  position: number;
  /** Calendar dates (YYYY-MM-DD, site time zone, both included) of the window readers see it in; null = open. */
  activeFrom: string | null;
  activeUntil: string | null;
  /** Whether readers see it today (inside its window). */
  active: boolean;
  createdAt: string;
  image: MediaView | null;
}

export { API_PAGE_SIZE, API_PAGE_SIZE_MAX, LIST_PAGE_SIZE } from "./limits.ts";

/** Whether `a` comes after `b` in the list's order (newest first, ties by id): the keyset order of the pages. */
export function isListedAfter(a: Pick<NewsSummary, "publishedAt" | "id">, b: Pick<NewsSummary, "publishedAt" | "id">): boolean {
  return a.publishedAt < b.publishedAt || (a.publishedAt === b.publishedAt && a.id < b.id);
}
