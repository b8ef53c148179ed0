import { Fragment, type ReactNode } from "react";
import { type Embed, embedFromStored, parseEmbedUrl } from "#app/lib/embeds.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import { isOwnSite, type RichBlock, type RichDoc, type RichImage, type RichInline, safeHref } from "#app/lib/rich-text.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { ContentEmbed } from "./content-embed.tsx";

/**
 * A news body (app/lib/rich-text.ts) as React elements: paragraphs, subheads, bold, italic, links, lists, quotes and
 * rules; text is always a React text child (escaped), never HTML. Rendered on the server, so readers without
 * JavaScript see the formatting. Links leave the site with `rel="noopener noreferrer nofollow"`; links to the site
 * itself (`siteUrl`) keep none. A line that holds nothing but a link to a YouTube, Instagram, X or TikTok post is
 * that post's embed (lib/embeds.ts), as in the plain-text bodies, and so is an embed block; `embeds="links"` (the RSS
 * feed) makes it a link. An image block is a <figure> of the media item it names, looked up in `media` (the
 * server's views of the body's images, body-media.server.ts): responsive variants, its size against layout shift,
 * lazy loading, and "legenda — Foto: crédito" under it; an image whose media is gone is left out.
 */
export function RichText({
  doc,
  siteUrl,
  embeds = "interactive",
  media = {},
}: {
  doc: RichDoc;
  siteUrl: string;
  embeds?: "interactive" | "links";
  media?: Readonly<Record<string, MediaView>>;
}) {
  const context: RenderContext = { siteUrl, embeds, media };
  return <>{doc.content.map((block, index) => renderBlock(block, `${index}`, context))}</>;
}

interface RenderContext {
  siteUrl: string;
  embeds: "interactive" | "links";
  media: Readonly<Record<string, MediaView>>;
}

function renderBlock(block: RichBlock, key: string, context: RenderContext): ReactNode {
  switch (block.type) {
    case "paragraph":
      return renderParagraph(block.content ?? [], key, context);
    case "heading": {
      const Tag = block.attrs.level === 3 ? "h3" : "h2";
      return <Tag key={key}>{renderInline(block.content ?? [], context)}</Tag>;
    }
    case "blockquote":
      return <blockquote key={key}>{block.content.map((child, index) => renderBlock(child, `${index}`, context))}</blockquote>;
    case "bulletList":
    case "orderedList": {
      const items = block.content.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the items of one document, fixed for its render.
        <li key={index}>{item.content.map((child, childIndex) => renderBlock(child, `${childIndex}`, context))}</li>
      ));
      if (block.type === "bulletList") return <ul key={key}>{items}</ul>;
      const start = block.attrs?.start ?? 1;
      return (
        <ol key={key} start={start === 1 ? undefined : start}>
          {items}
        </ol>
      );
    }
    case "horizontalRule":
      return <hr key={key} />;
    case "image":
      return renderImage(block, key, context);
    case "embed": {
      const embed = embedFromStored(block.attrs.provider, block.attrs.id);
      return embed ? renderEmbed(embed, key, context) : null;
    }
  }
}

/** The column the body is drawn in (the article's 820 px less its padding), for `sizes`. */
const BODY_IMAGE_SIZES = "(min-width: 860px) 772px, calc(100vw - 48px)";

function renderImage({ attrs }: RichImage, key: string, context: RenderContext): ReactNode {
  const view = Object.hasOwn(context.media, attrs.mediaId) ? context.media[attrs.mediaId] : undefined;
  if (view?.kind !== "image") return null;
  const img = (
    <img
      src={view.src}
      srcSet={view.srcSet ?? undefined}
      sizes={BODY_IMAGE_SIZES}
      width={view.width ?? undefined}
      height={view.height ?? undefined}
      alt={attrs.alt}
      loading="lazy"
      decoding="async"
    />
  );
  return (
    <figure key={key} data-body-image="">
      {view.webpSrcSet && context.embeds === "interactive" ? (
        <picture>
          <source type="image/webp" srcSet={view.webpSrcSet} sizes={BODY_IMAGE_SIZES} />
          {img}
        </picture>
      ) : (
        img
      )}
      {attrs.caption || attrs.credit ? (
        <figcaption>
          {attrs.caption}
          {attrs.caption && attrs.credit ? " — " : null}
          {attrs.credit ? t.article.credit("image", attrs.credit) : null}
        </figcaption>
      ) : null}
    </figure>
  );
}

