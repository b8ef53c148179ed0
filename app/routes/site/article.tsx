import { ArrowLeft, Eye, Pencil } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, href, Link, redirect, useRouteError } from "react-router";
import type { Route } from "./+types/article";
import { NO_STORE, pageHeaders } from "#app/lib/cache-headers.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError, requestIdFrom } from "#app/.server/errors.ts";
import { loadMostRead } from "#app/.server/news/reads/most-read.server.ts";
import { loadBodyMedia } from "#app/.server/media/body-media.server.ts";
import { MostRead } from "#app/components/news/most-read.tsx";
import { isNewsroomViewer } from "#app/.server/auth/permissions.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import { PRIVATE_NO_STORE } from "#app/lib/cache-headers.ts";
import { CategoryBadge } from "#app/components/news/category-badge.tsx";
import { ArticleMedia } from "#app/components/news/article-media.tsx";
import { RichText } from "#app/components/news/rich-text.tsx";
import { ErrorState, isConnectionError, OfflineState } from "#app/components/ui/error-state.tsx";
import buttons from "#app/components/ui/button.module.css";
import { formatDateTime } from "#app/i18n/format.ts";
import { articleDateLines, lastReaderChange } from "#app/lib/article-dates.ts";
import { ArticleDates } from "#app/components/news/article-dates.tsx";
import { ReadAlso } from "#app/components/news/read-also.tsx";
import { t } from "#app/i18n/pt-BR.ts";
import { AlertButton } from "#app/components/news/alert-button.tsx";
import { ReadLaterButton } from "#app/components/news/read-later-button.tsx";
import { ShareButtons, ShareIcons } from "#app/components/news/share-buttons.tsx";
import { absoluteUrl, liveBlogJsonLd, newsArticleJsonLd, pageMeta, previewImage, siteOf, titleWithSite } from "#app/lib/seo.ts";
import { LIVE_CURSOR_PARAM, LiveCoverage } from "#app/components/news/live-coverage.tsx";
import { LiveBadge } from "#app/components/news/live-badge.tsx";
import { PUSH_TOPICS } from "#app/lib/push-topics.ts";
import { LIVE_FORM_PARAM, liveFormNotice, liveFormTexts } from "#app/.server/news/live/live-form.server.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { sendReadBeacon } from "#app/lib/read-beacon.ts";
import { articlePath, termPath } from "#app/lib/slug.ts";
import styles from "./article.module.css";
import { routeFacts } from "#app/lib/route-facts.ts";
import { mayChangeStory } from "#app/lib/roles.ts";
import { AuthorByline } from "#app/components/news/author-box.tsx";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const services = servicesOf(context);
  const { news, config, log } = services;
  let article: Awaited<ReturnType<typeof news.getNews>>;
  let newsroom = false;
  // Started with the article's query, not after it: the list is shared and usually already in memory.
  const mostRead = loadMostRead(request, services, params.id);
  try {
    // A draft or a scheduled item exists only for the newsroom: for everyone else it is a 404 like a missing one.
    newsroom = await isNewsroomViewer(request, context);
    article = await news.getNews(params.id, { includeUnpublished: newsroom });
  } catch (error) {
    const status = error instanceof AppError ? error.status : 500;
    if (status >= 500) log.error({ err: error, id: params.id, reqId: requestIdFrom(request) }, "article load failed");
    throw data({ message: t.article.notFound }, { status, headers: { "Cache-Control": NO_STORE } });
  }
  // `/article/{id}` and `/article/{id}/{slug}` both answer; an old or mistyped slug moves to the current one.
  const canonicalPath = articlePath(article);
  if (params.slug !== undefined && href("/article/:id/:slug?", { id: article.id, slug: params.slug }) !== canonicalPath) {
    throw redirect(canonicalPath, 301);
  }
  const preview = new URL(request.url).searchParams.get("previa") === "1";
  // A reporter's own published story: "Editar" (they correct it; the page is then theirs alone, never stored).
  const mine = newsroom && article.status === "published" && (await isOwnStory(request, services, article.id));
  // The images the body's image blocks name (their variants and sizes), drawn by <RichText>.
  const related = services.related.forArticle(request, article);
  const teams = news.storyTeams(article.id).catch(() => []);
  const bodyMedia = await loadBodyMedia(services.database.db, services.store, [article.body]);
  // Live coverage (components/news/live-coverage.tsx): the page of updates the address asks for, or null.
  const liveCursor = new URL(request.url).searchParams.get(LIVE_CURSOR_PARAM);
  const live = await services.liveCoverage.forArticle(article.id, liveCursor, newsroom);
  // The newsroom's coverage forms for a member without JavaScript (their words, and what the last one sent did).
  const liveForms = newsroom
    ? { texts: liveFormTexts("article"), notice: liveFormNotice(new URL(request.url).searchParams.get(LIVE_FORM_PARAM)) }
    : null;
  return data(
    {
      article,
      bodyMedia,
      mostRead: await mostRead,
      canonicalPath,
      dateLines: articleDateLines(article, config.timeZone),
      related: await related,
      teams: await teams,
      scheduledLabel: article.status === "scheduled" ? formatDateTime(article.publishedAt, config.timeZone) : null,
      preview,
      defaultAuthor: config.site.defaultAuthor,
      byline: await services.profiles.bylineOfStory(article.id).catch(() => null),
      live,
      liveCursor: live && liveCursor ? liveCursor : null,
      liveForms,
      mine,
    },
    article.status === "published" && !mine ? undefined : { headers: { "Cache-Control": PRIVATE_NO_STORE } },
  );
}

