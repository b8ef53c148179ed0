import { href } from "react-router";
import { boundedMemo } from "./bounded-memo.ts";

/** Accents folded ("Seleção" → "selecao"), lower case, every run of other characters one hyphen, none at the ends. */
export function foldToSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * A readable URL segment from a title: accents folded ("Seleção" → "selecao"), lower case, words joined by hyphens,
 * at most `max` characters (cut at a word boundary). Empty when nothing readable is left.
 */
export function slugify(text: string, max = 80): string {
  const slug = foldToSlug(text);
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const lastHyphen = cut.lastIndexOf("-");
  return (lastHyphen > max / 2 ? cut.slice(0, lastHyphen) : slug.slice(0, max)).replace(/-+$/, "");
}

/** slugify(title), remembered: every card of every page asks for its story's slug (1.2 % of an uncached home's CPU). */
const titleSlug = boundedMemo((title) => slugify(title));

/** A story's path without its slug, remembered likewise: href() costs some ten times the template it replaced. */
const storyBase = boundedMemo((id) => href("/article/:id/:slug?", { id }));

/** The path of an article: `/article/{id}/{slug}` (just `/article/{id}` when the title has nothing to slug). */
export function articlePath(article: { id: string; title: string }): string {
  const slug = titleSlug(article.title);
  // The route's optional last segment; a slug (letters, digits, hyphens) has nothing to escape.
  return slug ? `${storyBase(article.id)}/${slug}` : storyBase(article.id);
}

/** termPath's answers by kind, remembered like a story's path (a card has its category's, the menu its sections'). */
const termPaths = {
  category: boundedMemo((slug) => href("/categoria/:slug", { slug })),
  author: boundedMemo((slug) => href("/autor/:slug", { slug })),
  team: boundedMemo((slug) => href("/time/:slug", { slug })),
};

/** The page listing a category's, an author's or a club's news: `/categoria/{slug}`, `/autor/{slug}`, `/time/{slug}`. */
export function termPath(kind: "category" | "author" | "team", slug: string): string {
  return termPaths[kind](slug);
}

/** The RSS feed of a category's or a club's stories (/categoria/{slug}/rss.xml, /time/{slug}/rss.xml). */
export function termFeedPath(kind: "category" | "team", slug: string): string {
  return kind === "category" ? href("/categoria/:slug/rss.xml", { slug }) : href("/time/:slug/rss.xml", { slug });
}
