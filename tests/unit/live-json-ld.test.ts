import { describe, expect, it } from "vitest";
import type { LiveUpdateView } from "#app/lib/live-coverage.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import type { NewsArticle } from "#app/lib/news-view.ts";
import { plainTextToDoc } from "#app/lib/rich-text-plain.ts";
import { liveBlogJsonLd, previewImage } from "#app/lib/seo.ts";
import type { PublicSiteConfig } from "#app/lib/site-context.ts";

const site: PublicSiteConfig = {
  name: "Esporte em Foco",
  url: "https://esporte.example.com.br",
  description: "Notícias.",
  footerTitle: "Esporte em Foco",
  contactEmail: null,
  privacyOfficer: null,
  defaultAuthor: "Redação Esporte em Foco",
  timeZone: "America/Sao_Paulo",
  social: { instagram: "", twitter: "", facebook: "" },
  ads: null,
  alerts: true,
};

const article: NewsArticle = {
  id: "n1",
  title: "Final ao vivo",
  subtitle: "Minuto a minuto.",
  category: "Futebol",
  author: "",
  categorySlug: "futebol",
  authorSlug: null,
  isHighlighted: false,
  createdAt: "2026-11-26T18:00:00.000Z",
  publishedAt: "2026-11-26T18:00:00.000Z",
  status: "published",
  media: null,
  fullContent: "Texto.",
  body: plainTextToDoc("Texto."),
  updatedAt: "2026-11-26T18:00:00.000Z",
  textUpdatedAt: null,
  version: 1,
  mediaId: null,
};

const update = (minute: number, text = `Minuto ${minute}: escanteio.\nCobrança fechada.`): LiveUpdateView => {
  const at = new Date(Date.UTC(2026, 10, 26, 19, minute)).toISOString();
  return {
    id: `u${minute}`,
    body: plainTextToDoc(text),
    text,
    keyEvent: false,
    pinned: false,
    minute: null,
    eventType: null,
    createdAt: at,
    updatedAt: at,
  };
};

describe("JSON-LD de uma cobertura ao vivo", () => {
  it("é um LiveBlogPosting com início, fim (encerrada) e as últimas atualizações como BlogPosting, mais novas primeiro", () => {
    const updates = Array.from({ length: LIVE_LIMITS.jsonLdUpdates + 3 }, (_, i) => update(i));
    const ended = liveBlogJsonLd(
      site,
      article,
      "/article/n1/final-ao-vivo",
      previewImage(site, null),
      "",
      { state: "ended", startedAt: "2026-11-26T18:55:00.000Z", updatedAt: null, endedAt: "2026-11-26T20:50:00.000Z", scoreboard: null },
      updates,
    );
    expect(ended).toMatchObject({
      "@context": "https://schema.org",
      "@type": "LiveBlogPosting",
      headline: "Final ao vivo",
      coverageStartTime: "2026-11-26T18:55:00.000Z",
      coverageEndTime: "2026-11-26T20:50:00.000Z",
      dateModified: updates.at(-1)!.updatedAt,
    });
    expect(ended.liveBlogUpdate).toHaveLength(LIVE_LIMITS.jsonLdUpdates);
    expect(ended.liveBlogUpdate[0]).toMatchObject({
      "@type": "BlogPosting",
      headline: `Minuto ${LIVE_LIMITS.jsonLdUpdates + 2}: escanteio.`,
      articleBody: `Minuto ${LIVE_LIMITS.jsonLdUpdates + 2}: escanteio.\nCobrança fechada.`,
      datePublished: updates.at(-1)!.createdAt,
      url: "https://esporte.example.com.br/article/n1/final-ao-vivo#atualizacao-u12",
    });

    const live = liveBlogJsonLd(
      site,
      article,
      "/article/n1",
      previewImage(site, null),
      "",
      { state: "live", startedAt: "2026-11-26T18:55:00.000Z", updatedAt: null, endedAt: null, scoreboard: null },
      [],
    );
    expect(live).not.toHaveProperty("coverageEndTime");
    expect(live).toMatchObject({ liveBlogUpdate: [], dateModified: article.updatedAt });
  });
});
