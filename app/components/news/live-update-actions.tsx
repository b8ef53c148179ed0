import { lazy, Suspense, useId, useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import type { LiveUpdateView } from "../../lib/live-coverage.ts";
import type { RichDoc } from "../../lib/rich-text.ts";
import styles from "./live-coverage.module.css";

import { newsUrl, send } from "./live-newsroom-api.ts";

/**
 * Editing an update: the news body's rich-text editor (Tiptap), a chunk of its own downloaded only when an editor
 * opens an update to change it. It starts from the update's document and gives one back, so bold, italic, links and
 * the update's image or embed survive an edit that changes a word.
 */
const BodyEditor = lazy(() => import("../admin/body-editor.tsx"));

/** Under each update: edit it (in the rich-text editor), pin or unpin it, mark or unmark it as a key event, delete it (after a confirmation). */
export function LiveUpdateActions({ newsId, update, onChanged }: { newsId: string; update: LiveUpdateView; onChanged: () => Promise<void> | void }) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  // What the editor holds: the update's own document (its bold, italic, links, image or embed), sent back as it is.
  const [doc, setDoc] = useState<RichDoc>(update.body);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const url = `${newsUrl(newsId)}/updates/${encodeURIComponent(update.id)}`;
  const act = async (method: "PATCH" | "DELETE", body?: unknown) => {
    setBusy(true);
    const sent = await send(method, url, body);
    setBusy(false);
    setError(sent.ok ? null : sent.message);
    if (sent.ok) {
      setEditing(false);
      await onChanged();
    }
  };
  if (editing) {
    const labelId = `${id}-rotulo`;
    const errorId = `${id}-erro`;
    return (
      <div className={styles.updateActions}>
        <div className={styles.editBox} data-testid="live-edit-editor">
          <span id={labelId} className="visually-hidden">
            {t.liveNewsroom.textLabel}
          </span>
          <Suspense fallback={null}>
            <BodyEditor
              initial={update.body}
              onChange={setDoc}
              labelId={labelId}
              errorId={error ? errorId : undefined}
              invalid={Boolean(error)}
              disabled={busy}
            />
          </Suspense>
        </div>
        {error ? (
          <p id={errorId} className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="button"
          className={styles.actionButton}
          disabled={busy}
          onClick={() => void act("PATCH", { text: doc })}
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
          setDoc(update.body);
          setError(null);
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