export const headers = pageHeaders;

/** Whether the signed-in member of this request created this story (the only one it says "Editar" to, besides editors). */
async function isOwnStory(request: Request, services: ReturnType<typeof servicesOf>, id: string): Promise<boolean> {
  const viewer = await services.auth.getViewer(request);
  if (!viewer?.role) return false;
  const row = await services.database.db.selectFrom("news").select("owner_id").where("id", "=", id).executeTakeFirst();
  return row?.owner_id === viewer.userId;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  if (!loaderData) return [{ title: titleWithSite(t.article.notFound, site) }];
  const { article, canonicalPath, defaultAuthor, live } = loaderData;
  const author = article.author.trim() || defaultAuthor;
  const image = site ? previewImage(site, article.media) : undefined;
  return pageMeta(site, {
    title: titleWithSite(article.title, site),
    shareTitle: article.title,
    description: article.subtitle,
    path: canonicalPath,
    type: "article",
    ...(image ? { image } : {}),
    extra: [
      { property: "article:published_time", content: article.publishedAt },
      { property: "article:modified_time", content: lastReaderChange(article) },
      { property: "article:section", content: article.category },
      { name: "author", content: author },
      ...(site && image
        ? [
            {
              "script:ld+json": live?.coverage
                ? liveBlogJsonLd(site, article, canonicalPath, image, author, live.coverage, [...live.pinned, ...live.updates])
                : newsArticleJsonLd(site, article, canonicalPath, image, author, loaderData.byline),
            },
          ]
        : []),
    ],
  });
}

