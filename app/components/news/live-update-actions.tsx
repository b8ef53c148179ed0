import { useId, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { LiveUpdateView } from "#app/lib/live-coverage.ts";
import styles from "./live-coverage.module.css";

import { newsUrl, send } from "./live-newsroom-api.ts";
import { bodyOf, fieldErrorsOf, fieldsOf, type LiveUpdateFieldErrors, type LiveUpdateFields, LiveUpdateEditor } from "./live-update-editor.tsx";

/**
 * Under each update: edit it (its minute, its event and its text in the rich-text editor: the composer's own fields,
 * live-update-editor.tsx), pin or unpin it, mark or unmark it as a key event, delete it (after a confirmation). The
 * editor starts from the update's document and gives one back, so bold, italic, links and the update's image or
 * embed survive an edit that changes a word.
 */
export function LiveUpdateActions({ newsId, update, onChanged }: { newsId: string; update: LiveUpdateView; onChanged: () => Promise<void> | void }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  // What the fields hold: the update's own document (its bold, italic, links, image or embed), minute and event.
  const [fields, setFields] = useState<LiveUpdateFields>(() => fieldsOf(update));
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<LiveUpdateFieldErrors>({});
  const [busy, setBusy] = useState(false);
  const url = `${newsUrl(newsId)}/updates/${encodeURIComponent(update.id)}`;
  const act = async (method: "PATCH" | "DELETE", body?: unknown) => {
    setBusy(true);
    const sent = await send(method, url, body);
    setBusy(false);
    const byField = sent.ok ? {} : fieldErrorsOf(sent.fields);
    const placed = editing && Boolean(byField.text || byField.minute || byField.eventType);
    setErrors(placed ? byField : {});
    setError(sent.ok || placed ? null : sent.message);
    if (sent.ok) {
      setEditing(false);
      await onChanged();
    }
  };
  if (editing) {
    return (
      <div className={styles.updateActions}>
        <div className={styles.editFields} data-testid="live-edit-editor">
          <LiveUpdateEditor id={id} value={fields} onChange={setFields} errors={errors} disabled={busy} labelHidden />
        </div>
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="button"
          className={styles.actionButton}
          disabled={busy}
          onClick={() => void act("PATCH", bodyOf(fields))}
          data-testid="live-edit-save"
        >
          {t.liveNewsroom.save}
        </button>
        <button type="button" className={styles.actionButton} onClick={() => setEditing(false)}>
          {t.liveNewsroom.cancel}
        </button>
      </div>
    );
  }
  return (
    <div className={styles.updateActions}>
      <button
        type="button"
        className={styles.actionButton}
        onClick={() => {
          setFields(fieldsOf(update));
          setError(null);
          setErrors({});
          setEditing(true);
        }}
        data-testid="live-edit"
      >
        {t.liveNewsroom.edit}
      </button>
      <button
        type="button"
        className={styles.actionButton}
        disabled={busy}
        onClick={() => void act("PATCH", { pinned: !update.pinned })}
        data-testid="live-pin"
      >
        {update.pinned ? t.liveNewsroom.unpin : t.liveNewsroom.pin}
      </button>
      <button type="button" className={styles.actionButton} disabled={busy} onClick={() => void act("PATCH", { keyEvent: !update.keyEvent })}>
        {update.keyEvent ? t.liveNewsroom.unmarkKey : t.liveNewsroom.markKey}
      </button>
      <button
        type="button"
        className={`${styles.actionButton} ${styles.danger}`}
        disabled={busy}
        onClick={() => {
          if (window.confirm(t.liveNewsroom.deleteConfirm)) void act("DELETE");
        }}
        data-testid="live-delete"
      >
        {t.liveNewsroom.delete}
      </button>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
