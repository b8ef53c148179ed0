import type { RichBlock, RichDoc, RichInline } from "./rich-text.ts";

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
  }
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
