import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RichText } from "#app/components/news/rich-text.tsx";
import { t } from "#app/i18n/newsroom.ts";
import { NEWS_BODY_MAX_CHARS, NEWS_BODY_MAX_DEPTH, NEWS_LIMITS } from "#app/lib/limits.ts";
import { newsFormSchema, newsInputSchema } from "#app/lib/news-schema.ts";
import { docToPlainText, isEmptyDoc, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { type RichDoc, safeHref } from "#app/lib/rich-text.ts";
import { checkRichDoc } from "#app/lib/rich-text-schema.ts";

const SITE = "https://esporte.example";
const text = (value: string, marks?: unknown[]) => (marks ? { type: "text", text: value, marks } : { type: "text", text: value });
const paragraph = (...content: unknown[]) => ({ type: "paragraph", content });
const doc = (...content: unknown[]) => ({ type: "doc", content });
const html = (value: RichDoc) => renderToStaticMarkup(createElement(RichText, { doc: value, siteUrl: SITE }));

/** What the editor (Tiptap 3) sends for a document with every block and mark, default attributes included. */
const fromEditor = doc(
  { type: "heading", attrs: { level: 2 }, content: [text("Intertítulo")] },
  {
    type: "paragraph",
    content: [
      text("forte", [{ type: "bold" }]),
      text(" e "),
      text("inclinado", [{ type: "italic" }]),
      { type: "hardBreak" },
      text("link", [{ type: "link", attrs: { href: "https://example.org/a", target: null, rel: null, class: null, title: null } }]),
    ],
  },
  {
    type: "bulletList",
    content: [
      { type: "listItem", content: [paragraph(text("um"))] },
      { type: "listItem", content: [paragraph(text("dois"))] },
    ],
  },
  { type: "orderedList", attrs: { start: 3, type: null }, content: [{ type: "listItem", content: [paragraph(text("três"))] }] },
  { type: "blockquote", content: [paragraph(text("citação"))] },
  { type: "horizontalRule" },
  { type: "heading", attrs: { level: 3 }, content: [text("Menor")] },
  { type: "paragraph" },
);

describe("the body's validator (allow-list of nodes, marks and attributes)", () => {
  it("takes what the editor writes, dropping the attributes it adds by default and the empty paragraph at the end", () => {
    const result = checkRichDoc(fromEditor);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const link = (result.doc.content[1] as { content: Array<{ marks?: unknown[] }> }).content[4]!.marks;
    expect(link).toEqual([{ type: "link", attrs: { href: "https://example.org/a" } }]);
    expect(result.doc.content).toHaveLength(fromEditor.content.length - 1);
    expect(result.doc.content[3]).toEqual({
      type: "orderedList",
      attrs: { start: 3 },
      content: [{ type: "listItem", content: [paragraph(text("três"))] }],
    });
    // The same document as JSON text (the form field) passes the same way.
    expect(checkRichDoc(JSON.stringify(fromEditor))).toEqual(result);
  });

  it.each([
    ["an unknown node", doc({ type: "codeBlock", content: [text("x")] })],
    ["a script node", doc({ type: "script", text: "alert(1)" })],
    ["an image node (not in the schema yet)", doc({ type: "image", attrs: { src: "https://example.org/x.png" } })],
    ["an unknown mark", doc(paragraph(text("x", [{ type: "strike" }])))],
    ["a mark with attributes it does not have", doc(paragraph(text("x", [{ type: "bold", attrs: { style: "color:red" } }])))],
    ["an unknown attribute", doc(paragraph(text("x", [{ type: "link", attrs: { href: "https://a.b", onclick: "alert(1)" } }])))],
    ["an attribute on a paragraph", doc({ type: "paragraph", attrs: { style: "x" }, content: [text("x")] })],
    ["an unknown key on a node", doc({ type: "paragraph", html: "<b>x</b>", content: [text("x")] })],
    ["a heading level 1", doc({ type: "heading", attrs: { level: 1 }, content: [text("x")] })],
    ["a block inside a paragraph", doc(paragraph(paragraph(text("x"))))],
    ["text at the top level", doc(text("x"))],
    ["a list item outside a list", doc({ type: "listItem", content: [paragraph(text("x"))] })],
    [
      "a list item not starting with a paragraph",
      doc({ type: "bulletList", content: [{ type: "listItem", content: [{ type: "horizontalRule" }] }] }),
    ],
    ["an empty list", doc({ type: "bulletList", content: [] })],
    ["the same mark twice", doc(paragraph(text("x", [{ type: "bold" }, { type: "bold" }])))],
    ["not a document", { type: "paragraph", content: [] }],
    ["an array", [doc()]],
    ["broken JSON", '{"type":"doc","content":['],
  ])("refuses %s", (_name, value) => {
    expect(checkRichDoc(value)).toEqual({ ok: false, message: t.richText.invalid });
  });

  it.each([
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:x",
    "/relativo",
    "//example.org",
    "ftp://example.org",
    "https://user:pw@example.org",
  ])("refuses a link to %s", (href) => {
    const result = checkRichDoc(doc(paragraph(text("x", [{ type: "link", attrs: { href } }]))));
    expect(result).toEqual({ ok: false, message: t.richText.invalidLink(href) });
  });

  it("takes http, https and mailto links (normalised by the URL parser)", () => {
    expect(safeHref("https://example.org")).toBe("https://example.org/");
    expect(safeHref("http://example.org/a b")).toBe("http://example.org/a%20b");
    expect(safeHref("mailto:redacao@example.org")).toBe("mailto:redacao@example.org");
  });

  it("refuses a document larger than the limit, and nesting deeper than the limit", () => {
    const big = doc(paragraph(text("x".repeat(NEWS_BODY_MAX_CHARS))));
    expect(checkRichDoc(big)).toEqual({ ok: false, message: t.richText.tooLarge });
    expect(checkRichDoc(JSON.stringify(big))).toEqual({ ok: false, message: t.richText.tooLarge });
    let nested: unknown = paragraph(text("fundo"));
    for (let depth = 0; depth < NEWS_BODY_MAX_DEPTH + 1; depth++) nested = { type: "blockquote", content: [nested] };
    expect(checkRichDoc(doc(nested))).toEqual({ ok: false, message: t.richText.invalid });
    // A hostile nesting far deeper than any stack: refused, not a crash.
    const deep = `${'{"type":"doc","content":['.repeat(1)}${'{"type":"blockquote","content":['.repeat(10_000)}${"]}".repeat(10_001)}`;
    expect(checkRichDoc(deep)).toEqual({ ok: false, message: t.richText.invalid });
  });

  it("in the form and the API: the text is cleaned and held to the body's limit and character rules; an empty document is no body", () => {
    const base = { title: "T", subtitle: "S", category: "Futebol" };
    const long = newsInputSchema.safeParse({ ...base, body: doc(paragraph(text("x".repeat(NEWS_LIMITS.fullContent + 1)))) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.message).toBe(t.newsForm.tooLong(t.newsForm.fieldLabel.fullContent, NEWS_LIMITS.fullContent));
    const control = newsInputSchema.parse({ ...base, body: doc(paragraph(text("a\u0007b\u00A0\u00A0c"))) });
    expect(control.body).toEqual(doc(paragraph(text("ab c"))));
    const privateUse = newsInputSchema.safeParse({ ...base, body: doc(paragraph(text("a \uE000b"))) });
    expect(privateUse.error?.issues[0]?.message).toBe(t.newsForm.unsaveableCharacter(t.newsForm.fieldLabel.fullContent, "\uE000b", "U+E000"));
    // The SPEC's message for a missing body, for an empty editor as for an empty textarea.
    for (const sent of [{ body: doc({ type: "paragraph" }) }, { body: JSON.stringify(doc()) }, { fullContent: "  " }, {}]) {
      const parsed = newsFormSchema.safeParse({ ...base, ...sent });
      expect(parsed.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([["fullContent", t.newsForm.fullContentRequired]]);
    }
    expect(newsFormSchema.safeParse({ ...base, body: JSON.stringify(fromEditor) }).success).toBe(true);
    expect(newsFormSchema.safeParse({ ...base, fullContent: "Texto." }).success).toBe(true);
  });
});

describe("plain text ↔ document", () => {
  it("a blank line separates paragraphs, a single line break is a line break; nothing is interpreted", () => {
    expect(plainTextToDoc("Um\nlinha dois\r\n\r\n\n  <b>Dois</b> **x**  \n\n")).toEqual(
      doc(paragraph(text("Um"), { type: "hardBreak" }, text("linha dois")), paragraph(text("<b>Dois</b> **x**"))),
    );
    expect(plainTextToDoc("")).toEqual(doc());
    expect(plainTextToDoc("a\n\n\nb")).toEqual(doc(paragraph(text("a")), paragraph(text("b"))));
  });

  it("the plain text of a document: blocks a blank line apart, list items one a line, the rule left out", () => {
    const result = checkRichDoc(fromEditor);
    if (!result.ok) throw new Error(result.message);
    expect(docToPlainText(result.doc)).toBe("Intertítulo\n\nforte e inclinado\nlink\n\n• um\n• dois\n\n3. três\n\ncitação\n\nMenor");
    const plain = "Primeiro parágrafo.\nCom quebra.\n\nSegundo.";
    expect(docToPlainText(plainTextToDoc(plain))).toBe(plain);
    expect(isEmptyDoc(doc({ type: "paragraph" }, paragraph(text(" \u200B "))) as RichDoc)).toBe(true);
    expect(isEmptyDoc(plainTextToDoc("x"))).toBe(false);
  });
});

describe("the renderer (React elements, never HTML from the text)", () => {
  it("renders every block and mark; text is escaped", () => {
    const result = checkRichDoc(fromEditor);
    if (!result.ok) throw new Error(result.message);
    expect(html(result.doc)).toBe(
      "<h2>Intertítulo</h2>" +
        '<p><strong>forte</strong> e <em>inclinado</em><br/><a href="https://example.org/a" rel="noopener noreferrer nofollow">link</a></p>' +
        "<ul><li><p>um</p></li><li><p>dois</p></li></ul>" +
        '<ol start="3"><li><p>três</p></li></ol>' +
        "<blockquote><p>citação</p></blockquote><hr/><h3>Menor</h3>",
    );
    expect(html(plainTextToDoc('<script>alert("x")</script>'))).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>");
  });

  it("a link to the site itself has no rel; a link that is not http/https/mailto is plain text even if stored", () => {
    const stored = doc(
      paragraph(
        text("casa", [{ type: "link", attrs: { href: `${SITE}/news-list` } }]),
        text(" mal", [{ type: "link", attrs: { href: "javascript:alert(1)" } }]),
        text(" negrito no link", [{ type: "bold" }, { type: "link", attrs: { href: "mailto:a@b.c" } }]),
      ),
    ) as RichDoc;
    expect(html(stored)).toBe(
      `<p><a href="${SITE}/news-list">casa</a> mal<a href="mailto:a@b.c" rel="noopener noreferrer nofollow"><strong> negrito no link</strong></a></p>`,
    );
  });

  it("a line that is only a post's link is that post's embed, as in the plain-text bodies", () => {
    const out = html(plainTextToDoc("Antes.\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\nDepois."));
    expect(out).toMatch(/^<p>Antes\.<\/p><figure[^>]*data-embed="youtube".*<\/figure><p>Depois\.<\/p>$/);
  });
});
