import { href } from "react-router";
import { lazy, Suspense, useEffect, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import { LIVE_FORM_ANCHOR, type LiveCoverageInfo, type LiveFormNotice, type LiveFormTexts } from "#app/lib/live-coverage.ts";
import styles from "./live-coverage.module.css";
import { LiveForms } from "./live-forms.tsx";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import buttons from "#app/components/ui/button.module.css";

// The same controls as on the article page (a chunk of their own).
const LiveNewsroomPanel = lazy(() => import("./live-newsroom.tsx").then((module) => ({ default: module.LiveNewsroomPanel })));

const nothing = () => undefined;

/** The announcement form's values (the kickoff on the site's clock, as the field takes it). */
export interface AnnouncementValues {
  home: string;
  away: string;
  kickoffAt: string;
  competition: string;
  /** The story announces this match now. */
  announced: boolean;
}

interface LiveEditPanelProps {
  newsId: string;
  coverage: LiveCoverageInfo | null;
  /** While the coverage is off: the match it announces, or empty values. */
  announcement: AnnouncementValues | null;
  articlePath: string;
  /** What the last plain form sent did (`?cobertura=`), in words. */
  notice: LiveFormNotice | null;
  /** The plain forms' words (components/news/live-forms.tsx). */
  formTexts: LiveFormTexts;
}

/**
 * A story's live coverage on its edit page (/edit-news/:id), under the news form and outside it: start, end or turn
 * off the coverage, the scoreboard and the composer. With JavaScript, the article page's panel: nothing there reloads
 * the page's data (it keeps the server's answers), so the form's unsaved text is never touched by posting an update
 * or changing the score. Without it (and until the page is hydrated), the plain HTML forms of live-forms.tsx, posted
 * to POST /api/news/:id/live, which comes back here with the outcome. Each update's own actions (edit, pin, delete) stay
 * on the article, linked here.
 */
export function LiveEditPanel({ newsId, coverage, announcement, articlePath, notice, formTexts }: LiveEditPanelProps) {
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
          <LiveNewsroomPanel newsId={newsId} coverage={coverage} onPosted={nothing} onCoverageChange={nothing} guardLeave={false} />
        </Suspense>
      ) : (
        <LiveForms newsId={newsId} coverage={coverage} back="edit" texts={formTexts} />
      )}
      {!coverage && announcement ? <AnnounceForm newsId={newsId} values={announcement} /> : null}
    </section>
  );
}

/**
 * "Anunciar a partida", while the coverage has not started: the teams, the kickoff (on the site's clock) and the
 * competition. A plain form (the same with or without JavaScript) posted to POST /api/news/:id/live, which comes back
 * here with the outcome; the story then shows in "Jogos de hoje" and its coverage turns live by itself at the kickoff.
 */
function AnnounceForm({ newsId, values }: { newsId: string; values: AnnouncementValues }) {
  const action = href("/api/news/:id/live", { id: newsId });
  const texts = t.liveNewsroom;
  return (
    <form method="post" action={action} className={styles.announce} data-testid="live-announce">
      <input type="hidden" name="back" value="edit" />
      <h3>{texts.announceTitle}</h3>
      <p className={styles.hint}>{texts.announceIntro}</p>
      <div className={styles.announceFields}>
        <label>
          {texts.home}
          <input name="home" defaultValue={values.home} maxLength={LIVE_LIMITS.teamName} required />
        </label>
        <label>
          {texts.away}
          <input name="away" defaultValue={values.away} maxLength={LIVE_LIMITS.teamName} required />
        </label>
        <label>
          {texts.kickoffLabel}
          <input type="datetime-local" name="kickoffAt" defaultValue={values.kickoffAt} required />
        </label>
        <label>
          {texts.competitionLabel}
          <input name="competition" defaultValue={values.competition} maxLength={LIVE_LIMITS.competition} />
        </label>
      </div>
      <div className={styles.announceActions}>
        <button type="submit" name="intent" value="announce" className={buttons.primary}>
          {values.announced ? texts.changeAnnouncement : texts.announce}
        </button>
        {values.announced ? (
          <button type="submit" name="intent" value="unannounce" formNoValidate className={buttons.secondary}>
            {texts.unannounce}
          </button>
        ) : null}
      </div>
    </form>
  );
}

function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
