import type { MediaView } from "./media-view.ts";

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
  media: MediaView | null;
}

/** A news item as the article page shows it. */
export interface NewsArticle extends NewsSummary {
  fullContent: string;
  updatedAt: string;
}

export interface SponsorView {
  id: string;
  createdAt: string;
  image: MediaView | null;
}

/** How many cards the list page shows at a time (a screenful or two); the JSON API's default page and its maximum. */
export const LIST_PAGE_SIZE = 24;
export const API_PAGE_SIZE = 50;
export const API_PAGE_SIZE_MAX = 100;

/** Whether `a` comes after `b` in the list's order (newest first, ties by id): the keyset order of the pages. */
export function isListedAfter(a: Pick<NewsSummary, "createdAt" | "id">, b: Pick<NewsSummary, "createdAt" | "id">): boolean {
  return a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
}