/** A paragraph; a line of it (between line breaks) that is only a post's link becomes that post's embed block. */
function renderParagraph(content: RichInline[], key: string, context: RenderContext): ReactNode {
  const lines: RichInline[][] = [[]];
  for (const node of content) {
    if (node.type === "hardBreak") lines.push([]);
    else lines[lines.length - 1]!.push(node);
  }
  const embedOf = (line: RichInline[]) => (line.length === 1 && line[0]!.type === "text" ? parseEmbedUrl(line[0]!.text.trim()) : null);
  if (!lines.some(embedOf)) return <p key={key}>{renderInline(content, context)}</p>;
  const parts: ReactNode[] = [];
  let pending: RichInline[] = [];
  const flush = () => {
    if (pending.some((node) => node.type === "text" && node.text.trim() !== "")) {
      parts.push(<p key={`${key}-${parts.length}`}>{renderInline(trimBreaks(pending), context)}</p>);
    }
    pending = [];
  };
  lines.forEach((line, index) => {
    const embed = embedOf(line);
    if (embed) {
      flush();
      parts.push(renderEmbed(embed, `${key}-${parts.length}`, context));
    } else {
      if (index > 0 && pending.length > 0) pending.push({ type: "hardBreak" });
      pending.push(...line);
    }
  });
  flush();
  return parts;
}

function trimBreaks(nodes: RichInline[]): RichInline[] {
  let start = 0;
  let end = nodes.length;
  while (start < end && nodes[start]!.type === "hardBreak") start++;
  while (end > start && nodes[end - 1]!.type === "hardBreak") end--;
  return nodes.slice(start, end);
}

function renderEmbed(embed: Embed, key: string, context: RenderContext): ReactNode {
  if (context.embeds === "interactive") return <ContentEmbed key={key} embed={embed} />;
  return (
    <p key={key}>
      <a href={embed.href} rel="noopener noreferrer nofollow">
        {embed.href}
      </a>
    </p>
  );
}

function renderInline(content: RichInline[], context: RenderContext): ReactNode[] {
  return content.map((node, index) => {
    if (node.type === "hardBreak") {
      // biome-ignore lint/suspicious/noArrayIndexKey: the nodes of one paragraph, fixed for its render.
      return <br key={index} />;
    }
    let element: ReactNode = node.text;
    // Innermost first: the link outside, so a bold word inside a link stays one link.
    for (const mark of [...(node.marks ?? [])].sort((a, b) => markOrder(a.type) - markOrder(b.type))) {
      if (mark.type === "bold") element = <strong>{element}</strong>;
      else if (mark.type === "italic") element = <em>{element}</em>;
      else {
        // Checked when saved; checked again here so a row written by other means cannot carry javascript: links.
        const href = safeHref(mark.attrs.href);
        if (href)
          element = isOwnSite(href, context.siteUrl) ? (
            <a href={href}>{element}</a>
          ) : (
            <a href={href} rel="noopener noreferrer nofollow">
              {element}
            </a>
          );
      }
    }
    // biome-ignore lint/suspicious/noArrayIndexKey: the nodes of one paragraph, fixed for its render.
    return <Fragment key={index}>{element}</Fragment>;
  });
}

function markOrder(type: "bold" | "italic" | "link"): number {
  return type === "link" ? 2 : type === "bold" ? 1 : 0;
}
