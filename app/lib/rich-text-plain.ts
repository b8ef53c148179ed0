import { t } from "#app/i18n/pt-BR.ts";
import { embedFromStored } from "./embeds.ts";
import type { RichBlock, RichDoc, RichImage, RichInline } from "./rich-text.ts";

/**
 * A news body (app/lib/rich-text.ts) to and from plain text: the old bodies' rule, the JSON API's `fullContent`, the
 * no-JavaScript form, and the text that search, JSON-LD, summaries and the revision diff read.
 */

/**
 * Plain text as a document, the rule the old body followed: a blank line separates paragraphs, a single line break
 * is a line break inside the paragraph. Nothing is interpreted (no Markdown, no HTML).
 */
export function plainTextToDoc(text: string): RichDoc {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
  return {
    type: "doc",
    content: paragraphs.map((paragraph) => {
      const content: RichInline[] = [];
      paragraph.split("\n").forEach((line, index) => {
        if (index > 0) content.push({ type: "hardBreak" });
        if (line !== "") content.push({ type: "text", text: line });
      });
      return { type: "paragraph", content };
    }),
  };
}

function inlineText(content: RichInline[] | undefined): string {
  return (content ?? []).map((node) => (node.type === "text" ? node.text : "\n")).join("");
}

function blockText(block: RichBlock): string[] {
  switch (block.type) {
    case "paragraph":
    case "heading":
      return [inlineText(block.content)];
    case "blockquote":
      return block.content.flatMap(blockText);
    case "bulletList":
    case "orderedList": {
      const start = block.type === "orderedList" ? (block.attrs?.start ?? 1) : 1;
      const items = block.content.map((item, index) => {
        const marker = block.type === "orderedList" ? `${start + index}.` : "•";
        return `${marker} ${item.content.flatMap(blockText).join("\n")}`;
      });
      return [items.join("\n")];
    }
    case "horizontalRule":
      return [];
    case "image":
      // The description, then the caption and the credit as the page shows them: searchable, and kept by a no-JS
      // save that leaves the text as it was (the image itself only lives in the structured body).
      return [[block.attrs.alt, imageCaptionLine(block.attrs)].filter((line) => line !== "").join("\n")];
    case "embed":
      // The post's address alone on its line: what the plain-text bodies embed, so the text round-trips.
      return [embedFromStored(block.attrs.provider, block.attrs.id)?.href ?? ""];
  }
}

/** An image's caption and credit as one line, "Legenda — Foto: Crédito" (either may be missing; "" when both are). */
export function imageCaptionLine(attrs: RichImage["attrs"]): string {
  return [attrs.caption, attrs.credit ? t.article.credit("image", attrs.credit) : ""].filter(Boolean).join(" — ");
}

/** The media ids of the document's images, each once, in order (nested ones too). */
export function bodyMediaIds(doc: RichDoc): string[] {
  const ids = new Set<string>();
  const visit = (blocks: RichBlock[]) => {
    for (const block of blocks) {
      if (block.type === "image") ids.add(block.attrs.mediaId);
      else if (block.type === "blockquote") visit(block.content);
      else if (block.type === "bulletList" || block.type === "orderedList") for (const item of block.content) visit(item.content);
    }
  };
  visit(doc.content);
  return [...ids];
}

/**
 * The document's text: blocks separated by a blank line, line breaks kept, a list one item per line ("•" or its
 * number). What search indexes, JSON-LD's `articleBody`, summaries and the revision diff use. For a document made
 * by `plainTextToDoc` it gives the same paragraphs back.
 */
export function docToPlainText(doc: RichDoc): string {
  return doc.content
    .flatMap(blockText)
    .filter((text) => text.trim() !== "")
    .join("\n\n");
}

/** Whether the document has no visible text (an empty editor): the body counts as not filled in. */
export function isEmptyDoc(doc: RichDoc): boolean {
  return (
    docToPlainText(doc)
      .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, "")
      .trim() === ""
  );
}
