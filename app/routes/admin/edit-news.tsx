import { useState } from "react";
import { data, href, Link, useNavigation, useRevalidator, useRouteError, useSearchParams } from "react-router";
import type { Route } from "./+types/edit-news";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { StoryAlertPanel } from "#app/components/admin/story-alert-panel.tsx";
import { ALERT_FORM_PARAM } from "#app/lib/push-topics.ts";
import { AppError, publicErrorMessage, requestIdFrom } from "#app/.server/errors.ts";
import { requireRole, memberActor } from "#app/.server/auth/permissions.server.ts";
import { findNewsAutosave } from "#app/.server/news/editor/news-autosave.server.ts";
import { pendingReturn } from "#app/.server/news/publishing/news-review.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import { NewsReturnLink } from "#app/components/admin/news-return-link.tsx";
import { ReturnedNotice, ReturnToReporter } from "#app/components/admin/news-review-panel.tsx";
import { hasRole, MENU_ROLES, mayAlert, mayReturn } from "#app/lib/roles.ts";
import { handleNewsFormAction, newsFormLoaderData } from "#app/.server/http/news-form-action.server.ts";
import { NewsForm, valuesFrom } from "#app/components/admin/news-form.tsx";
import { ErrorState, isConnectionError, OfflineState } from "#app/components/ui/error-state.tsx";
import { Spinner } from "#app/components/ui/spinner.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import { toLocalInputValue } from "#app/lib/zoned-time.ts";
import { MEDIA_OUTCOMES, UNPUBLISHED_OUTCOME } from "#app/lib/news-landing.ts";
import type { NewsStatus } from "#app/lib/news-view.ts";
import { formatDateTime } from "#app/i18n/format.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { REVIEW_NOTE_MAX } from "#app/lib/limits.ts";
import { articlePath } from "#app/lib/slug.ts";
import { LiveEditPanel } from "#app/components/news/live-edit-panel.tsx";
import { LIVE_FORM_PARAM, liveFormNotice, liveFormTexts } from "#app/.server/news/live/live-form.server.ts";
import { listTeams, storyTeams } from "#app/.server/news/taxonomy/teams.server.ts";
import { StoryTeamsPanel } from "#app/components/admin/story-teams-panel.tsx";
import { TEAMS_FORM_PARAM, teamsFormNotice } from "#app/lib/teams.ts";

