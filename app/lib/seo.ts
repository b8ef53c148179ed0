import { href, type MetaDescriptor } from "react-router";
import { LIVE_LIMITS } from "./limits.ts";
import { type LiveCoverageInfo, type LiveUpdateView, liveUpdateAnchor, summaryOf } from "./live-coverage.ts";
import type { MediaView } from "./media-view.ts";
import type { NewsArticle } from "./news-view.ts";
import { lastReaderChange } from "./article-dates.ts";
import { type PersonView, personLinks } from "./person.ts";
import { termPath } from "./slug.ts";
import type { RootData } from "./site-context.ts";

/** The branded card shown in link previews of pages and news without a picture (public/images/og-padrao.png). */
export const FALLBACK_CARD = { path: "/images/og-padrao.png", width: 1200, height: 630, type: "image/png" } as const;
/** The publisher's logo in structured data (public/icons/icon-512.png). */
export const PUBLISHER_LOGO = { path: "/icons/icon-512.png", width: 512, height: 512 } as const;
/** The width link previews ask for (WhatsApp, X, Facebook draw cards about this wide). */
const PREVIEW_WIDTH = 1200;

type Site = RootData["site"];

/** The site configuration from the root loader's data, as a route's `meta` sees it. */
export function siteOf(matches: ReadonlyArray<{ loaderData?: unknown } | undefined>): Site | null {
  return (matches[0]?.loaderData as Partial<RootData> | undefined)?.site ?? null;
}

/** A page's title as the tab shows it, "Page | Site" (the site's name from `siteOf`; empty before it loads). */
export function titleWithSite(title: string, site: Pick<Site, "name"> | null): string {
  return `${title} | ${site?.name ?? ""}`;
}

/** The meta of a page that is never indexed (the newsroom's, sign-in and account pages): its title and `noindex`. */
export function noindexMeta(title: string): MetaDescriptor[] {
  return [{ title }, { name: "robots", content: "noindex" }];
}

/** `path` as an absolute URL on the site's public address (SITE_URL). */
export function absoluteUrl(site: Pick<Site, "url">, path: string): string {
  return new URL(path, `${new URL(site.url).origin}/`).href;
}

export interface PreviewImage {
  url: string;
  width: number | null;
  height: number | null;
  type: string | null;
}

/**
 * The picture of a link preview: the smallest variant of the article's image at least 1200 px wide (else its largest),
 * in the original's format (WebP is not read by every app that draws previews); for a video, its poster frame's JPEG
 * variants the same way; the branded card otherwise (no media, a video without a poster, external media of unknown
 * size).
 */
export function previewImage(site: Pick<Site, "url">, media: MediaView | null): PreviewImage {
  if (media && !media.external && (media.kind === "image" || media.srcSet)) {
    const variants = (media.srcSet ?? "")
      .split(", ")
      .map((entry) => entry.split(" "))
      .filter((parts): parts is [string, string] => parts.length === 2 && /^\d+w$/.test(parts[1]!))
      .map(([url, width]) => ({ url, width: Number.parseInt(width, 10) }))
      .sort((a, b) => a.width - b.width);
    const chosen = variants.find((variant) => variant.width >= PREVIEW_WIDTH) ?? variants.at(-1);
    // A video's srcset is its poster's JPEG variants.
    const type = media.kind === "video" ? "image/jpeg" : media.mimeType;
    if (chosen) {
      const height = media.width && media.height ? Math.round((chosen.width * media.height) / media.width) : null;
      return { url: absoluteUrl(site, chosen.url), width: chosen.width, height, type };
    }
    if (media.kind === "image") return { url: absoluteUrl(site, media.src), width: media.width, height: media.height, type };
  }
  return { url: absoluteUrl(site, FALLBACK_CARD.path), width: FALLBACK_CARD.width, height: FALLBACK_CARD.height, type: FALLBACK_CARD.type };
}

export interface PageMetaInput {
  /** The document title (already with the site name where wanted). */
  title: string;
  /** The title in link previews (defaults to `title`). */
  shareTitle?: string;
  description: string;
  /** The canonical path of the page (query included when it is part of the page's identity). */
  path: string;
  image?: PreviewImage;
  type?: "website" | "article";
  /** More tags (article times, robots, structured data). */
  extra?: MetaDescriptor[];
}

/**
 * Title, description, canonical URL, Open Graph and Twitter card tags of a public page: what search engines show and
 * what WhatsApp, X, Facebook and Telegram draw when the link is shared.
 */
