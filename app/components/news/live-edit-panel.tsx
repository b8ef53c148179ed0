import { lazy, Suspense, useEffect, useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import { LIVE_FORM_ANCHOR, type LiveCoverageInfo, type LiveFormNotice, type LiveFormTexts } from "../../lib/live-coverage.ts";
import styles from "./live-coverage.module.css";
import { LiveForms } from "./live-forms.tsx";

// The same controls as on the article page (a chunk of their own).
const LiveNewsroomPanel = lazy(() => import("./live-newsroom.tsx").then((module) => ({ default: module.LiveNewsroomPanel })));

const nothing = () => undefined;

interface LiveEditPanelProps {
  newsId: string;
  coverage: LiveCoverageInfo | null;
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
export function LiveEditPanel({ newsId, coverage, articlePath, notice, formTexts }: LiveEditPanelProps) {
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
    </section>
  );
}

function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