export function meta() {
  return noindexMeta(t.newsForm.editTitle);
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, handle);
  const services = servicesOf(context);
  const { config, news, newsEditor, log, database, pushAlerts } = services;
  const common = { ...(await newsFormLoaderData(request, services, viewer.userId)), role: viewer.role };
  try {
    // A reporter opens only their own stories (any status: a correction once published): anyone else's is a 403.
    await newsEditor.requireMayEdit(params.id, memberActor(viewer));
    const article = await news.getNews(params.id, { includeUnpublished: true });
    const initialPublishAt = article.status === "scheduled" ? toLocalInputValue(article.publishedAt, config.timeZone) : "";
    // This user's autosave of the story, offered when it is newer than the story's last save (never another user's).
    const autosave = await findNewsAutosave(database.db, article.id, viewer.userId);
    // Returned to its reporter: the editor's note, until it is sent for review again.
    const returned = article.status === "draft" ? await pendingReturn(database.db, article.id) : null;
    // Live coverage: its state and scoreboard for the panel under the form (components/news/live-edit-panel.tsx).
    const live = await services.liveCoverage.currentCoverage(article.id);
    // A match announced before its coverage starts (the form under the panel while the coverage is off).
    const announced = live ? null : await services.liveCoverage.currentAnnouncement(article.id);
    // The desk's clubs and the story's (the "Times da notícia" panel).
    const [teamList, tagged] = await Promise.all([listTeams(database.db), storyTeams(database.db, article.id)]);
    const announcement = {
      home: announced?.home ?? "",
      away: announced?.away ?? "",
      kickoffAt: announced ? toLocalInputValue(announced.kickoffAt, config.timeZone) : "",
      competition: announced?.competition ?? "",
      announced: announced !== null,
    };
    return {
      ...common,
      article,
      initialPublishAt,
      loadError: null,
      landed: landedMessage(request, article, config.timeZone, common.storeLabel),
      autosave: autosave && autosave.savedAt > article.updatedAt ? autosave : null,
      returned: returned ? { by: returned.by, at: returned.at, note: returned.note ?? "" } : null,
      // "Devolver ao repórter": editors and admins, on a story in review; why the last return was refused, if it was.
      mayReturn: article.status === "review" && mayReturn(viewer.role),
      returnError: returnErrorOf(new URL(request.url).searchParams.get("devolucao")),
      live,
      announcement,
      articlePath: articlePath(article),
      // After one of the coverage's plain forms (POST /api/news/:id/live): what happened, in words.
      liveNotice: liveFormNotice(new URL(request.url).searchParams.get(LIVE_FORM_PARAM)),
      liveFormTexts: liveFormTexts("edit", { alerts: pushAlerts.enabled && mayAlert(viewer.role) }),
      // "Alerta aos leitores": for who may send alerts (mayAlert), where alerts are on.
      alertPanel:
        pushAlerts.enabled && mayAlert(viewer.role)
          ? {
              ...(await pushAlerts.alertsOf(article.id)),
              published: article.status === "published",
              notice: alertNoticeOf(new URL(request.url).searchParams.get(ALERT_FORM_PARAM)),
            }
          : null,
      teams: {
        list: teamList.map(({ slug, name }) => ({ slug, name })),
        selected: tagged.map((team) => team.slug),
        notice: teamsFormNotice(new URL(request.url).searchParams.get(TEAMS_FORM_PARAM)),
        // The link to the clubs' page, for whom its menu entry is shown.
        managesList: hasRole(viewer.role, MENU_ROLES["/times"]),
      },
    };
  } catch (error) {
    const requestId = requestIdFrom(request);
    if (!(error instanceof AppError && error.status < 500)) log.error({ err: error, reqId: requestId }, "news load for editing failed");
    // The page says what went wrong, with the status that goes with it (a missing item is a 404, not a 200).
    const status = error instanceof AppError ? error.status : 500;
    return data(
      {
        ...common,
        article: null,
        initialPublishAt: "",
        landed: null,
        autosave: null,
        returned: null,
        mayReturn: false,
        returnError: null,
        live: null,
        announcement: null,
        articlePath: "",
        liveNotice: null,
        liveFormTexts: liveFormTexts("edit"),
        alertPanel: null,
        teams: null,
        loadError: t.newsForm.loadError(params.id, publicErrorMessage(error, requestId)),
      },
      { status },
    );
  }
}

/**
 * After a save that landed here (`?salva=`): what happened, said from the story as it is now (not from the address),
 * and whether it is live (the "Ver publicada" link).
 */
function landedMessage(request: Request, article: { status: NewsStatus; publishedAt: string }, timeZone: string, storeLabel: string) {
  const search = new URL(request.url).searchParams;
  if (search.get("devolvida") && article.status === "draft") return { message: t.review.returned, published: false };
  const outcome = search.get("salva");
  if (!outcome) return null;
  const media = MEDIA_OUTCOMES.find((name) => name === search.get("midia")) ?? "none";
  const message =
    outcome === UNPUBLISHED_OUTCOME && article.status === "draft"
      ? t.newsForm.unpublished
      : article.status === "review"
        ? t.newsForm.reviewSaved
        : article.status === "draft"
          ? t.newsForm.draftSaved
          : article.status === "scheduled"
            ? t.newsForm.scheduledSaved(formatDateTime(article.publishedAt, timeZone))
            : t.newsForm.success(false, media, storeLabel);
  return { message, published: article.status === "published" };
}

/** What the "Enviar alerta" form's post did (`?alerta=`), in words. */
function alertNoticeOf(code: string | null): { kind: "success" | "error"; message: string } | null {
  if (!code) return null;
  if (code === "sent") return { kind: "success", message: t.deskAlerts.sent };
  const messages: Record<string, string> = {
    alert_unconfirmed: t.deskAlerts.unconfirmed,
    alert_already_sent: t.deskAlerts.alreadySent,
    alert_not_public: t.deskAlerts.notPublic,
  };
  return { kind: "error", message: messages[code] ?? t.news.updateFailed };
}

