import { useEffect, useId, useRef, useState } from "react";
import { formatTime } from "../../i18n/format.ts";
import { t } from "../../i18n/newsroom.ts";
import type { LiveCoverageInfo } from "../../lib/live-coverage.ts";
import { hasLiveDraftText, LIVE_DRAFT_DELAY_MS, type LiveComposerDraft, liveDraftKey, parseLiveDraft } from "../../lib/live-composer-draft.ts";
import { LIVE_LIMITS } from "../../lib/limits.ts";
import type { RichDoc } from "../../lib/rich-text.ts";
import { useRootData } from "../../lib/site-context.ts";
import { cleanPaste } from "../admin/clean-paste.ts";
import { ConfirmDialog } from "../admin/confirm-dialog.tsx";
import { useLeaveGuard } from "../admin/use-leave-guard.ts";
import { useNewsAutosave } from "../admin/use-news-autosave.ts";
import buttons from "../ui/button.module.css";
import styles from "./live-coverage.module.css";

import { newsUrl, send } from "./live-newsroom-api.ts";
import { ScoreboardEditor } from "./live-scoreboard-editor.tsx";

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

/** The text as a document with the uploaded image after it (alt text required by the body's rules). */
function withImage(text: string, image: { id: string; alt: string } | null): string | RichDoc {
  if (!image) return text;
  const paragraphs = text
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => ({ type: "paragraph" as const, content: [{ type: "text" as const, text: paragraph }] }));
  return {
    type: "doc",
    content: [...paragraphs, { type: "image", attrs: { mediaId: image.id, alt: image.alt.trim() || text.trim().slice(0, 120) } }],
  };
}

/**
 * The composer of an update. What is typed and not posted yet is kept in this browser, per story and user (the news
 * form's autosave hook, a local target), put back when the composer opens again (with "Rascunho recuperado" and a way
 * to discard it) and removed once the update is posted; with `guardLeave`, a link or a reload asks first.
 */
function Composer({ newsId, onPosted, guardLeave }: { newsId: string; onPosted: () => Promise<void> | void; guardLeave: boolean }) {
  const id = useId();
  const { userId, site } = useRootData();
  const [text, setText] = useState("");
  const [keyEvent, setKeyEvent] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "ok"; text: string } | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [restored, setRestored] = useState<string | null>(null);
  const draftKey = liveDraftKey(newsId, userId);
  const draft: LiveComposerDraft = { text, keyEvent, pinned };
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
    setText(found.text);
    setKeyEvent(found.keyEvent);
    setPinned(found.pinned);
    setRestored(found.savedAt);
  }, [draftKey]);

  function discardDraft() {
    kept.clearLocal();
    setText("");
    setKeyEvent(false);
    setPinned(false);
    setRestored(null);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    let image: { id: string; alt: string } | null = null;
    if (file) {
      const form = new FormData();
      form.append("file", file);
      const uploaded = await fetch("/api/media", { method: "POST", body: form })
        .then(async (response) => (response.ok ? ((await response.json()) as { id: string }) : null))
        .catch(() => null);
      if (!uploaded) {
        setBusy(false);
        setMessage({ kind: "error", text: t.liveNewsroom.failed });
        return;
      }
      image = { id: uploaded.id, alt };
    }
    const sent = await send("POST", `${newsUrl(newsId)}/updates`, { text: withImage(text, image), keyEvent, pinned });
    setBusy(false);
    if (!sent.ok) {
      setMessage({ kind: "error", text: sent.message });
      return;
    }
    kept.stop();
    kept.clearLocal();
    setRestored(null);
    setText("");
    setKeyEvent(false);
    setPinned(false);
    setFile(null);
    setAlt("");
    setFileKey((key) => key + 1);
    setMessage({ kind: "ok", text: t.liveNewsroom.posted });
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
      <label htmlFor={`${id}-text`}>{t.liveNewsroom.textLabel}</label>
      <textarea
        id={`${id}-text`}
        value={text}
        rows={3}
        maxLength={LIVE_LIMITS.updateText}
        onChange={(event) => setText(event.target.value)}
        aria-describedby={`${id}-hint`}
        required
        data-testid="live-composer-text"
      />
      <p id={`${id}-hint`} className={styles.hint}>
        {t.liveNewsroom.textHint}
      </p>
      <div className={styles.checks}>
        <label>
          <input type="checkbox" checked={keyEvent} onChange={(event) => setKeyEvent(event.target.checked)} data-testid="live-composer-key" />{" "}
          {t.liveNewsroom.keyEvent}
        </label>
        <label>
          <input type="checkbox" checked={pinned} onChange={(event) => setPinned(event.target.checked)} /> {t.liveNewsroom.pinned}
        </label>
      </div>
      <label htmlFor={`${id}-image`}>{t.liveNewsroom.imageLabel}</label>
      <input key={fileKey} id={`${id}-image`} type="file" accept="image/*" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      {file ? (
        <>
          <label htmlFor={`${id}-alt`}>{t.liveNewsroom.imageAlt}</label>
          <input id={`${id}-alt`} value={alt} onChange={(event) => setAlt(event.target.value)} required />
        </>
      ) : null}
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