export function pageMeta(site: Site | null, input: PageMetaInput): MetaDescriptor[] {
  if (!site) return [{ title: input.title }, { name: "description", content: input.description }];
  const url = absoluteUrl(site, input.path);
  const image = input.image ?? previewImage(site, null);
  const shareTitle = input.shareTitle ?? input.title;
  return [
    { title: input.title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:locale", content: "pt_BR" },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:url", content: url },
    { property: "og:title", content: shareTitle },
    { property: "og:description", content: input.description },
    { property: "og:image", content: image.url },
    ...(image.type ? [{ property: "og:image:type", content: image.type }] : []),
    ...(image.width ? [{ property: "og:image:width", content: String(image.width) }] : []),
    ...(image.height ? [{ property: "og:image:height", content: String(image.height) }] : []),
    { property: "og:image:alt", content: shareTitle },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: shareTitle },
    { name: "twitter:description", content: input.description },
    { name: "twitter:image", content: image.url },
    ...(input.extra ?? []),
  ];
}

/**
 * The author of a story in JSON-LD: a team member as a `Person` with their page, photo and links (`sameAs`); the
 * newsroom's default as the site's organization; any other (free-text) name as a bare `Person`.
 */
function authorJsonLd(site: Site, author: string, person: PersonView | null | undefined) {
  if (person) {
    const links = personLinks(person).map((link) => link.url);
    const photo = person.photo?.largeSrc ?? person.photo?.src;
    return {
      "@type": "Person",
      name: person.name,
      url: absoluteUrl(site, termPath("author", person.slug)),
      ...(photo ? { image: absoluteUrl(site, photo) } : {}),
      ...(links.length ? { sameAs: links } : {}),
    };
  }
  return author === site.defaultAuthor ? organization(site) : { "@type": "Person", name: author };
}

/** schema.org NewsArticle of an article page (JSON-LD). */
export function newsArticleJsonLd(
  site: Site,
  article: NewsArticle,
  canonicalPath: string,
  image: PreviewImage,
  author: string,
  person?: PersonView | null,
) {
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    mainEntityOfPage: { "@type": "WebPage", "@id": absoluteUrl(site, canonicalPath) },
    headline: article.title.slice(0, 110),
    description: article.subtitle,
    image: [image.url],
    datePublished: article.publishedAt,
    dateModified: lastReaderChange(article),
    articleSection: article.category,
    articleBody: article.fullContent,
    inLanguage: "pt-BR",
    author: authorJsonLd(site, author, person),
    publisher: organization(site),
  };
}

/**
 * schema.org LiveBlogPosting of a story under live coverage (JSON-LD): the NewsArticle's fields plus when the
 * coverage started (and ended), and its latest updates as BlogPosting (headline: the first line; articleBody: the
 * text; datePublished / dateModified).
 */
export function liveBlogJsonLd(
  site: Site,
  article: NewsArticle,
  canonicalPath: string,
  image: PreviewImage,
  author: string,
  coverage: LiveCoverageInfo,
  shown: readonly LiveUpdateView[],
) {
  const url = absoluteUrl(site, canonicalPath);
  const updates = [...shown].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)).slice(0, LIVE_LIMITS.jsonLdUpdates);
  return {
    ...newsArticleJsonLd(site, article, canonicalPath, image, author),
    "@type": "LiveBlogPosting",
    ...(coverage.startedAt ? { coverageStartTime: coverage.startedAt } : {}),
    ...(coverage.state === "ended" && coverage.endedAt ? { coverageEndTime: coverage.endedAt } : {}),
    dateModified: [lastReaderChange(article), ...updates.map((update) => update.updatedAt)].sort().at(-1),
    liveBlogUpdate: updates.map((update) => ({
      "@type": "BlogPosting",
      "@id": `${url}#${liveUpdateAnchor(update.id)}`,
      url: `${url}#${liveUpdateAnchor(update.id)}`,
      headline: summaryOf(update.text, 110),
      articleBody: update.text,
      datePublished: update.createdAt,
      dateModified: update.updatedAt,
      inLanguage: "pt-BR",
      publisher: organization(site),
    })),
  };
}

function organization(site: Site) {
  return {
    "@type": "Organization",
    name: site.name,
    url: absoluteUrl(site, "/"),
    logo: { "@type": "ImageObject", url: absoluteUrl(site, PUBLISHER_LOGO.path), width: PUBLISHER_LOGO.width, height: PUBLISHER_LOGO.height },
  };
}

/** schema.org Organization and WebSite (with the site search) of the home page (JSON-LD). */
export function homeJsonLd(site: Site) {
  const social = Object.values(site.social).filter((url): url is string => Boolean(url));
  return [
    { "@context": "https://schema.org", ...organization(site), ...(social.length ? { sameAs: social } : {}) },
    {
      "@context": "https://schema.org",
      "@type": "WebSite",
      name: site.name,
      url: absoluteUrl(site, "/"),
      inLanguage: "pt-BR",
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${absoluteUrl(site, href("/busca"))}?q={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    },
  ];
}
