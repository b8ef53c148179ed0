import { href } from "react-router";
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useRef, useState } from "react";
import { formatDateTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import { REVIEW_NOTE_MAX } from "#app/lib/limits.ts";
import buttons from "#app/components/ui/button.module.css";
import { cleanPaste } from "./clean-paste.ts";
import dialogStyles from "./confirm-dialog.module.css";
import { useFormForReturn } from "./news-return-link.tsx";
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
 * sends the page back here (works without JavaScript). `error`: why the last return was refused. With JavaScript and
 * the news form above holding unsaved changes (news-return-link.tsx), it asks first: save them with the return (saved
 * as a new version, still in review, then returned), or return without them; either way the page changes without the
 * leave guard's "Sair sem salvar?", which would only drop them.
 */
export function ReturnToReporter({ newsId, version, error }: { newsId: string; version: number; error: string | null }) {
  const formFor = useFormForReturn();
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const versionRef = useRef<HTMLInputElement>(null);
  const [asking, setAsking] = useState(false);
  const [saving, setSaving] = useState(false);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const form = formFor();
    if (!form?.dirty) {
      form?.allowLeave();
      return;
    }
    event.preventDefault();
    setAsking(true);
  }

  /** The return goes as the plain form would (the server answers with the edit page), on `sentVersion`. */
  function sendReturn(sentVersion: number) {
    formFor()?.allowLeave();
    if (versionRef.current) versionRef.current.value = String(sentVersion);
    formRef.current?.submit();
  }

  async function saveAndReturn() {
    const form = formFor();
    if (!form) return;
    setSaving(true);
    const saved = await form.saveBeforeReturn();
    setSaving(false);
    setAsking(false);
    if (saved !== null) sendReturn(saved);
  }

  return (
    <section className={styles.panel} aria-labelledby="devolver-titulo" data-testid="review-return">
      <h2 id="devolver-titulo">{t.review.returnTitle}</h2>
      <p>{t.review.returnIntro}</p>
      {error ? (
        <p className={styles.error} role="alert" data-testid="review-return-error">
          {error}
        </p>
      ) : null}
      <form ref={formRef} method="post" action={href("/api/news/:id/return", { id: newsId })} onSubmit={onSubmit} onPaste={cleanPaste}>
        <input ref={versionRef} type="hidden" name="version" value={version} />
        <label htmlFor="review-note">{t.review.noteLabel}</label>
        <textarea id="review-note" name="note" required maxLength={REVIEW_NOTE_MAX} rows={3} />
        <button ref={submitRef} type="submit" className={buttons.secondary}>
          {t.review.returnSubmit}
        </button>
      </form>
      <AlertDialog.Root open={asking} onOpenChange={(open) => !saving && setAsking(open)}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className={dialogStyles.overlay} />
          <AlertDialog.Content
            className={dialogStyles.dialog}
            data-testid="review-return-dialog"
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (submitRef.current?.isConnected) submitRef.current.focus();
            }}
          >
            <AlertDialog.Title className={dialogStyles.title}>{t.review.returnUnsavedTitle}</AlertDialog.Title>
            <AlertDialog.Description className={dialogStyles.text}>{t.review.returnUnsavedText}</AlertDialog.Description>
            <div className={dialogStyles.actions}>
              <AlertDialog.Cancel className={buttons.secondary} disabled={saving}>
                {t.review.returnCancel}
              </AlertDialog.Cancel>
              <button type="button" className={buttons.secondary} disabled={saving} onClick={() => sendReturn(version)}>
                {t.review.returnWithoutChanges}
              </button>
              <button type="button" className={buttons.primary} disabled={saving} onClick={() => void saveAndReturn()}>
                {saving ? t.review.returnSaving : t.review.returnWithChanges}
              </button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </section>
  );
}
