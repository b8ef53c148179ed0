import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RichText } from "#app/components/news/rich-text.tsx";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { t } from "#app/i18n/newsroom.ts";
import { embedFromStored, parseEmbedUrl } from "#app/lib/embeds.ts";
import { NEWS_BODY_MAX_IMAGES, NEWS_LIMITS } from "#app/lib/limits.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import { newsInputSchema } from "#app/lib/news-schema.ts";
import { bodyMediaIds, docToPlainText, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { checkRichDoc } from "#app/lib/rich-text-schema.ts";
import { withoutPreviews } from "#app/components/admin/body-blocks.ts";

const SITE = "https://esporte.example";
const MEDIA_ID = "0b8f5a52-51f8-4a35-9a55-3f0cfb1c2d10";
const doc = (...content: unknown[]) => ({ type: "doc", content });
const paragraph = (value: string) => ({ type: "paragraph", content: [{ type: "text", text: value }] });
const image = (attrs: Record<string, unknown>) => ({ type: "image", attrs: { mediaId: MEDIA_ID, alt: "Goleiro defende pênalti", ...attrs } });
const checked = (value: unknown): RichDoc => {
  const result = checkRichDoc(value);
  if (!result.ok) throw new Error(result.message);
  return result.doc;
};
const refusal = (value: unknown): string => {
  const result = checkRichDoc(value);
  if (result.ok) throw new Error("accepted");
  return result.message;
};

const VIEW: MediaView = {
  kind: "image",
  src: "/media/m/img/abc/800.jpg",
  mimeType: "image/jpeg",
  width: 1600,
  height: 900,
  srcSet: "/media/m/img/abc/400.jpg 400w, /media/m/img/abc/800.jpg 800w",
  webpSrcSet: "/media/m/img/abc/400.webp 400w, /media/m/img/abc/800.webp 800w",
  largeSrc: "/media/m/img/abc/1600.jpg",
  external: false,
};
const html = (value: RichDoc, media: Record<string, MediaView> = { [MEDIA_ID]: VIEW }, embeds: "interactive" | "links" = "interactive") =>
  renderToStaticMarkup(createElement(RichText, { doc: value, siteUrl: SITE, media, embeds }));

describe("image blocks: the validator", () => {
  it("takes an image with description, caption and credit (what the editor sends, null attributes included)", () => {
    const result = checked(doc(image({ caption: " Defesa  decisiva ", credit: "Ana Lima" }), image({ caption: null, credit: null })));
    expect(result.content).toEqual([
      { type: "image", attrs: { mediaId: MEDIA_ID, alt: "Goleiro defende pênalti", caption: "Defesa decisiva", credit: "Ana Lima" } },
      { type: "image", attrs: { mediaId: MEDIA_ID, alt: "Goleiro defende pênalti" } },
    ]);
  });

  it("refuses an image without a description, with a pt-BR message", () => {
    expect(refusal(doc(image({ alt: "   " })))).toBe(blocksText.altRequired);
    expect(refusal(doc({ type: "image", attrs: { mediaId: MEDIA_ID } }))).toBe(t.richText.invalid);
    // Through the news form's schema: the message lands under `body`.
    const parsed = newsInputSchema.safeParse({ title: "T", subtitle: "S", body: JSON.stringify(doc(image({ alt: "" }))) });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.find((issue) => issue.path[0] === "body")?.message).toBe(blocksText.altRequired);
  });

  it("refuses an address instead of a media id, extra attributes, content and texts too long", () => {
    expect(refusal(doc(image({ mediaId: "https://evil.example/x.png" })))).toBe(t.richText.invalid);
    expect(refusal(doc(image({ mediaId: "../../etc/passwd" })))).toBe(t.richText.invalid);
    expect(refusal(doc(image({ src: "https://evil.example/x.png" })))).toBe(t.richText.invalid);
    expect(refusal(doc({ ...image({}), content: [paragraph("x")] }))).toBe(t.richText.invalid);
    expect(refusal(doc(image({ alt: "a".repeat(NEWS_LIMITS.mediaDescription + 1) })))).toBe(blocksText.altTooLong(NEWS_LIMITS.mediaDescription));
    expect(refusal(doc(image({ credit: "b".repeat(NEWS_LIMITS.mediaCredit + 1) })))).toBe(blocksText.creditTooLong(NEWS_LIMITS.mediaCredit));
    expect(refusal(doc(image({ caption: "Foto do \uE000Galo" })))).toBe(
      t.newsForm.unsaveableCharacter(blocksText.imageTextLabel.caption, "\uE000Galo", "U+E000"),
    );
    expect(refusal(doc(...Array.from({ length: NEWS_BODY_MAX_IMAGES + 1 }, () => image({}))))).toBe(blocksText.tooManyImages(NEWS_BODY_MAX_IMAGES));
  });

  it("lists the media ids of a body, nested ones too, each once", () => {
    const other = "1c2d3e4f-0000-4000-8000-000000000001";
    const value = checked(
      doc(
        image({}),
        { type: "blockquote", content: [image({ mediaId: other })] },
        { type: "bulletList", content: [{ type: "listItem", content: [paragraph("a"), image({})] }] },
      ),
    );
    expect(bodyMediaIds(value)).toEqual([MEDIA_ID, other]);
  });

  it("the editor's preview address is removed before sending", () => {
    const sent = withoutPreviews(doc(image({ previewSrc: "/media/x.webp", caption: null })) as RichDoc);
    expect(checked(sent).content[0]).toEqual({ type: "image", attrs: { mediaId: MEDIA_ID, alt: "Goleiro defende pênalti" } });
  });
});

