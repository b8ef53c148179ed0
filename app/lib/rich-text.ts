/**
 * A news item's body as structured content: the ProseMirror JSON the newsroom's editor (Tiptap) writes, restricted
 * to the node and mark types below (rich-text-schema.ts checks it on the server). Nothing here is HTML: the article
 * page, the RSS feed, JSON-LD, the search index, the summary and the revision diff all read this document, either
 * through the renderer (app/components/news/rich-text.tsx) or through `docToPlainText` (rich-text-plain.ts).
 *
 * Small on purpose: the reader's article page imports this file (the plain-text functions, which readers' browsers
 * never need, are in rich-text-plain.ts).
 */

export type RichMark = { type: "bold" } | { type: "italic" } | { type: "link"; attrs: { href: string } };
export type RichInline = { type: "text"; text: string; marks?: RichMark[] } | { type: "hardBreak" };
export type RichListItem = { type: "listItem"; content: RichBlock[] };
export type RichBlock =
  | { type: "paragraph"; content?: RichInline[] }
  | { type: "heading"; attrs: { level: 2 | 3 }; content?: RichInline[] }
  | { type: "blockquote"; content: RichBlock[] }
  | { type: "bulletList"; content: RichListItem[] }
  | { type: "orderedList"; attrs?: { start: number }; content: RichListItem[] }
  | { type: "horizontalRule" }
  | RichImage
  | RichEmbed;
/**
 * An image of the body: a media item of our store (uploaded through the media pipeline, named by its id, never by an
 * address), its description (the `alt`, required), and an optional caption and credit ("Foto: …").
 */
export interface RichImage {
  type: "image";
  attrs: { mediaId: string; alt: string; caption?: string; credit?: string };
}
/** A post of YouTube, Instagram, X or TikTok: the provider and the post's id as lib/embeds.ts reads them. */
export interface RichEmbed {
  type: "embed";
  attrs: { provider: "youtube" | "instagram" | "x" | "tiktok"; id: string };
}
export interface RichDoc {
  type: "doc";
  content: RichBlock[];
}

/** The protocols a link may use. */
export const LINK_PROTOCOLS = ["http:", "https:", "mailto:"] as const;

/** A link's address when it is http, https or mailto (normalised by the URL parser), else null. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (trimmed === "" || trimmed.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (!(LINK_PROTOCOLS as readonly string[]).includes(url.protocol)) return null;
  if (url.protocol !== "mailto:" && (!url.hostname || url.username || url.password)) return null;
  return url.href;
}

/** Whether `href` points at the site itself (`siteUrl`'s origin): such links are not marked nofollow. */
export function isOwnSite(href: string, siteUrl: string): boolean {
  try {
    return new URL(href).origin === new URL(siteUrl).origin;
  } catch {
    return false;
  }
}
