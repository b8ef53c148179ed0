import { t } from "#app/i18n/newsroom.ts";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { embedFromStored } from "./embeds.ts";
import { cleanText, findUnsaveableCharacter } from "./clean-text.ts";
import { NEWS_BODY_MAX_CHARS, NEWS_BODY_MAX_DEPTH, NEWS_BODY_MAX_IMAGES, NEWS_LIMITS } from "./limits.ts";
import type { RichBlock, RichDoc, RichInline, RichListItem, RichMark } from "./rich-text.ts";
import { safeHref } from "./rich-text.ts";
import { z } from "./zod.ts";

/**
 * The server's check of a structured body (the editor's ProseMirror JSON, or a JSON API client's): an allow-list of
 * node types, mark types and attributes, each node where the schema allows it, links http/https/mailto only, at most
 * NEWS_BODY_MAX_CHARS of JSON and NEWS_BODY_MAX_DEPTH levels of nesting. Anything else is refused (never "cleaned"
 * into something the author did not write); only the texts are cleaned of what nobody can see (app/lib/clean-text.ts). What passes is rebuilt from the checked parts only: attributes the
 * editor adds by default (a link's target, rel, class) are dropped, the renderer decides those.
 */

class Refused extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

const nullable = z.union([z.string(), z.null()]).optional();
const linkAttrs = z.strictObject({ href: z.string(), target: nullable, rel: nullable, class: nullable, title: nullable });
const headingAttrs = z.strictObject({ level: z.union([z.literal(2), z.literal(3)]) });
const orderedAttrs = z.strictObject({ start: z.number().int().min(1).max(100_000).optional(), type: nullable });
/** A media item's id (the pipeline's UUIDs; nothing that could be read as a path or an address). */
const MEDIA_ID = /^[A-Za-z0-9_-]{1,64}$/;
const imageAttrs = z.strictObject({ mediaId: z.string().regex(MEDIA_ID), alt: z.string(), caption: nullable, credit: nullable });
const embedAttrs = z.strictObject({ provider: z.string(), id: z.string() });

/**
 * One text of an image (description, caption, credit): cleaned (app/lib/clean-text.ts) on one line, spaces collapsed,
 * trimmed, bounded; refused only for a character that cannot be cleaned, naming its word.
 */
function imageText(value: string | null | undefined, label: string, max: number, tooLong: string): string {
  const text = cleanText(value ?? "", { lines: false })
    .replace(/\s+/g, " ")
    .trim();
  const unsaveable = findUnsaveableCharacter(text);
  if (unsaveable) throw new Refused(t.newsForm.unsaveableCharacter(label, unsaveable.word, unsaveable.codePoint));
  if (text.length > max) throw new Refused(tooLong);
  return text;
}

function image(node: Record<string, unknown>): RichBlock {
  noChildren(node);
  const attrs = attrsOf(node, imageAttrs);
  if (!attrs) throw new Refused(t.richText.invalid);
  const label = blocksText.imageTextLabel;
  const alt = imageText(attrs.alt, label.alt, NEWS_LIMITS.mediaDescription, blocksText.altTooLong(NEWS_LIMITS.mediaDescription));
  if (alt === "") throw new Refused(blocksText.altRequired);
  const caption = imageText(attrs.caption, label.caption, NEWS_LIMITS.mediaCaption, blocksText.captionTooLong(NEWS_LIMITS.mediaCaption));
  const credit = imageText(attrs.credit, label.credit, NEWS_LIMITS.mediaCredit, blocksText.creditTooLong(NEWS_LIMITS.mediaCredit));
  return { type: "image", attrs: { mediaId: attrs.mediaId, alt, ...(caption ? { caption } : {}), ...(credit ? { credit } : {}) } };
}

function embed(node: Record<string, unknown>): RichBlock {
  noChildren(node);
  const attrs = attrsOf(node, embedAttrs);
  if (!attrs) throw new Refused(t.richText.invalid);
  const found = embedFromStored(attrs.provider, attrs.id);
  if (!found) throw new Refused(blocksText.embedInvalid);
  return { type: "embed", attrs: { provider: found.provider, id: found.id } };
}