describe("embed blocks: the validator", () => {
  it("stores provider and id as the link parser reads them", () => {
    for (const url of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.instagram.com/reel/Cx1234567/",
      "https://x.com/cbf_futebol/status/1234567890123456789",
      "https://www.tiktok.com/@clube.oficial/video/7234567890123456789",
    ]) {
      const embed = parseEmbedUrl(url);
      if (!embed) throw new Error(url);
      const stored = checked(doc({ type: "embed", attrs: { provider: embed.provider, id: embed.id } }));
      expect(stored.content[0]).toEqual({ type: "embed", attrs: { provider: embed.provider, id: embed.id } });
      expect(embedFromStored(embed.provider, embed.id)).toEqual(embed);
    }
  });

  it("refuses a provider or an id outside the allow-list, with a pt-BR message", () => {
    expect(refusal(doc({ type: "embed", attrs: { provider: "vimeo", id: "123" } }))).toBe(blocksText.embedInvalid);
    expect(refusal(doc({ type: "embed", attrs: { provider: "youtube", id: "x/../../evil" } }))).toBe(blocksText.embedInvalid);
    expect(refusal(doc({ type: "embed", attrs: { provider: "instagram", id: "p/abc/../../x" } }))).toBe(blocksText.embedInvalid);
    expect(refusal(doc({ type: "embed", attrs: { provider: "x", id: "javascript:alert(1)" } }))).toBe(blocksText.embedInvalid);
    expect(refusal(doc({ type: "embed", attrs: { provider: "constructor", id: "1" } }))).toBe(blocksText.embedInvalid);
    expect(refusal(doc({ type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ", url: "https://evil.example" } }))).toBe(t.richText.invalid);
    expect(parseEmbedUrl("https://evil.example/watch?v=dQw4w9WgXcQ")).toBeNull();
  });
});

describe("image and embed blocks: the renderer and the plain text", () => {
  const body = checked(
    doc(
      paragraph("Antes."),
      image({ caption: "Defesa decisiva", credit: "Ana Lima" }),
      { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
      image({ mediaId: "99999999-0000-4000-8000-000000000000", alt: "Sumiu" }),
    ),
  );

  it("an image is a figure with responsive variants, its size, lazy loading and 'legenda — Foto: crédito'", () => {
    const out = html(body);
    expect(out).toContain(
      '<figure data-body-image=""><picture><source type="image/webp" srcSet="/media/m/img/abc/400.webp 400w, /media/m/img/abc/800.webp 800w"',
    );
    expect(out).toContain(
      '<img src="/media/m/img/abc/800.jpg" srcSet="/media/m/img/abc/400.jpg 400w, /media/m/img/abc/800.jpg 800w" sizes="(min-width: 860px) 772px, calc(100vw - 48px)" width="1600" height="900" alt="Goleiro defende pênalti" loading="lazy" decoding="async"/>',
    );
    expect(out).toContain("<figcaption>Defesa decisiva — Foto: Ana Lima</figcaption>");
    // The embed block renders as today's embed; the image whose media is gone is left out.
    expect(out).toMatch(/<figure[^>]*data-embed="youtube"/);
    expect(out).not.toContain("Sumiu");
  });

  it("only the caption, only the credit, and the feed's form (a plain <img>, the embed as a link)", () => {
    expect(html(checked(doc(image({ caption: "Só legenda" }))))).toContain("<figcaption>Só legenda</figcaption>");
    expect(html(checked(doc(image({ credit: "Ana" }))))).toContain("<figcaption>Foto: Ana</figcaption>");
    expect(html(checked(doc(image({}))))).not.toContain("figcaption");
    const feed = html(body, { [MEDIA_ID]: VIEW }, "links");
    expect(feed).not.toContain("<picture>");
    expect(feed).toContain('<figure data-body-image=""><img src="/media/m/img/abc/800.jpg"');
    expect(feed).toContain('<a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener noreferrer nofollow">');
  });

  it("the plain text (search, summaries, JSON-LD, the diff) has the description, caption and credit and the post's address; it round-trips", () => {
    const plain = docToPlainText(body);
    expect(plain).toBe("Antes.\n\nGoleiro defende pênalti\nDefesa decisiva — Foto: Ana Lima\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nSumiu");
    // The no-JS form compares the text it sent back with this: unchanged, so the stored body is kept.
    expect(docToPlainText(plainTextToDoc(plain))).toBe(plain);
  });
});
