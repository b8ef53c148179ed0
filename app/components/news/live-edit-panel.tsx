import { lazy, Suspense, useEffect, useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import type { LiveCoverageInfo } from "../../lib/live-coverage.ts";
import styles from "./live-coverage.module.css";

// The same controls as on the article page (a chunk of their own).
const LiveNewsroomPanel = lazy(() => import("./live-newsroom.tsx").then((module) => ({ default: module.LiveNewsroomPanel })));

const nothing = () => undefined;

/**
 * A story's live coverage on its edit page (/edit-news/:id), under the news form and outside it: start, end or turn
 * off the coverage, the scoreboard and the composer. Nothing here reloads the page's data (the panel keeps the
 * server's answers), so the form's unsaved text is never touched by posting an update or changing the score; each
 * update's own actions (edit, pin, delete) stay on the article, linked here.
 */
export function LiveEditPanel({ newsId, coverage, articlePath }: { newsId: string; coverage: LiveCoverageInfo | null; articlePath: string }) {
  const mounted = useMounted();
  return (
    <section className={styles.editSection} aria-labelledby="cobertura-ao-vivo" data-testid="live-edit-panel">
      <h2 id="cobertura-ao-vivo">{t.liveNewsroom.editTitle}</h2>
      <p>{t.liveNewsroom.editIntro}</p>
      <p>
        <a href={articlePath} target="_blank" rel="noopener">
          {t.liveNewsroom.openArticle}
        </a>
      </p>
      {mounted ? (
        <Suspense fallback={null}>
          <LiveNewsroomPanel newsId={newsId} coverage={coverage} onPosted={nothing} onCoverageChange={nothing} />
        </Suspense>
      ) : null}
    </section>
  );
}

function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
