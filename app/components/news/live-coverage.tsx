import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { formatCardTime, formatTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import {
  type KeyEventView,
  LIVE_FORM_ANCHOR,
  type LiveCoverageInfo,
  type LiveFormNotice,
  type LiveFormTexts,
  liveUpdateAnchor,
  type LiveUpdatesPage,
  type LiveUpdateView,
} from "#app/lib/live-coverage.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { useLiveCoverage } from "#app/lib/use-live-coverage.ts";
import styles from "./live-coverage.module.css";
import { LiveForms } from "./live-forms.tsx";
import { LiveEventMark } from "./live-event-mark.tsx";
import { LiveScoreboard } from "./live-scoreboard.tsx";
import { LiveUpdateItem, useLiveNow } from "./live-update-item.tsx";

// The newsroom's controls (composer, scoreboard, coverage, each update's actions): a chunk readers never load.
const LiveNewsroomPanel = lazy(() => import("./live-newsroom.tsx").then((module) => ({ default: module.LiveNewsroomPanel })));
const LiveUpdateActions = lazy(() => import("./live-update-actions.tsx").then((module) => ({ default: module.LiveUpdateActions })));

/** The query parameter of an older page of updates (a cursor), on the article's address. */
export const LIVE_CURSOR_PARAM = "atualizacoes";

interface LiveCoverageProps {
  newsId: string;
  /** The server's page of updates, or null when the story has no coverage. */
  initial: LiveUpdatesPage | null;
  /** The cursor of the page shown (null: the newest). */
  cursor: string | null;
  articlePath: string;
  /** A signed-in newsroom member: the composer and the controls (the server checks each action). */
  newsroom: boolean;
  /** The newsroom's plain forms (before hydration, or without JavaScript): their words and the last one's outcome. */
  forms: { texts: LiveFormTexts; notice: LiveFormNotice | null } | null;
}

/**
 * A live story's coverage on its article: the scoreboard, the "Lances importantes" summary, the pinned updates and
 * the updates, newest first, paged with links (complete without JavaScript). With JavaScript it follows the story's
 * events (app/lib/use-live-coverage.ts).
 */
export function LiveCoverage(props: LiveCoverageProps) {
  const mounted = useMounted();
  const reloadPage = useReloadPage();
  if (!props.initial) {
    if (!props.newsroom) return null;
    return mounted ? (
      <Suspense fallback={null}>
        <LiveNewsroomPanel newsId={props.newsId} coverage={null} onPosted={() => undefined} onCoverageChange={reloadPage} />
      </Suspense>
    ) : (
      <NewsroomForms newsId={props.newsId} coverage={null} forms={props.forms} />
    );
  }
  return <LiveCoverageOn {...props} initial={props.initial} mounted={mounted} />;
}

/** The article's data again after the coverage changed: the badge, the scoreboard and the updates come with it. */
function useReloadPage() {
  const revalidator = useRevalidator();
  return async () => {
    await revalidator.revalidate();
  };
}

function LiveCoverageOn({
  newsId,
  initial,
  cursor,
  articlePath,
  newsroom,
  forms,
  mounted,
}: LiveCoverageProps & { initial: LiveUpdatesPage; mounted: boolean }) {
  const listRef = useRef<HTMLOListElement>(null);
  const firstPage = cursor === null;
  const { page, pending, unseen, showPending, refresh } = useLiveCoverage(newsId, initial, { firstPage, listRef });
  const now = useLiveNow();
  useUnseenTitle(unseen);
  const controls = newsroom && mounted;
  const reloadPage = useReloadPage();
  const actionsOf = (update: LiveUpdateView) =>
    controls ? (
      <Suspense fallback={null}>
        <LiveUpdateActions newsId={newsId} update={update} onChanged={refresh} />
      </Suspense>
    ) : undefined;
  const empty = page.updates.length === 0 && page.pinned.length === 0;
  return (
    <section className={styles.live} aria-labelledby="atualizacoes-titulo" data-testid="live-coverage" data-coverage={page.coverage?.state ?? "off"}>
      {page.coverage?.scoreboard ? <LiveScoreboard scoreboard={page.coverage.scoreboard} /> : null}
      {page.coverage?.state === "live" ? <UpdatedAgo coverage={page.coverage} updates={page.updates} now={now} articlePath={articlePath} /> : null}
      {page.coverage?.state === "ended" ? (
        <p className={styles.ended} data-testid="live-ended">
          {page.coverage.scoreboard ? t.live.endedMatch : t.live.endedNotice}
        </p>
      ) : null}
      {newsroom && !mounted ? <NewsroomForms newsId={newsId} coverage={page.coverage} forms={forms} /> : null}
      {controls ? (
        <Suspense fallback={null}>
          <LiveNewsroomPanel newsId={newsId} coverage={page.coverage} onPosted={refresh} onCoverageChange={reloadPage} />
        </Suspense>
      ) : null}
      {page.keyEvents.length > 0 ? <KeyEvents events={page.keyEvents} /> : null}
      <h2 id="atualizacoes-titulo" className={styles.heading}>
        <span id="atualizacoes">{t.live.updatesTitle}</span>
      </h2>
      {pending.length > 0 ? (
        <button type="button" className={styles.newUpdates} onClick={showPending} data-testid="live-new-updates">
          {t.live.newUpdates(pending.length)}
        </button>
      ) : null}
      {firstPage && page.pinned.length > 0 ? (
        <ol className={styles.updates} data-testid="live-pinned">
          {page.pinned.map((update) => (
            <LiveUpdateItem key={update.id} update={update} now={now} media={page.media} actions={actionsOf(update)} />
          ))}
        </ol>
      ) : null}
      <ol ref={listRef} className={styles.updates} data-testid="live-updates">
        {page.updates.map((update) => (
          <LiveUpdateItem key={update.id} update={update} now={now} media={page.media} actions={actionsOf(update)} />
        ))}
      </ol>
      {empty ? <p className={styles.empty}>{t.live.noUpdates}</p> : null}
      <nav className={styles.pager} aria-label={t.live.updatesTitle}>
        {cursor ? (
          <Link to={`${articlePath}#atualizacoes`} data-testid="live-newest">
            {t.live.newestUpdates}
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link to={`${articlePath}?${LIVE_CURSOR_PARAM}=${encodeURIComponent(page.nextCursor)}#atualizacoes`} data-testid="live-older">
            {t.live.olderUpdates}
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

/**
 * "Atualizado há 3 min" under a live match's scoreboard (the coverage's last change: an update, the score), with a
 * plain "Atualizar" link: without JavaScript the page does not follow the match by itself. The time is the page's
 * clock (useLiveNow), so a cached page says how old its news is as soon as it is shown.
 */
function UpdatedAgo({
  coverage,
  updates,
  now,
  articlePath,
}: {
  coverage: LiveCoverageInfo;
  updates: readonly LiveUpdateView[];
  now: string;
  articlePath: string;
}) {
  const { site } = useRootData();
  const changes = [coverage.updatedAt, coverage.startedAt, updates[0]?.createdAt].filter((value): value is string => Boolean(value));
  const last = changes.sort().at(-1);
  if (!last) return null;
  return (
    <p className={styles.updatedAgo} data-testid="live-updated-ago">
      <time dateTime={last}>{t.live.updatedAgo(formatCardTime(last, last > now ? last : now, site.timeZone))}</time>{" "}
      <Link to={`${articlePath}#atualizacoes`} className={styles.refresh}>
        {t.live.refresh}
      </Link>
    </p>
  );
}

/** The newsroom's plain forms on the article, with what the last one sent did. */
function NewsroomForms({ newsId, coverage, forms }: { newsId: string; coverage: LiveCoverageInfo | null; forms: LiveCoverageProps["forms"] }) {
  if (!forms) return null;
  return (
    <>
      {forms.notice ? (
        <p
          className={forms.notice.kind === "ok" ? styles.ok : styles.error}
          role={forms.notice.kind === "ok" ? "status" : "alert"}
          data-testid="live-form-notice"
        >
          {forms.notice.message}
        </p>
      ) : null}
      <LiveForms id={LIVE_FORM_ANCHOR} newsId={newsId} coverage={coverage} back="article" texts={forms.texts} />
    </>
  );
}

/**
 * "Lances importantes": the updates with an event (a goal, a card…) or marked as key events, the latest in the match
 * first (by minute: orderKeyEvents), each with its minute and event ("32' ⚽ Gol"; the time of day when it has no
 * minute) and first line, a link to it on the page.
 */
function KeyEvents({ events }: { events: KeyEventView[] }) {
  const { site } = useRootData();
  return (
    <nav className={styles.keyEvents} aria-labelledby="lances-titulo" data-testid="live-key-events">
      <h2 id="lances-titulo" className={styles.keyEventsTitle}>
        {t.live.keyEventsTitle}
      </h2>
      <ol>
        {events.map((event) => (
          <li key={event.id}>
            <a href={`#${liveUpdateAnchor(event.id)}`} data-testid="live-key-event">
              {event.minute === null ? <time dateTime={event.createdAt}>{formatTime(event.createdAt, site.timeZone)}</time> : null}
              <LiveEventMark minute={event.minute} eventType={event.eventType} /> {event.summary}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** "(N) Título": the tab shows how many new updates the reader has not seen. */
function useUnseenTitle(count: number) {
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, "");
    document.title = count > 0 ? t.live.unseenTitle(count, base) : base;
  }, [count]);
}

function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