/** The keys a node may have besides `type`. */
const NODE_KEYS = new Set(["type", "attrs", "content", "marks", "text"]);

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Refused(t.richText.invalid);
  for (const key of Object.keys(value)) if (!NODE_KEYS.has(key)) throw new Refused(t.richText.invalid);
  return value as Record<string, unknown>;
}

function list(value: unknown, optional: boolean): unknown[] {
  if (value === undefined && optional) return [];
  if (!Array.isArray(value)) throw new Refused(t.richText.invalid);
  return value;
}

/** Attributes: absent, or exactly those `schema` allows (an empty object or null counts as absent where allowed). */
function attrsOf<T>(node: Record<string, unknown>, schema: z.ZodType<T> | null): T | undefined {
  const attrs = node.attrs;
  if (attrs === undefined || attrs === null) return undefined;
  if (!schema) {
    if (typeof attrs === "object" && !Array.isArray(attrs) && Object.keys(attrs).length === 0) return undefined;
    throw new Refused(t.richText.invalid);
  }
  const parsed = schema.safeParse(attrs);
  if (!parsed.success) throw new Refused(t.richText.invalid);
  return parsed.data;
}

function noChildren(node: Record<string, unknown>) {
  if (node.content !== undefined || node.text !== undefined || node.marks !== undefined) throw new Refused(t.richText.invalid);
}

function mark(value: unknown): RichMark {
  const node = record(value);
  if (node.content !== undefined || node.text !== undefined || node.marks !== undefined) throw new Refused(t.richText.invalid);
  switch (node.type) {
    case "bold":
    case "italic":
      attrsOf(node, null);
      return { type: node.type };
    case "link": {
      const attrs = attrsOf(node, linkAttrs);
      if (!attrs) throw new Refused(t.richText.invalid);
      const href = safeHref(attrs.href);
      if (!href) throw new Refused(t.richText.invalidLink(attrs.href));
      return { type: "link", attrs: { href } };
    }
    default:
      throw new Refused(t.richText.invalid);
  }
}

function inline(value: unknown): RichInline | null {
  const node = record(value);
  if (node.type === "hardBreak") {
    attrsOf(node, null);
    noChildren(node);
    return { type: "hardBreak" };
  }
  if (node.type !== "text" || typeof node.text !== "string" || node.content !== undefined) throw new Refused(t.richText.invalid);
  attrsOf(node, null);
  const marks = list(node.marks, true).map(mark);
  const types = new Set(marks.map((each) => each.type));
  if (types.size !== marks.length) throw new Refused(t.richText.invalid);
  // Cleaned (app/lib/clean-text.ts); a line break inside a text node is not something the editor writes: it reads as
  // a space. A character that cannot be cleaned is left for the caller's check of the whole text, which names its word.
  const text = cleanText(node.text, { lines: false });
  if (text === "") return null;
  return marks.length > 0 ? { type: "text", text, marks } : { type: "text", text };
}

function inlineContent(node: Record<string, unknown>): RichInline[] {
  return list(node.content, true)
    .map(inline)
    .filter((each): each is RichInline => each !== null);
}

function listItem(value: unknown, depth: number): RichListItem {
  const node = record(value);
  if (node.type !== "listItem") throw new Refused(t.richText.invalid);
  attrsOf(node, null);
  const content = blocks(node.content, depth + 1, false);
  if (content[0]?.type !== "paragraph") throw new Refused(t.richText.invalid);
  return { type: "listItem", content };
}

