import type { MediaView } from "./media-view.ts";

/** A news item as list pages show it (no full text). */
export interface NewsSummary {
  id: string;
  title: string;
  subtitle: string;
  category: string;
  author: string;
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