/** The message for a refused return (`?devolucao=<code>`, set by POST /api/news/:id/return). */
function returnErrorOf(code: string | null): string | null {
  if (!code) return null;
  const messages: Record<string, string> = {
    note_required: t.review.noteRequired,
    note_too_long: t.review.noteTooLong(REVIEW_NOTE_MAX),
    not_in_review: t.review.notInReview,
    note_invalid: t.review.noteInvalid,
    role_forbidden: t.review.returnForbidden,
    return_forbidden: t.review.returnForbidden,
    news_version_conflict: t.newsForm.conflict,
  };
  return messages[code] ?? t.news.updateFailed;
}

export function action({ request, params, context }: Route.ActionArgs) {
  return handleNewsFormAction(request, context, params.id);
}

export default function EditNews({ loaderData, actionData, params }: Route.ComponentProps) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [searchParams] = useSearchParams();
  // A new form only when the editor asks for the saved version (after a conflict), never on a live update.
  const [reloads, setReloads] = useState(0);
  // The saved version the editor asked for: the new form is drawn once the page's data holds it (the reload asked for
  // may come back before a live reload already under way does, with the data that one started from).
  const [awaited, setAwaited] = useState<number | null>(null);
  if (navigation.state === "loading" && navigation.location.pathname === href("/edit-news/:id", { id: params.id })) {
    return <Spinner label={t.newsForm.editTitle} />;
  }
  const {
    article,
    loadError,
    landed,
    returned,
    mayReturn,
    returnError,
    live,
    announcement,
    articlePath: livePath,
    liveNotice,
    liveFormTexts: formTexts,
    alertPanel,
    teams,
    ...rest
  } = loaderData;
  if (awaited !== null && article && article.version >= awaited) {
    setAwaited(null);
    setReloads((count) => count + 1);
  }
  if (!article) {
    return (
      <section className="page-narrow" role="alert">
        <p>{loadError}</p>
        <Link to="/" className={buttons.primary}>
          {t.article.backHome}
        </Link>
      </section>
    );
  }
  return (
    <NewsReturnLink>
      <NewsForm
        // A landing (`v`: the version just saved) draws a new form; live updates do not.
        key={`${article.id}:${reloads}:${searchParams.get("v") ?? ""}`}
        landed={landed}
        onReload={(savedVersion) => {
          setAwaited(savedVersion);
          void revalidator.revalidate();
        }}
        mode="edit"
        newsId={article.id}
        initial={valuesFrom(actionData?.values, {
          title: article.title,
          subtitle: article.subtitle,
          body: article.body,
          category: article.category,
          author: article.author === rest.defaultAuthor ? "" : article.author,
          mediaDescription: article.media?.description ?? "",
          mediaCaption: article.media?.caption ?? "",
          mediaCredit: article.media?.credit ?? "",
          isHighlighted: article.isHighlighted,
        })}
        currentMedia={article.media}
        publication={{ status: article.status, publishedAt: article.publishedAt, version: article.version, mediaId: article.mediaId }}
        serverResult={actionData}
        notice={
          <>
            {returned ? <ReturnedNotice {...returned} timeZone={rest.timeZone} /> : null}
            {/* A refused return when the story is no longer in review (someone else returned or published it). */}
            {returnError && !mayReturn ? <Banner kind="error" message={returnError} /> : null}
          </>
        }
        {...rest}
      />
      <LiveEditPanel
        newsId={article.id}
        coverage={live}
        announcement={announcement}
        articlePath={livePath}
        notice={liveNotice}
        formTexts={formTexts}
      />
      {teams ? (
        <StoryTeamsPanel newsId={article.id} teams={teams.list} selected={teams.selected} notice={teams.notice} managesList={teams.managesList} />
      ) : null}
      {alertPanel ? <StoryAlertPanel newsId={article.id} timeZone={rest.timeZone} {...alertPanel} /> : null}
      {mayReturn ? <ReturnToReporter newsId={article.id} version={article.version} error={returnError} /> : null}
    </NewsReturnLink>
  );
}

export function ErrorBoundary() {
  if (isConnectionError(useRouteError())) return <OfflineState />;
  return <ErrorState title={t.admin.editPageError} actionLabel={t.errors.backHome} />;
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
/** Reporters open their own stories here (checked by the loader and the save); editors and admins any story. */
export const handle = routeFacts({ cache: false, uploads: true, role: "reporter" });
