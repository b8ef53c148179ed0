import type { RefObject } from "react";
import { href, Link } from "react-router";
import { formatDateTime, formatTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import { Banner } from "./banner.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { DriveConnectionCard, type DriveStatusView } from "./drive-connection.tsx";
import type { NewsFormPublication } from "./news-form-values.ts";
import type { useLeaveGuard } from "./use-leave-guard.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./news-form.module.css";

interface NewsFormActionsProps {
  editing: boolean;
  newsId: string | undefined;
  /** A published story: "Salvar alterações" and, apart, "Despublicar"; never a draft or a schedule. */
  live: boolean;
  /**
   * A reporter (without "publica sem revisão"): "Salvar rascunho" and "Enviar para revisão" only (no schedule, no
   * publish); on their own published or scheduled story, "Salvar alterações" alone (it stays as it is, corrected).
   */
  reporter: boolean;
  /** A scheduled story. */
  scheduled?: boolean;
  busy: boolean;
  unpublishButton: RefObject<HTMLButtonElement | null>;
  /** Without JavaScript, "Despublicar" first comes back with its question: then a second button confirms. */
  confirmUnpublish: boolean;
}

/** The form's buttons, and (without JavaScript) the question before unpublishing. */
export function NewsFormActions({ editing, newsId, live, reporter, scheduled, busy, unpublishButton, confirmUnpublish }: NewsFormActionsProps) {
  // A reporter's correction of their own story that is live or scheduled: saved as it is, and the editors are told.
  const correction = reporter && (live || Boolean(scheduled));
  return (
    <>
      {correction ? (
        <p className={styles.correctionNote} data-testid="reporter-correction-note">
          {live ? t.roles.correctionLive : t.roles.correctionScheduled}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Link to={editing && newsId ? href("/article/:id/:slug?", { id: newsId }) : href("/news-list")} className={buttons.secondary}>
          {t.newsForm.cancel}
        </Link>
        {correction ? (
          <button
            type="submit"
            name="status"
            value={live ? "published" : "scheduled"}
            className={`${buttons.primary} ${styles.submit}`}
            disabled={busy}
          >
            {busy ? t.newsForm.saving : t.newsForm.submitEdit}
          </button>
        ) : reporter ? (
          <>
            <button type="submit" name="status" value="draft" className={buttons.secondary} disabled={busy}>
              {t.newsForm.saveDraft}
            </button>
            <button type="submit" name="status" value="review" className={`${buttons.primary} ${styles.submit}`} disabled={busy}>
              {busy ? t.newsForm.saving : t.newsForm.submitReview}
            </button>
          </>
        ) : live ? null : (
          <>
            {/* The first submit button is what Enter in a field presses: saving a draft never publishes by accident. */}
            <button type="submit" name="status" value="draft" className={buttons.secondary} disabled={busy}>
              {t.newsForm.saveDraft}
            </button>
            <button type="submit" name="status" value="scheduled" className={buttons.secondary} disabled={busy}>
              {t.newsForm.schedule}
            </button>
          </>
        )}
        {/* Live: Enter presses "Salvar alterações" (first), which keeps the story published. */}
        {reporter ? null : (
          <button type="submit" name="status" value="published" className={`${buttons.primary} ${styles.submit}`} disabled={busy}>
            {busy ? <span className={styles.spinner} aria-hidden="true" /> : null}
            {busy ? t.newsForm.saving : live ? t.newsForm.submitEdit : t.newsForm.submitCreate}
          </button>
        )}
        {live && !reporter ? (
          // With JavaScript it opens the dialog (onSubmit); without, the server answers with the same question.
          <button
            ref={unpublishButton}
            type="submit"
            name="unpublish"
            value="ask"
            // Without JavaScript the answer (the question) opens scrolled to it.
            formAction="#confirmar-despublicar"
            className={`${buttons.secondary} ${styles.unpublish}`}
            disabled={busy}
          >
            {t.newsForm.unpublish}
          </button>
        ) : null}
      </div>
      {live && confirmUnpublish && newsId ? (
        // Without JavaScript: the question the dialog asks, with the button that confirms (it sends the form again).
        // After the actions, so Enter in a field still presses "Salvar alterações" (the first submit button).
        <div id="confirmar-despublicar" className={styles.confirm} role="alert" data-testid="unpublish-confirm">
          <h2>{t.newsForm.unpublishTitle}</h2>
          <p>{t.newsForm.unpublishText}</p>
          <p className={styles.landedLinks}>
            <button type="submit" name="unpublish" value="on" className={buttons.primary}>
              {t.newsForm.unpublishConfirm}
            </button>
            <Link to={href("/edit-news/:id", { id: newsId })} className={buttons.secondary}>
              {t.newsForm.unpublishCancel}
            </Link>
          </p>
        </div>
      ) : null}
    </>
  );
}

interface NewsFormNoticesProps {
  landed: { message: string; published: boolean } | null | undefined;
  newsId: string | undefined;
  /** Editing: where the story stands (its status line and the history link). */
  publication: NewsFormPublication | undefined;
  /** Whether the history link is shown (comparing and restoring versions is an editor's). */
  history: boolean;
  timeZone: string;
  drive: DriveStatusView | null | undefined;
  storeConnected: boolean;
  /** The media store's name in the "not answering" warning ("S3", "disco local"). */
  storeName: string;
}

/** Above the fields: the links after a landing, the story's status and history, the media store's state. */
export function NewsFormNotices({ landed, newsId, publication, history, timeZone, drive, storeConnected, storeName }: NewsFormNoticesProps) {
  return (
    <>
      {landed && newsId ? (
        // The message is the banner (it clears after 3 s); the links stay.
        <div className={styles.landed} data-testid="news-landed">
          <p className={styles.landedLinks}>
            <Link to={`${href("/article/:id/:slug?", { id: newsId })}?previa=1`}>{t.newsForm.preview}</Link>
            {landed.published ? <Link to={href("/article/:id/:slug?", { id: newsId })}>{t.newsForm.viewPublished}</Link> : null}
          </p>
        </div>
      ) : null}
      {publication ? (
        <p className={styles.hint} data-testid="news-status">
          {t.newsForm.currentStatus(
            t.newsForm.statusLabel[publication.status],
            publication.status === "scheduled" ? formatDateTime(publication.publishedAt, timeZone) : null,
          )}{" "}
          {history && newsId ? <Link to={href("/edit-news/:id/historico", { id: newsId })}>{t.revisions.link}</Link> : null}
        </p>
      ) : null}
      {drive ? (
        <DriveConnectionCard status={drive} warning={t.newsForm.driveRequired} />
      ) : !storeConnected ? (
        <Banner kind="warning" message={t.storage.down.notice(storeName)} />
      ) : null}
    </>
  );
}

interface NewsFormDialogsProps {
  askUnpublish: boolean;
  setAskUnpublish(open: boolean): void;
  onUnpublish(): void;
  unpublishButton: RefObject<HTMLButtonElement | null>;
  guard: ReturnType<typeof useLeaveGuard>;
  /** When the autosave last kept the work (the leave question says so), or null. */
  autosaved: string | null;
  timeZone: string;
}

/** The questions the form asks: before unpublishing, and before leaving with changes unsaved. */
export function NewsFormDialogs({ askUnpublish, setAskUnpublish, onUnpublish, unpublishButton, guard, autosaved, timeZone }: NewsFormDialogsProps) {
  return (
    <>
      <ConfirmDialog
        open={askUnpublish}
        onOpenChange={setAskUnpublish}
        title={t.newsForm.unpublishTitle}
        text={t.newsForm.unpublishText}
        confirmLabel={t.newsForm.unpublishConfirm}
        cancelLabel={t.newsForm.unpublishCancel}
        onConfirm={onUnpublish}
        danger
        testId="unpublish-dialog"
        returnFocusTo={unpublishButton}
      />
      <ConfirmDialog
        open={guard.asking}
        onOpenChange={(open) => {
          if (!open) guard.stay();
        }}
        title={t.autosave.leaveTitle}
        text={autosaved ? t.autosave.leaveTextAutosaved(formatTime(autosaved, timeZone)) : t.autosave.leaveText}
        confirmLabel={t.autosave.leave}
        cancelLabel={t.autosave.stay}
        onConfirm={guard.leave}
        testId="leave-dialog"
      />
    </>
  );
}
