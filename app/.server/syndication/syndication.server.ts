import { href } from "react-router";
import { memoUntilChanged } from "#app/.server/events/memo.server.ts";
import { Readable } from "node:stream";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { RichText } from "#app/components/news/rich-text.tsx";
import type { RichDoc } from "#app/lib/rich-text.ts";
import { isEmptyDoc, plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { bodyOf } from "#app/.server/news/news-rows.server.ts";
import { loadBodyMedia } from "#app/.server/media/body-media.server.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import type { Kysely } from "kysely";
import { articlePath, termFeedPath, termPath } from "#app/lib/slug.ts";
import { findTermName, listTermsInUse } from "#app/.server/news/taxonomy/taxonomy.server.ts";
import { findTeam, listTeamsInUse } from "#app/.server/news/taxonomy/teams.server.ts";
import type { PublicSiteConfig } from "#app/.server/config/env.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import type { Database } from "#app/.server/db/schema.ts";
import { EXTERNAL_STORE } from "#app/.server/media/media-types.ts";
import type { MediaStore } from "#app/.server/storage/media-store.ts";
import {
  countNews,
  type FeedFilter,
  type FeedNewsRow,
  findNewsForFeed,
  findNewsSince,
  findSitemapBatch,
  findSitemapBoundary,
  lastChangeOf,
} from "./syndication.queries.server.ts";

/** URLs per sitemap part (the protocol allows 50 000; smaller parts stay well under its 50 MB too). */
export const SITEMAP_PART_SIZE = 10_000;
/** Rows read from the database at a time while a sitemap part streams. */
const SITEMAP_BATCH = 1_000;
/** Items in each RSS feed. */
export const FEED_SIZE = 50;
/** Google News reads articles of the last two days, at most 1 000 per sitemap. */
export const NEWS_SITEMAP_HOURS = 48;
const NEWS_SITEMAP_MAX = 1_000;

/** Public pages that are not articles, as listed in the pages sitemap. */
const STATIC_PAGES = ["/", href("/news-list"), `${href("/news-list")}?tab=1`, href("/userLicence")];

export interface SyndicationDeps {
  db: Kysely<Database>;
  store: Pick<MediaStore, "publicUrl" | "name">;
  site: Pick<PublicSiteConfig, "name" | "url" | "description" | "defaultAuthor">;
  now?: () => Date;
  /** URLs per article sitemap part (SITEMAP_PART_SIZE; smaller in tests). */
  partSize?: number;
}

/** The feeds (RSS 2.0), sitemaps (index, parts, Google News) and robots.txt of the site. */
export function createSyndication({ db, store, site, now = () => new Date(), partSize = SITEMAP_PART_SIZE }: SyndicationDeps) {
  const origin = new URL(site.url).origin;
  const absolute = (path: string) => new URL(path, `${origin}/`).href;
  const articleUrl = (article: { id: string; title: string }) => absolute(articlePath(article));

  // The body's images with absolute addresses (a feed reader has no base URL to resolve ours against).
  const absoluteStore = { name: store.name, publicUrl: (key: string) => absolute(store.publicUrl(key)) };

  function feedItem(row: FeedNewsRow, media: Record<string, MediaView>) {
    const link = articleUrl(row);
    // External media (imported from the original): the address as it was, without our `#news-…` marker.
    const mediaUrl = !row.media_key
      ? null
      : row.media_store === EXTERNAL_STORE
        ? row.media_key.replace(/#.*$/, "")
        : absolute(store.publicUrl(row.media_key));
    return {
      title: row.title,
      link,
      guid: { value: link, isPermaLink: true },
      description: row.subtitle,
      pubDate: new Date(row.published_at),
      categories: [{ name: row.category }],
      dc: { creators: [row.author || site.defaultAuthor] },
      // A story corrected or covered live after its publication: when what readers read last changed (dcterms:modified).
      ...(lastChangeOf(row) !== row.published_at ? { dcterms: { modified: [new Date(lastChangeOf(row))] } } : {}),
      content: { encoded: bodyHtml(isEmptyDoc(bodyOf(row)) ? plainTextToDoc(row.subtitle) : bodyOf(row), site.url, media) },
      ...(mediaUrl && row.media_mime_type
        ? { enclosures: [{ url: mediaUrl, length: Number(row.media_size_bytes ?? 0), type: row.media_mime_type }] }
        : {}),
    };
  }

  /**
   * A sitemap as a stream: rows go out as they are read, so a part of 10 000 URLs never sits in memory. A sitemap
   * with no URL (no news in the last 48 hours, an empty site) is still a valid, empty `urlset`.
   */
  async function sitemapOf(items: AsyncIterable<object> | Iterable<object>, xmlns?: { news: boolean }): Promise<Readable> {
    const iterator = (Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]()) as
      | AsyncIterator<object>
      | Iterator<object>;
    const first = await iterator.next();
    if (first.done) return Readable.from([emptyUrlset(Boolean(xmlns?.news))]);
    async function* all() {
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    }
    // feedsmith and sitemap (~175 modules, ~0.5 s) load with the first feed or sitemap asked for, not at start.
    const { SitemapStream } = await import("sitemap");
    const sitemap = new SitemapStream({
      hostname: origin,
      ...(xmlns ? { xmlns: { news: xmlns.news, video: false, image: false, xhtml: false } } : {}),
    });
    const source = Readable.from(all());
    source.on("error", (error) => sitemap.destroy(error));
    return source.pipe(sitemap);
  }

  /** A feed: its stories, its own address, its title and the page it stands for. */
  async function renderRss(filter: FeedFilter, selfPath: string, title: string, pagePath: string): Promise<string> {
    const rows = await findNewsForFeed(db, { limit: FEED_SIZE, ...filter });
    const media = await loadBodyMedia(db, absoluteStore, rows.map(bodyOf));
    const selfUrl = absolute(selfPath);
    const newest = rows.reduce<string | null>((latest, row) => (!latest || lastChangeOf(row) > latest ? lastChangeOf(row) : latest), null);
    const { generateRssFeed } = await import("feedsmith");
    return generateRssFeed({
      title,
      link: absolute(pagePath),
      description: site.description,
      language: "pt-BR",
      ...(newest ? { lastBuildDate: new Date(newest) } : {}),
      ttl: 5,
      atom: { links: [{ href: selfUrl, rel: "self", type: "application/rss+xml" }] },
      items: rows.map((row) => feedItem(row, media)),
    });
  }
  const feeds = {
    latest: memoUntilChanged(() => renderRss({}, href("/rss.xml"), site.name, "/")),
    highlights: memoUntilChanged(() => renderRss({ highlightedOnly: true }, href("/rss/destaques.xml"), t.feeds.highlightsTitle(site.name), "/")),
  };

  return {
    /**
     * RSS 2.0 of the latest news (or only the highlights), with full text and media enclosures. Kept in memory until
     * the news change (`invalidate`): 50 full stories are the heaviest thing the site writes.
     */
    rss({ highlightedOnly }: { highlightedOnly: boolean }): Promise<string> {
      return (highlightedOnly ? feeds.highlights : feeds.latest).get();
    },

    /**
     * RSS 2.0 of a category's or a club's latest published news (/categoria/{slug}/rss.xml, /time/{slug}/rss.xml);
     * null for a category without published news or a club not in the list (a 404, as their pages). Written for
     * each request: the page cache and the CDN in front keep it, and there are as many as categories and clubs.
     */
    async termRss(kind: "category" | "team", slug: string): Promise<string | null> {
      const name = kind === "category" ? await findTermName(db, "category", slug) : ((await findTeam(db, slug))?.name ?? null);
      if (name === null) return null;
      const filter = kind === "category" ? { categorySlug: slug } : { teamSlug: slug };
      return renderRss(filter, termFeedPath(kind, slug), t.feeds.termTitle(site.name, name), termPath(kind, slug));
    },

    /** The news changed (a story, its live coverage, a resync): the next feed is written again. */
    invalidate(): void {
      feeds.latest.invalidate();
      feeds.highlights.invalidate();
    },

    /** The sitemap index: the pages, the Google News sitemap and one part per 10 000 articles. */
    async sitemapIndex(): Promise<Readable> {
      const parts = Math.max(1, Math.ceil((await countNews(db)) / partSize));
      const urls = [absolute(href("/sitemaps/:file", { file: "pages.xml" })), absolute(href("/sitemaps/:file", { file: "news.xml" }))];
      for (let part = 1; part <= parts; part++) urls.push(absolute(href("/sitemaps/:file", { file: `articles-${part}.xml` })));
      const { SitemapIndexStream } = await import("sitemap");
      const index = new SitemapIndexStream();
      return Readable.from(urls.map((url) => ({ url }))).pipe(index);
    },

    /** The pages that are not articles: the static ones, then each category, author and club page with news. */
    async sitemapPages(): Promise<Readable> {
      const [terms, teams] = await Promise.all([listTermsInUse(db), listTeamsInUse(db)]);
      const paths = [...terms.map((term) => termPath(term.kind, term.slug)), ...teams.map((team) => termPath("team", team.slug))];
      return sitemapOf([...STATIC_PAGES, ...paths].map((url) => ({ url })));
    },

    /**
     * Part `part` (1-based, `partSize` articles each) of the article sitemap, oldest first (so earlier parts rarely change), with each
     * article's last modification; null when there is no such part.
     */
    async sitemapArticles(part: number): Promise<Readable | null> {
      if (!Number.isSafeInteger(part) || part < 1) return null;
      const start = await findSitemapBoundary(db, (part - 1) * partSize);
      if (!start && part > 1) return null;
      async function* items() {
        if (!start) return;
        let from = { publishedAt: start.published_at, id: start.id };
        let inclusive = true;
        let left = partSize;
        while (left > 0) {
          const rows = await findSitemapBatch(db, from, inclusive, Math.min(SITEMAP_BATCH, left));
          for (const row of rows) yield { url: articleUrl(row), lastmod: lastChangeOf(row) };
          left -= rows.length;
          const last = rows.at(-1);
          if (!last || rows.length < SITEMAP_BATCH) return;
          from = { publishedAt: last.published_at, id: last.id };
          inclusive = false;
        }
      }
      return sitemapOf(items());
    },

    /** Google News sitemap: the articles of the last 48 hours, with the publication's name and language. */
    async sitemapNews(): Promise<Readable> {
      const since = new Date(now().getTime() - NEWS_SITEMAP_HOURS * 3_600_000).toISOString();
      const rows = await findNewsSince(db, since, NEWS_SITEMAP_MAX);
      return sitemapOf(
        rows.map((row) => ({
          url: articleUrl(row),
          news: { publication: { name: site.name, language: "pt" }, publication_date: row.published_at, title: row.title },
          // A story corrected or covered live after its publication: when what readers read last changed.
          ...(lastChangeOf(row) !== row.published_at ? { lastmod: lastChangeOf(row) } : {}),
        })),
        { news: true },
      );
    },

    robotsTxt(): string {
      return [
        "User-agent: *",
        "Allow: /",
        // The newsroom and the machine endpoints: nothing there for a search engine.
        "Disallow: /admin/",
        "Disallow: /add-news",
        "Disallow: /edit-news/",
        "Disallow: /SponsorManager",
        "Disallow: /api/",
        "Disallow: /events",
        "",
        `Sitemap: ${absolute(href("/sitemap.xml"))}`,
        "",
      ].join("\n");
    },
  };
}

export type Syndication = ReturnType<typeof createSyndication>;

function emptyUrlset(news: boolean): string {
  const newsNs = news ? ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' : "";
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${newsNs}></urlset>`;
}

/**
 * A news body as HTML for `content:encoded`: the article page's own renderer (React, so every text is escaped),
 * with embeds as plain links (a feed reader runs no scripts) and the body's images (`media`, absolute addresses) as
 * <figure><img srcset> with their captions.
 */
export function bodyHtml(doc: RichDoc, siteUrl: string, media: Record<string, MediaView> = {}): string {
  return renderToStaticMarkup(createElement(RichText, { doc, siteUrl, embeds: "links", media }));
}
