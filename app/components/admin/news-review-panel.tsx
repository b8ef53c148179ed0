import { formatDateTime } from "../../i18n/format.ts";
import { t } from "../../i18n/newsroom.ts";
import { REVIEW_NOTE_MAX } from "../../lib/limits.ts";
import buttons from "../ui/button.module.css";
import styles from "./news-review-panel.module.css";

/** The editor's note on a story returned to its reporter, at the top of the form until it is sent for review again. */
export function ReturnedNotice({ by, at, note, timeZone }: { by: string | null; at: string; note: string; timeZone: string }) {
  return (
    <div className={styles.returned} role="note" data-testid="review-returned">
      <p>{t.review.returnedNotice(by ?? t.review.someone, formatDateTime(at, timeZone), note)}</p>
    </div>
  );
}

/**
 * "Devolver ao repórter" (editors and admins, a story in review): a plain form to POST /api/news/:id/return, which
 * sends the page back here (works without JavaScript). `error`: why the last return was refused.
 */
export function ReturnToReporter({ newsId, version, error }: { newsId: string; version: number; error: string | null }) {
  return (
    <section className={styles.panel} aria-labelledby="devolver-titulo" data-testid="review-return">
      <h2 id="devolver-titulo">{t.review.returnTitle}</h2>
      <p>{t.review.returnIntro}</p>
      {error ? (
        <p className={styles.error} role="alert" data-testid="review-return-error">
          {error}
        </p>
      ) : null}
      <form method="post" action={`/api/news/${encodeURIComponent(newsId)}/return`}>
        <input type="hidden" name="version" value={version} />
        <label htmlFor="review-note">{t.review.noteLabel}</label>
        <textarea id="review-note" name="note" required maxLength={REVIEW_NOTE_MAX} rows={3} />
        <button type="submit" className={buttons.secondary}>
          {t.review.returnSubmit}
        </button>
      </form>
    </section>
  );
}
