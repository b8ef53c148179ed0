import { Fragment, type Node as PmNode, Slice } from "@tiptap/pm/model";
import type { EditorView } from "@tiptap/pm/view";
import { parseEmbedUrl } from "#app/lib/embeds.ts";

/**
 * What a paste from Google Docs, Word or a web page keeps of its structure in the body editor (the body-editor chunk;
 * the cleaning of its characters is clean-pasted-slice.ts):
 * - headings become our two subheads: the paste's highest level is h2, the next ones h3 (Google Docs' "Título 1" and
 *   "Título 2" are h1 and h2; a web page's subheads are usually h2 and h3), instead of plain paragraphs;
 * - a table becomes one paragraph per row, its cells joined by " — " (a header row in bold): "Palmeiras — 70", not
 *   "TimePtsPalmeiras70";
 * - images and embedded frames the editor cannot keep (only its own blocks and the store's images are kept) are
 *   counted, so the editor can say what was left out and how to add it;
 * - bold and italic in inline styles (Google Docs' `font-weight:700` spans), lists and absolute links are the
 *   schema's own parsing; a relative link has no address here and stays text (safeHref).
 */

/** What a paste left out. */
export interface PasteLeftOut {
  images: number;
  frames: number;
}

const CELL_SEPARATOR = " — ";

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Each heading as one of our two levels, by its rank among the levels the paste uses. */
function mapHeadings(root: ParentNode, doc: Document): void {
  const headings = [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  const levels = [...new Set(headings.map((heading) => Number(heading.tagName[1])))].sort();
  for (const heading of headings) {
    const rank = levels.indexOf(Number(heading.tagName[1]));
    const replacement = doc.createElement(rank === 0 ? "h2" : "h3");
    replacement.append(...heading.childNodes);
    heading.replaceWith(replacement);
  }
}

/** Each table as paragraphs, one per row (innermost tables first, so a nested one is a row's text). */
function flattenTables(root: ParentNode, doc: Document): void {
  const tables = [...root.querySelectorAll("table")].reverse();
  for (const table of tables) {
    const paragraphs: HTMLElement[] = [];
    for (const row of table.querySelectorAll("tr")) {
      if (row.closest("table") !== table) continue;
      const cells = [...row.children].filter((cell) => cell.tagName === "TD" || cell.tagName === "TH");
      const texts = cells.map((cell) => collapse(cell.textContent ?? "")).filter((text) => text !== "");
      if (texts.length === 0) continue;
      const paragraph = doc.createElement("p");
      const header = row.parentElement?.tagName === "THEAD" || cells.every((cell) => cell.tagName === "TH");
      if (header) {
        const strong = doc.createElement("strong");
        strong.textContent = texts.join(CELL_SEPARATOR);
        paragraph.append(strong);
      } else paragraph.textContent = texts.join(CELL_SEPARATOR);
      paragraphs.push(paragraph);
    }
    table.replaceWith(...paragraphs);
  }
}

/** The pasted HTML with its headings and tables in our terms; `leftOut` hears what the editor will not keep. */
export function structurePastedHtml(html: string, leftOut: (counts: PasteLeftOut) => void): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const body = doc.body;
  // The editor's own copies (an image or embed block copied inside the body) are kept by its parsing.
  const images = [...body.querySelectorAll("img")].filter((image) => !image.closest("figure[data-body-image]")).length;
  const frames = body.querySelectorAll("iframe, video, embed, object").length;
  mapHeadings(body, doc);
  flattenTables(body, doc);
  if (images > 0 || frames > 0) leftOut({ images, frames });
  return body.innerHTML;
}

/** A paragraph whose whole text is the address of a post the body can embed: that embed's node, else null. */
function embedOfParagraph(node: PmNode): PmNode | null {
  if (node.type.name !== "paragraph") return null;
  let onlyText = true;
  node.forEach((child) => {
    if (!child.isText) onlyText = false;
  });
  if (!onlyText) return null;
  const embed = parseEmbedUrl(node.textContent.trim());
  const type = node.type.schema.nodes.embed;
  return embed && type ? type.create({ provider: embed.provider, id: embed.id }) : null;
}

/**
 * A post's address alone on a line becomes its embed block, as the article page shows it: each such line of a
 * pasted text, or a pasted address alone in an empty line of the body. An address pasted inside a sentence stays a
 * link.
 */
export function embedPastedLinks(slice: Slice, view: EditorView): Slice {
  const nodes: PmNode[] = [];
  let changed = false;
  slice.content.forEach((node) => {
    const embed = embedOfParagraph(node);
    nodes.push(embed ?? node);
    if (embed) changed = true;
  });
  if (!changed) return slice;
  // One line pasted inline (an open slice): only when the line it goes to is empty, so it is alone there.
  if (nodes.length === 1 && slice.openStart > 0 && view.state.selection.$from.parent.content.size > 0) return slice;
  const first = nodes[0] !== slice.content.firstChild;
  const last = nodes[nodes.length - 1] !== slice.content.lastChild;
  return new Slice(Fragment.fromArray(nodes), first ? 0 : slice.openStart, last ? 0 : slice.openEnd);
}
