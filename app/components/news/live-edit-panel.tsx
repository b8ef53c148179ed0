import { lazy, Suspense, useEffect, useId, useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import { LIVE_FORM_ANCHOR, type LiveCoverageInfo } from "../../lib/live-coverage.ts";
import { LIVE_LIMITS } from "../../lib/limits.ts";
import buttons from "../ui/button.module.css";
import styles from "./live-coverage.module.css";

// The same controls as on the article page (a chunk of their own).
const LiveNewsroomPanel = lazy(() => import("./live-newsroom.tsx").then((module) => ({ default: module.LiveNewsroomPanel })));

const nothing = () => undefined;

interface LiveEditPanelProps {
  newsId: string;
  coverage: LiveCoverageInfo | null;
  articlePath: string;
  /** What the last plain form sent did (`?cobertura=`), in words. */
  notice: { kind: "ok" | "error"; message: string } | null;
}

/**
 * A story's live coverage on its edit page (/edit-news/:id), under the news form and outside it: start, end or turn
 * off the coverage, the scoreboard and the composer. With JavaScript, the article page's panel: nothing there reloads
 * the page's data (it keeps the server's answers), so the form's unsaved text is never touched by posting an update
 * or changing the score. Without it (and until the page is hydrated), plain HTML forms posted to
 * POST /api/news/:id/live, which comes back here with the outcome. Each update's own actions (edit, pin, delete) stay
 * on the article, linked here.
 */
export function LiveEditPanel({ newsId, coverage, articlePath, notice }: LiveEditPanelProps) {
  const mounted = useMounted();
  return (
    <section id={LIVE_FORM_ANCHOR} className={styles.editSection} aria-labelledby={`${LIVE_FORM_ANCHOR}-titulo`} data-testid="live-edit-panel">
      <h2 id={`${LIVE_FORM_ANCHOR}-titulo`}>{t.liveNewsroom.editTitle}</h2>
      <p>{t.liveNewsroom.editIntro}</p>
      <p>
        <a href={articlePath} target="_blank" rel="noopener">
          {t.liveNewsroom.openArticle}
        </a>
      </p>
      {notice ? (
        <p
          className={notice.kind === "ok" ? styles.ok : styles.error}
          role={notice.kind === "ok" ? "status" : "alert"}
          data-testid="live-form-notice"
        >
          {notice.message}
        </p>
      ) : null}
      {mounted ? (
        <Suspense fallback={null}>
          <LiveNewsroomPanel newsId={newsId} coverage={coverage} onPosted={nothing} onCoverageChange={nothing} />
        </Suspense>
      ) : (
        <LiveForms newsId={newsId} coverage={coverage} />
      )}
    </section>
  );
}

/** The controls as plain forms: what a newsroom member without JavaScript gets (each one reloads the page). */
function LiveForms({ newsId, coverage }: { newsId: string; coverage: LiveCoverageInfo | null }) {
  const id = useId();
  const action = `/api/news/${encodeURIComponent(newsId)}/live`;
  const scoreboard = coverage?.scoreboard;
  return (
    <div className={styles.newsroom} data-testid="live-forms" data-coverage={coverage?.state ?? "off"}>
      <p className={styles.hint}>{t.liveNewsroom.noScriptNote}</p>
      <form method="post" action={action} className={styles.coverageControls}>
        {coverage?.state === "live" ? (
          <button type="submit" name="intent" value="ended" className={buttons.secondary}>
            {t.liveNewsroom.end}
          </button>
        ) : (
          <button type="submit" name="intent" value="live" className={buttons.primary}>
            {coverage ? t.liveNewsroom.resume : t.liveNewsroom.start}
          </button>
        )}
      </form>
      {coverage ? (
        <>
          <form method="post" action={action} encType="multipart/form-data" className={styles.composer}>
            <h3 className={styles.composerTitle}>{t.liveNewsroom.composerTitle}</h3>
            <label htmlFor={`${id}-text`}>{t.liveNewsroom.textLabel}</label>
            <textarea id={`${id}-text`} name="text" rows={3} maxLength={LIVE_LIMITS.updateText} required aria-describedby={`${id}-hint`} />
            <p id={`${id}-hint`} className={styles.hint}>
              {t.liveNewsroom.textHint}
            </p>
            <div className={styles.checks}>
              <label>
                <input type="checkbox" name="keyEvent" /> {t.liveNewsroom.keyEvent}
              </label>
              <label>
                <input type="checkbox" name="pinned" /> {t.liveNewsroom.pinned}
              </label>
            </div>
            <button type="submit" name="intent" value="post" className={buttons.primary}>
              {t.liveNewsroom.post}
            </button>
          </form>
          <form method="post" action={action} className={styles.composer}>
            <h3 className={styles.composerTitle}>{t.liveNewsroom.scoreboardTitle}</h3>
            <div className={styles.teams}>
              <div className={styles.teamEditor}>
                <label htmlFor={`${id}-home`}>{t.liveNewsroom.home}</label>
                <input id={`${id}-home`} name="home" defaultValue={scoreboard?.home ?? ""} maxLength={LIVE_LIMITS.teamName} required />
                <label htmlFor={`${id}-homeScore`}>{t.liveNewsroom.homeScore}</label>
                <input
                  id={`${id}-homeScore`}
                  name="homeScore"
                  type="number"
                  min={0}
                  max={LIVE_LIMITS.scoreMax}
                  defaultValue={scoreboard?.homeScore ?? 0}
                  required
                />
              </div>
              <div className={styles.teamEditor}>
                <label htmlFor={`${id}-away`}>{t.liveNewsroom.away}</label>
                <input id={`${id}-away`} name="away" defaultValue={scoreboard?.away ?? ""} maxLength={LIVE_LIMITS.teamName} required />
                <label htmlFor={`${id}-awayScore`}>{t.liveNewsroom.awayScore}</label>
                <input
                  id={`${id}-awayScore`}
                  name="awayScore"
                  type="number"
                  min={0}
                  max={LIVE_LIMITS.scoreMax}
                  defaultValue={scoreboard?.awayScore ?? 0}
                  required
                />
              </div>
            </div>
            <label htmlFor={`${id}-period`}>{t.liveNewsroom.period}</label>
            <input id={`${id}-period`} name="period" defaultValue={scoreboard?.period ?? ""} maxLength={LIVE_LIMITS.period} />
            <button type="submit" name="intent" value="scoreboard" className={buttons.primary}>
              {t.liveNewsroom.saveScoreboard}
            </button>
          </form>
          <form method="post" action={action} className={styles.composer}>
            <label>
              <input type="checkbox" name="confirm" required /> {t.liveNewsroom.turnOffConfirmBox}
            </label>
            <button type="submit" name="intent" value="off" className={`${buttons.secondary} ${styles.danger}`}>
              {t.liveNewsroom.turnOff}
            </button>
          </form>
        </>
      ) : null}
    </div>
  );
}

function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