export default function Article({ loaderData }: Route.ComponentProps) {
  const { article, bodyMedia, canonicalPath, dateLines, related, scheduledLabel, preview, defaultAuthor, mostRead, live, liveCursor, liveForms } =
    loaderData;
  const { isAdmin, site, role, userId } = useRootData();
  const unpublished = article.status !== "published";
  const mayEdit = (mayChangeStory({ role, userId }, article) || loaderData.mine) && !(unpublished && preview);
  useCountRead(article.id, isAdmin || unpublished);
  return (
    <article className="page-narrow">
      {unpublished && preview ? (
        <div className={styles.preview} data-testid="preview-banner">
          <Banner kind="warning" message={t.article.previewBanner} />
          <Link to={articlePath(article)}>{t.article.previewExit}</Link>
        </div>
      ) : unpublished ? (
        <div className={styles.preview} data-testid="status-banner">
          <Banner
            kind="warning"
            message={
              scheduledLabel
                ? t.article.scheduledBanner(scheduledLabel)
                : article.status === "review"
                  ? t.article.reviewBanner
                  : t.article.draftBanner
            }
          />
          <Link to={`${articlePath(article)}?previa=1`}>
            <Eye aria-hidden="true" size={18} /> {t.article.previewLink}
          </Link>
        </div>
      ) : null}
      {mayEdit ? (
        // At the top, where the newsroom lands after a save: not under a long story and its extras.
        <div className={styles.staffBar}>
          <Link to={href("/edit-news/:id", { id: article.id })} className={buttons.primary}>
            <Pencil aria-hidden="true" size={18} />
            {t.article.edit}
          </Link>
        </div>
      ) : null}
      <header className={styles.header}>
        <span className={styles.badges}>
          {live?.coverage ? <LiveBadge ended={live.coverage.state === "ended"} match={live.coverage.scoreboard !== null} /> : null}
          <CategoryBadge category={article.category} slug={article.categorySlug} />
        </span>
        <h1 className={styles.title}>{article.title}</h1>
        <p className={styles.subtitle}>{article.subtitle}</p>
        <p className={styles.meta}>
          <span>
            {t.article.by}{" "}
            <strong className={styles.author}>
              {article.authorSlug ? (
                <Link to={termPath("author", article.authorSlug)} title={t.taxonomy.authorLink(article.author)}>
                  {article.author.trim() || defaultAuthor}
                </Link>
              ) : (
                article.author.trim() || defaultAuthor
              )}
            </strong>
          </span>
          <ArticleDates lines={dateLines} />
        </p>
        <ShareIcons url={absoluteUrl(site, canonicalPath)} title={article.title} />
        {live?.coverage?.state === "live" && site.alerts ? (
          // A match being covered: its goals and final whistle as alerts. The row keeps its height before hydration.
          <div className={styles.matchAlerts}>
            <AlertButton
              topic={PUSH_TOPICS.match(article.id)}
              label={t.alerts.followMatch}
              labelOn={t.alerts.followingMatch}
              hint={t.alerts.followMatchHint}
            />
          </div>
        ) : null}
      </header>

      <LiveCoverage newsId={article.id} initial={live} cursor={liveCursor} articlePath={canonicalPath} newsroom={isAdmin} forms={liveForms} />

      {article.media ? <ArticleMedia media={article.media} title={article.title} /> : null}

      {/* The structured body as React elements (never HTML). A link to a YouTube, Instagram, X or TikTok post alone on
          a line becomes an embed that loads nothing from there before the reader's click. */}
      <div className={styles.content} data-testid="article-content">
        <RichText doc={article.body} siteUrl={site.url} media={bodyMedia} />
      </div>

      {loaderData.teams.length > 0 ? (
        <nav className={styles.teams} aria-label={t.taxonomy.teamsOfStory} data-testid="article-teams">
          <ul>
            {loaderData.teams.map((team) => (
              <li key={team.slug}>
                <Link to={termPath("team", team.slug)}>{team.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <ShareButtons url={absoluteUrl(site, canonicalPath)} title={article.title} />
      <AuthorByline person={loaderData.byline} />

      <footer className={styles.footer}>
        <Link to="/" className={buttons.secondary}>
          <ArrowLeft aria-hidden="true" size={18} />
          {t.article.backToNews}
        </Link>
        <ReadLaterButton story={{ id: article.id, path: canonicalPath, title: article.title }} />
      </footer>

      <ReadAlso items={related} />

      <MostRead items={mostRead} />
    </article>
  );
}

/**
 * Counts one read per view of an article: after it shows in the browser (so pages served from the page cache or a
 * CDN count too), once per article shown (a live update reloading its data is the same view; moving to another
 * article is a new one). The newsroom's own views (a signed-in admin) are not counted.
 */
function useCountRead(newsId: string, isAdmin: boolean) {
  const counted = useRef<string | null>(null);
  useEffect(() => {
    if (isAdmin || counted.current === newsId) return;
    counted.current = newsId;
    sendReadBeacon(newsId);
  }, [newsId, isAdmin]);
}

/** A missing article (404) and a failed load (500) show the same message, as in the original. */
export function ErrorBoundary() {
  if (isConnectionError(useRouteError())) return <OfflineState />;
  return <ErrorState title={t.article.notFound} actionLabel={t.article.backHome} actionTo="/" />;
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", params: { [LIVE_CURSOR_PARAM]: "cursor" }, uploads: false });