function block(value: unknown, depth: number): RichBlock {
  if (depth > NEWS_BODY_MAX_DEPTH) throw new Refused(t.richText.invalid);
  const node = record(value);
  switch (node.type) {
    case "paragraph": {
      attrsOf(node, null);
      const content = inlineContent(node);
      return content.length > 0 ? { type: "paragraph", content } : { type: "paragraph" };
    }
    case "heading": {
      const attrs = attrsOf(node, headingAttrs);
      if (!attrs) throw new Refused(t.richText.invalid);
      const content = inlineContent(node);
      return content.length > 0 ? { type: "heading", attrs: { level: attrs.level }, content } : { type: "heading", attrs: { level: attrs.level } };
    }
    case "blockquote":
      attrsOf(node, null);
      return { type: "blockquote", content: blocks(node.content, depth + 1, false) };
    case "bulletList":
      attrsOf(node, null);
      return { type: "bulletList", content: listItems(node, depth) };
    case "orderedList": {
      const start = attrsOf(node, orderedAttrs)?.start ?? 1;
      return start === 1
        ? { type: "orderedList", content: listItems(node, depth) }
        : { type: "orderedList", attrs: { start }, content: listItems(node, depth) };
    }
    case "horizontalRule":
      attrsOf(node, null);
      noChildren(node);
      return { type: "horizontalRule" };
    case "image":
      return image(node);
    case "embed":
      return embed(node);
    default:
      throw new Refused(t.richText.invalid);
  }
}

function listItems(node: Record<string, unknown>, depth: number): RichListItem[] {
  const items = list(node.content, false).map((item) => listItem(item, depth + 1));
  if (items.length === 0) throw new Refused(t.richText.invalid);
  return items;
}

function blocks(value: unknown, depth: number, mayBeEmpty: boolean): RichBlock[] {
  const content = list(value, mayBeEmpty).map((each) => block(each, depth));
  if (content.length === 0 && !mayBeEmpty) throw new Refused(t.richText.invalid);
  return content;
}

function countImages(content: RichBlock[]): number {
  let count = 0;
  for (const each of content) {
    if (each.type === "image") count++;
    else if (each.type === "blockquote") count += countImages(each.content);
    else if (each.type === "bulletList" || each.type === "orderedList") for (const item of each.content) count += countImages(item.content);
  }
  return count;
}

/** A checked document, or the pt-BR reason it was refused. `value` is the JSON text (a form field) or its value. */
export function checkRichDoc(value: unknown): { ok: true; doc: RichDoc } | { ok: false; message: string } {
  try {
    let parsed = value;
    if (typeof value === "string") {
      if (value.length > NEWS_BODY_MAX_CHARS) throw new Refused(t.richText.tooLarge);
      try {
        parsed = JSON.parse(value);
      } catch {
        throw new Refused(t.richText.invalid);
      }
    } else if (JSON.stringify(value ?? null).length > NEWS_BODY_MAX_CHARS) throw new Refused(t.richText.tooLarge);
    const root = record(parsed);
    if (root.type !== "doc") throw new Refused(t.richText.invalid);
    attrsOf(root, null);
    if (root.text !== undefined || root.marks !== undefined) throw new Refused(t.richText.invalid);
    const content = blocks(root.content, 1, true);
    if (countImages(content) > NEWS_BODY_MAX_IMAGES) throw new Refused(blocksText.tooManyImages(NEWS_BODY_MAX_IMAGES));
    // The empty paragraphs the editor keeps at the end (to type after a list or a rule) are not content.
    while (content.length > 0 && content.at(-1)?.type === "paragraph" && !(content.at(-1) as { content?: unknown[] }).content) content.pop();
    return { ok: true, doc: { type: "doc", content } };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.reason };
    // A nesting deep enough to exhaust the stack before the depth check (it cannot: the check comes first) or a
    // getter throwing: refused all the same.
    return { ok: false, message: t.richText.invalid };
  }
}

/** The structured body as a zod field: the JSON text or value in, the checked document out. */
export const richDocSchema = z.unknown().transform((value, ctx) => {
  const result = checkRichDoc(value);
  if (result.ok) return result.doc;
  ctx.addIssue({ code: "custom", message: result.message });
  return z.NEVER;
});
