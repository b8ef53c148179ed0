import { mayAlert } from "#app/lib/roles.ts";
import { useEffect, useId, useRef, useState } from "react";
import { formatTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { LiveCoverageInfo } from "#app/lib/live-coverage.ts";
import { hasLiveDraftText, LIVE_DRAFT_DELAY_MS, type LiveComposerDraft, liveDraftKey, parseLiveDraft } from "#app/lib/live-composer-draft.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { cleanPaste } from "#app/components/admin/clean-paste.ts";
import { ConfirmDialog } from "#app/components/admin/confirm-dialog.tsx";
import { useLeaveGuard } from "#app/components/admin/use-leave-guard.ts";
import { useNewsAutosave } from "#app/components/admin/use-news-autosave.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./live-coverage.module.css";

import { newsUrl, send } from "./live-newsroom-api.ts";
import { ScoreboardEditor } from "./live-scoreboard-editor.tsx";
import { bodyOf, EMPTY_UPDATE, fieldErrorsOf, type LiveUpdateFieldErrors, type LiveUpdateFields, LiveUpdateEditor } from "./live-update-editor.tsx";

/**
 * The newsroom's side of a live story, on its article page (a lazy chunk: readers never load it): start, end or
 * resume the coverage, the scoreboard with +/- buttons, the composer of an update, and each update's actions (edit,
 * pin, key event, delete). Every action is the JSON API's (the server checks the role and the story's owner); its
 * refusal shows the server's message.
 */

export function LiveNewsroomPanel({
  newsId,
  coverage: given,
  onPosted,
  onCoverageChange,
  guardLeave = true,
}: {
  newsId: string;
  coverage: LiveCoverageInfo | null;
  /** An update posted or the scoreboard saved (the article page fetches its updates again). */
  onPosted: () => Promise<void> | void;
  /**
   * The coverage started, ended or turned off (the server's answer). The article page reloads its data (the badge, the
   * updates); the edit page does not (its loaders would run under the form being typed): the panel keeps the answer.
   */
  onCoverageChange: (coverage: LiveCoverageInfo | null) => Promise<void> | void;
  /**
   * Ask before a link leaves the composer's unposted text (the article page). Off on the edit page: the news form's
   * own question is the page's (React Router keeps one blocker), and the composer's text is kept in this browser anyway.
   */
  guardLeave?: boolean;
}) {
  const [coverage, setCoverage] = useState(given);
  // The page's data changed (reloaded after an event): the panel follows it.
  const [seen, setSeen] = useState(given);
  if (given !== seen) {
    setSeen(given);
    setCoverage(given);
  }
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [askOff, setAskOff] = useState(false);
  const [askEnd, setAskEnd] = useState(false);
  const offButton = useRef<HTMLButtonElement>(null);
  const endButton = useRef<HTMLButtonElement>(null);
  const changeCoverage = async (state: "live" | "ended" | null) => {
    setBusy(true);
    const sent = await send("PATCH", newsUrl(newsId), { coverage: state });
    setBusy(false);
    setAskOff(false);
    setAskEnd(false);
    setError(sent.ok ? null : sent.message);
    if (!sent.ok) return;
    const next = (sent.json as { coverage?: LiveCoverageInfo | null } | null)?.coverage ?? null;
    setCoverage(next);
    await onCoverageChange(next);
  };
  return (
    <div className={styles.newsroom} data-testid="live-newsroom" data-coverage={coverage?.state ?? "off"}>
      <div className={styles.coverageControls}>
        {coverage?.state === "live" ? (
          <button ref={endButton} type="button" className={buttons.secondary} disabled={busy} onClick={() => setAskEnd(true)} data-testid="live-end">
            {t.liveNewsroom.end}
          </button>
        ) : (
          <button type="button" className={buttons.primary} disabled={busy} onClick={() => void changeCoverage("live")}>
            {coverage ? t.liveNewsroom.resume : t.liveNewsroom.start}
          </button>
        )}
        {coverage ? (
          <button
            ref={offButton}
            type="button"
            className={`${buttons.secondary} ${styles.danger}`}
            disabled={busy}
            onClick={() => setAskOff(true)}
            data-testid="live-turn-off"
          >
            {t.liveNewsroom.turnOff}
          </button>
        ) : null}
      </div>
      <ConfirmDialog
        open={askEnd}
        onOpenChange={setAskEnd}
        title={t.liveNewsroom.endTitle}
        text={t.liveNewsroom.endText}
        confirmLabel={t.liveNewsroom.endConfirm}
        cancelLabel={t.liveNewsroom.cancel}
        onConfirm={(event) => {
          // Open (its button disabled) until the server answers.
          event.preventDefault();
          void changeCoverage("ended");
        }}
        busy={busy}
        testId="live-end-dialog"
        returnFocusTo={endButton}
      />
      <ConfirmDialog
        open={askOff}
        onOpenChange={setAskOff}
        title={t.liveNewsroom.turnOffTitle}
        text={t.liveNewsroom.turnOffText}
        confirmLabel={t.liveNewsroom.turnOffConfirm}
        cancelLabel={t.liveNewsroom.cancel}
        onConfirm={(event) => {
          // Open (its button disabled) until the server answers.
          event.preventDefault();
          void changeCoverage(null);
        }}
        danger
        busy={busy}
        testId="live-turn-off-dialog"
        returnFocusTo={offButton}
      />
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {coverage ? <ScoreboardEditor newsId={newsId} scoreboard={coverage.scoreboard} onSaved={onPosted} /> : null}
      {coverage ? <Composer newsId={newsId} onPosted={onPosted} guardLeave={guardLeave} /> : null}
    </div>
  );
}

/**
 * The composer of an update: the same fields and formatting as editing one (live-update-editor.tsx: the minute, the
 * event, the rich-text editor with its image and embed), the key event and pinned boxes. What is typed and not posted
 * yet is kept in this browser, per story and user (the news form's autosave hook, a local target), put back when the
 * composer opens again (with "Rascunho recuperado" and a way to discard it) and removed once the update is posted;
 * with `guardLeave`, a link or a reload asks first. A refusal (a field the server refused, too many posts in a minute)
 * is said and nothing typed is lost.
 */
function Composer({ newsId, onPosted, guardLeave }: { newsId: string; onPosted: () => Promise<void> | void; guardLeave: boolean }) {
  const id = useId();
  const { userId, site, role } = useRootData();
  // "Enviar como alerta": only for who may send alerts (the server refuses anyone else's).
  const offersAlert = site.alerts && mayAlert(role);
  const [alert, setAlert] = useState(false);
  const [fields, setFields] = useState<LiveUpdateFields>(EMPTY_UPDATE);
  // The editor reads its document once: a new key opens it on the fields' document (emptied, or a draft put back).
  const [editorKey, setEditorKey] = useState(0);
  const [keyEvent, setKeyEvent] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "ok"; text: string } | null>(null);
  const [errors, setErrors] = useState<LiveUpdateFieldErrors>({});
  const [restored, setRestored] = useState<string | null>(null);
  const draftKey = liveDraftKey(newsId, userId);
  const draft: LiveComposerDraft = { ...fields, keyEvent, pinned };
  const unposted = hasLiveDraftText(draft);
  const kept = useNewsAutosave({ target: { kind: "local", key: draftKey }, draft, dirty: unposted, paused: busy, delayMs: LIVE_DRAFT_DELAY_MS });

  // What this browser kept of this story's composer goes back in it (localStorage is the browser's: after hydration).
  useEffect(() => {
    let stored: string | null = null;
    try {
      stored = window.localStorage.getItem(draftKey);
    } catch {
      return;
    }
    const found = parseLiveDraft(stored);
    if (!found) return;
    setFields({ doc: found.doc, minute: found.minute, eventType: found.eventType });
    setEditorKey((key) => key + 1);
    setKeyEvent(found.keyEvent);
    setPinned(found.pinned);
    setRestored(found.savedAt);
  }, [draftKey]);

  function empty() {
    setFields(EMPTY_UPDATE);
    setEditorKey((key) => key + 1);
    setKeyEvent(false);
    setPinned(false);
    setErrors({});
  }

  function discardDraft() {
    kept.clearLocal();
    empty();
    setRestored(null);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const sent = await send("POST", `${newsUrl(newsId)}/updates`, { ...bodyOf(fields), keyEvent, pinned, ...(alert ? { alert } : {}) });
    setBusy(false);
    if (!sent.ok) {
      // Said under the field it concerns, or (too many posts, a failure) under the form; the fields keep what was typed.
      const byField = fieldErrorsOf(sent.fields);
      const placed = Boolean(byField.text || byField.minute || byField.eventType);
      setErrors(byField);
      setMessage(placed ? null : { kind: "error", text: sent.message });
      return;
    }
    kept.stop();
    kept.clearLocal();
    setRestored(null);
    empty();
    setAlert(false);
    const answer = sent.json as { alert?: { recipients: number }; alertError?: { message: string } } | null;
    if (answer?.alertError) setMessage({ kind: "error", text: `${t.liveNewsroom.posted} ${answer.alertError.message}` });
    else setMessage({ kind: "ok", text: answer?.alert ? t.deskAlerts.sentUpdate(answer.alert.recipients) : t.liveNewsroom.posted });
    await onPosted();
  }

  return (
    <form className={styles.composer} onSubmit={(event) => void submit(event)} onPaste={cleanPaste} data-testid="live-composer">
      <h2 className={styles.composerTitle}>{t.liveNewsroom.composerTitle}</h2>
      {restored ? (
        <div className={styles.draftNotice} data-testid="live-draft-notice">
          <p role="status">{t.liveNewsroom.draftRestored(formatTime(restored, site.timeZone))}</p>
          <button type="button" className={buttons.secondary} onClick={discardDraft}>
            {t.liveNewsroom.draftDiscard}
          </button>
        </div>
      ) : null}
      {guardLeave ? <ComposerLeaveGuard unposted={unposted && !busy} /> : null}
      <LiveUpdateEditor
        id={id}
        value={fields}
        onChange={setFields}
        editorKey={editorKey}
        errors={errors}
        disabled={busy}
        testId="live-composer-text"
      />
      <div className={styles.checks}>
        <label>
          <input type="checkbox" checked={keyEvent} onChange={(event) => setKeyEvent(event.target.checked)} data-testid="live-composer-key" />{" "}
          {t.liveNewsroom.keyEvent}
        </label>
        <label>
          <input type="checkbox" checked={pinned} onChange={(event) => setPinned(event.target.checked)} /> {t.liveNewsroom.pinned}
        </label>
        {offersAlert ? (
          <label title={t.deskAlerts.updateOptionHint}>
            <input type="checkbox" checked={alert} onChange={(event) => setAlert(event.target.checked)} data-testid="live-composer-alert" />{" "}
            {t.deskAlerts.updateOption}
          </label>
        ) : null}
      </div>
      {message ? (
        <p className={message.kind === "error" ? styles.error : styles.ok} role={message.kind === "error" ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
      <button type="submit" className={buttons.primary} disabled={busy} data-testid="live-composer-submit">
        {busy ? t.liveNewsroom.posting : t.liveNewsroom.post}
      </button>
    </form>
  );
}

/**
 * The question before a link leaves the composer's unposted text (the news form's leave guard: a link in the site
 * asks here, a reload or closing the tab gets the browser's own question). A component of its own: the edit page,
 * whose news form has the page's one blocker, leaves it out.
 */
function ComposerLeaveGuard({ unposted }: { unposted: boolean }) {
  const guard = useLeaveGuard(unposted);
  return (
    <ConfirmDialog
      open={guard.asking}
      onOpenChange={(open) => {
        if (!open) guard.stay();
      }}
      title={t.liveNewsroom.leaveTitle}
      text={t.liveNewsroom.leaveText}
      confirmLabel={t.liveNewsroom.leave}
      cancelLabel={t.liveNewsroom.leaveStay}
      onConfirm={guard.leave}
      testId="live-leave-dialog"
    />
  );
}
