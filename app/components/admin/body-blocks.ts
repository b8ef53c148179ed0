import { href } from "react-router";
import { Node } from "@tiptap/core";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { embedFromStored } from "#app/lib/embeds.ts";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { imageCaptionLine } from "#app/lib/rich-text-plain.ts";

/**
 * The editor's image and embed blocks (Tiptap nodes of the body-editor chunk): atoms that stand for an image of the
 * store (by media id, with description, caption and credit) and a provider's post (provider and id). In the editor
 * they are drawn as a preview; readers get the real thing from app/components/news/rich-text.tsx.
 *
 * Pasted HTML only becomes one of them in the form the editor itself copies (`figure[data-body-image]` and
 * `div[data-embed-block]` with their data attributes): a pasted <img> or <iframe> from elsewhere is dropped. Whatever
 * comes in, the server checks the media id (an image of our store) and the embed (the providers' allow-list).
 */

export const ImageBlock = Node.create({
  name: "image",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return {
      mediaId: { default: null },
      alt: { default: "" },
      caption: { default: null },
      credit: { default: null },
      // The upload's preview address: shown in the editor only, removed before the body is sent (withoutPreviews).
      previewSrc: { default: null },
    };
  },
  parseHTML() {
    return [
      {
        tag: "figure[data-body-image]",
        getAttrs: (element) => {
          const mediaId = element.getAttribute("data-media-id");
          if (!mediaId) return false;
          return {
            mediaId,
            alt: element.getAttribute("data-alt") ?? "",
            caption: element.getAttribute("data-caption"),
            credit: element.getAttribute("data-credit"),
            previewSrc: element.querySelector("img")?.getAttribute("src") ?? null,
          };
        },
      },
    ];
  },
  renderHTML({ node }) {
    const attrs = node.attrs as { mediaId: string; alt: string; caption: string | null; credit: string | null; previewSrc: string | null };
    const line = imageCaptionLine({
      mediaId: attrs.mediaId,
      alt: attrs.alt,
      ...(attrs.caption ? { caption: attrs.caption } : {}),
      ...(attrs.credit ? { credit: attrs.credit } : {}),
    });
    return [
      "figure",
      {
        "data-body-image": "",
        "data-media-id": attrs.mediaId,
        "data-alt": attrs.alt,
        ...(attrs.caption ? { "data-caption": attrs.caption } : {}),
        ...(attrs.credit ? { "data-credit": attrs.credit } : {}),
        "data-testid": "editor-image",
      },
      // A block the editor opened with has no preview address: GET /api/media?id= redirects to its variant.
      ["img", { src: attrs.previewSrc ?? `${href("/api/media")}?id=${encodeURIComponent(attrs.mediaId)}`, alt: attrs.alt }],
      ["figcaption", {}, line || blocksText.imageBlock(attrs.alt)],
    ];
  },
});

export const EmbedBlock = Node.create({
  name: "embed",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return { provider: { default: null }, id: { default: null } };
  },
  parseHTML() {
    return [
      {
        tag: "div[data-embed-block]",
        getAttrs: (element) => {
          const embed = embedFromStored(element.getAttribute("data-provider") ?? "", element.getAttribute("data-id") ?? "");
          return embed ? { provider: embed.provider, id: embed.id } : false;
        },
      },
    ];
  },
  renderHTML({ node }) {
    const embed = embedFromStored(String(node.attrs.provider), String(node.attrs.id));
    const provider = embed ? t.embed.providers[embed.provider] : String(node.attrs.provider);
    return [
      "div",
      { "data-embed-block": "", "data-provider": String(node.attrs.provider), "data-id": String(node.attrs.id), "data-testid": "editor-embed" },
      ["strong", {}, blocksText.embedBlock(provider)],
      ["span", {}, embed?.href ?? ""],
    ];
  },
});

/** The document as the server takes it: the image blocks' preview addresses (the editor's only) removed. */
export function withoutPreviews(doc: RichDoc): RichDoc {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== "object") return value;
    const node = value as { type?: unknown; attrs?: Record<string, unknown>; content?: unknown };
    if (node.type === "image" && node.attrs) {
      const { previewSrc: _preview, ...attrs } = node.attrs;
      return { ...node, attrs };
    }
    return node.content ? { ...node, content: strip(node.content) } : node;
  };
  return strip(doc) as RichDoc;
}
