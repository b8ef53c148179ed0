import { data, href, Link } from "react-router";
import type { Route } from "./+types/home";
import { PRIVATE_NO_STORE, pageHeaders } from "#app/lib/cache-headers.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requestIdFrom } from "#app/.server/errors.ts";
import { loadMostRead } from "#app/.server/news/reads/most-read.server.ts";
import { MatchStrip } from "#app/components/news/match-strip.tsx";
import { MostRead } from "#app/components/news/most-read.tsx";
import { NewsCard, PlaceholderCard } from "#app/components/news/news-card.tsx";
import { AdSlot } from "#app/components/ui/ad-slot.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/pt-BR.ts";
import { homeJsonLd, pageMeta, siteOf } from "#app/lib/seo.ts";
import type { NewsSummary } from "#app/lib/news-view.ts";
import type { HomeSection } from "#app/.server/news/news.service.server.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { termPath } from "#app/lib/slug.ts";
import styles from "./home.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  const { news, log } = services;
  const mostRead = loadMostRead(request, services);
  try {
    return { ...(await news.getHome()), mostRead: await mostRead };
  } catch (error) {
    // As in the original: on a load failure the home lists are empty and no message is shown. But that empty home is
    // never stored: as a public page the page cache kept it (and CDNs for their s-maxage) after the database came
    // back, an empty home for up to PAGE_CACHE_TTL_SECONDS.
    log.error({ err: error, reqId: requestIdFrom(request) }, "home news load failed");
    return data(
      { recent: [] as NewsSummary[], highlights: [] as NewsSummary[], sections: [] as HomeSection[], mostRead: await mostRead },
      { headers: { "Cache-Control": PRIVATE_NO_STORE } },
    );
  }
}

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  const name = site?.name ?? "";
  return pageMeta(site, {
    title: t.home.title(name),
    shareTitle: name,
    description: site?.description ?? "",
    path: "/",
    extra: site ? [{ "script:ld+json": homeJsonLd(site) }] : [],
  });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { recent, highlights, sections, mostRead } = loaderData;
  const matches = "matches" in loaderData ? loaderData.matches : [];
  const { site } = useRootData();
  const [main, ...sides] = recent;
  return (
    <div className="page">
      {/* The page's one h1: the site's name, which the header already shows (so only for assistive technology). */}
      <h1 className="visually-hidden">{site.name}</h1>
      <MatchStrip matches={matches} />
      <section aria-labelledby="recentes-titulo" className={styles.section}>
        <SectionHeader id="recentes-titulo" title={t.home.recentTitle} />
        <div className={styles.recentGrid}>
          <div className={styles.mainSlot}>
            {main ? (
              <NewsCard news={main} variant="main" priority headingLevel="h3" />
            ) : (
              <PlaceholderCard variant="main" text={t.home.searchingNews} />
            )}
          </div>
          <div className={styles.sideSlot}>
            {[0, 1].map((index) => {
              const item = sides[index];
              return item ? (
                <NewsCard key={item.id} news={item} variant="side" />
              ) : (
                <PlaceholderCard key={`placeholder-${index}`} variant="side" text={t.home.moreNewsSoon} />
              );
            })}
          </div>
        </div>
        <div className={styles.more}>
          <Link to={href("/news-list")} className={buttons.primary}>
            {t.home.viewAllNews}
          </Link>
        </div>
      </section>

      {/* Right after the top stories: what a fan checks next, within the first two screens of a phone. */}
      <MostRead items={mostRead} />

      <AdSlot variant="leaderboard" slot="top" label={t.home.adLabelTop} />

      <section aria-labelledby="destaques-titulo" className={styles.section}>
        <SectionHeader id="destaques-titulo" title={t.home.highlightsTitle} accent />
        <div className={styles.highlightGrid}>
          {[0, 1, 2].map((index) => {
            const item = highlights[index];
            if (item) return <NewsCard key={item.id} news={item} variant="compact" showHighlight />;
            const text = index === 0 ? t.home.noHighlights : t.home.moreHighlightsSoon;
            return <PlaceholderCard key={`placeholder-${index}`} variant="compact" text={text} />;
          })}
        </div>
        <div className={styles.more}>
          <Link to={`${href("/news-list")}?tab=1`} className={buttons.secondary}>
            {t.home.viewAllHighlights}
          </Link>
        </div>
      </section>

      {sections.map((section) => (
        <section key={section.slug} aria-labelledby={`secao-${section.slug}`} className={styles.section} data-testid="home-section">
          <SectionHeader id={`secao-${section.slug}`} title={section.name} />
          <div className={styles.sectionGrid}>
            {section.items.map((item) => (
              <NewsCard key={item.id} news={item} variant="compact" />
            ))}
          </div>
          <div className={styles.more}>
            <Link to={termPath("category", section.slug)} className={buttons.secondary}>
              {t.home.sectionMore(section.name)}
            </Link>
          </div>
        </section>
      ))}

      <AdSlot variant="banner" slot="bottom" label={t.home.adLabelBottom} />
    </div>
  );
}

function SectionHeader({ id, title, accent = false }: { id: string; title: string; accent?: boolean }) {
  return (
    <div className={styles.sectionHeader} data-accent={accent}>
      <h2 id={id}>{title}</h2>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", uploads: false });
