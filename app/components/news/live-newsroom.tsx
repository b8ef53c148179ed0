import { Minus, Plus } from "lucide-react";
import { lazy, Suspense, useId, useRef, useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import type { LiveCoverageInfo, LiveUpdateView, Scoreboard } from "../../lib/live-coverage.ts";
import { LIVE_LIMITS } from "../../lib/limits.ts";
import type { RichDoc } from "../../lib/rich-text.ts";
import { ConfirmDialog } from "../admin/confirm-dialog.tsx";
import buttons from "../ui/button.module.css";
import styles from "./live-coverage.module.css";

/**
 * Editing an update: the news body's rich-text editor (Tiptap), a chunk of its own downloaded only when an editor
 * opens an update to change it. It starts from the update's document and gives one back, so bold, italic, links and
 * the update's image or embed survive an edit that changes a word.
 */
const BodyEditor = lazy(() => import("../admin/body-editor.tsx"));

/**
 * The newsroom's side of a live story, on its article page (a lazy chunk: readers never load it): start, end or
 * resume the coverage, the scoreboard with +/- buttons, the composer of an update, and each update's actions (edit,
 * pin, key event, delete). Every action is the JSON API's (the server checks the role and the story's owner); its
 * refusal shows the server's message.
 */

type Sent = { ok: true; json: unknown } | { ok: false; message: string };

async function send(method: string, url: string, body?: unknown): Promise<Sent> {
  try {
    const response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = response.status === 204 ? null : await response.json().catch(() => null);
    if (response.ok) return { ok: true, json };
    return { ok: false, message: (json as { error?: { message?: string } } | null)?.error?.message ?? t.liveNewsroom.failed };
  } catch {
    return { ok: false, message: t.liveNewsroom.failed };
  }
}

const newsUrl = (newsId: string) => `/api/news/${encodeURIComponent(newsId)}`;

export function LiveNewsroomPanel({
  newsId,
  coverage: given,
  onPosted,
  onCoverageChange,
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
  const offButton = useRef<HTMLButtonElement>(null);
  const changeCoverage = async (state: "live" | "ended" | null) => {
    setBusy(true);
    const sent = await send("PATCH", newsUrl(newsId), { coverage: state });
    setBusy(false);
    setAskOff(false);
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
          <button type="button" className={buttons.secondary} disabled={busy} onClick={() => void changeCoverage("ended")}>
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
      {coverage ? <Composer newsId={newsId} onPosted={onPosted} /> : null}
    </div>
  );
}

const EMPTY_SCOREBOARD: Scoreboard = { home: "", away: "", homeScore: 0, awayScore: 0, period: "" };

function ScoreboardEditor({ newsId, scoreboard, onSaved }: { newsId: string; scoreboard: Scoreboard | null; onSaved: () => Promise<void> | void }) {
  const id = useId();
  const [draft, setDraft] = useState<Scoreboard>(scoreboard ?? EMPTY_SCOREBOARD);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (next: Scoreboard | null) => {
    setBusy(true);
    const sent = await send("PATCH", newsUrl(newsId), { scoreboard: next });
    setBusy(false);
    setError(sent.ok ? null : sent.message);
    if (sent.ok) {
      setDraft(next ?? EMPTY_SCOREBOARD);
      await onSaved();
    }
  };
  // +/- saves at once (a goal is one tap), once both teams are named; otherwise it only changes the field.
  const bump = (side: "homeScore" | "awayScore", by: 1 | -1) => {
    const next = { ...draft, [side]: Math.max(0, Math.min(LIVE_LIMITS.scoreMax, draft[side] + by)) };
    setDraft(next);
    if (next.home.trim() && next.away.trim()) void save(next);
  };
  const team = (side: "home" | "away", scoreSide: "homeScore" | "awayScore", label: string) => (
    <div className={styles.teamEditor}>
      <label htmlFor={`${id}-${side}`}>{label}</label>
      <input
        id={`${id}-${side}`}
        value={draft[side]}
        maxLength={LIVE_LIMITS.teamName}
        onChange={(event) => setDraft({ ...draft, [side]: event.target.value })}
        data-testid={`scoreboard-${side}-input`}
      />
      <div className={styles.stepper}>
        <button
          type="button"
          className={styles.stepButton}
          aria-label={t.liveNewsroom.minus(draft[side] || label)}
          disabled={busy || draft[scoreSide] === 0}
          onClick={() => bump(scoreSide, -1)}
          data-testid={`scoreboard-${side}-minus`}
        >
          <Minus aria-hidden="true" size={20} />
        </button>
        <output className={styles.stepValue} data-testid={`scoreboard-${side}-value`}>
          {draft[scoreSide]}
        </output>
        <button
          type="button"
          className={styles.stepButton}
          aria-label={t.liveNewsroom.plus(draft[side] || label)}
          disabled={busy}
          onClick={() => bump(scoreSide, 1)}
          data-testid={`scoreboard-${side}-plus`}
        >
          <Plus aria-hidden="true" size={20} />
        </button>
      </div>
    </div>
  );
  return (
    <details className={styles.scoreEditor} data-testid="scoreboard-editor">
      <summary>{t.liveNewsroom.scoreboardTitle}</summary>
      <div>
        <div className={styles.teams}>
          {team("home", "homeScore", t.liveNewsroom.home)}
          {team("away", "awayScore", t.liveNewsroom.away)}
        </div>
        <label htmlFor={`${id}-period`}>{t.liveNewsroom.period}</label>
        <input
          id={`${id}-period`}
          value={draft.period}
          maxLength={LIVE_LIMITS.period}
          onChange={(event) => setDraft({ ...draft, period: event.target.value })}
          data-testid="scoreboard-period-input"
        />
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
        <div className={styles.formActions}>
          <button type="button" className={buttons.primary} disabled={busy} onClick={() => void save(draft)} data-testid="scoreboard-save">
            {t.liveNewsroom.saveScoreboard}
          </button>
          {scoreboard ? (
            <button type="button" className={buttons.secondary} disabled={busy} onClick={() => void save(null)}>
              {t.liveNewsroom.removeScoreboard}
            </button>
          ) : null}
        </div>
      </div>
    </details>
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

function Composer({ newsId, onPosted }: { newsId: string; onPosted: () => Promise<void> | void }) {
  const id = useId();
  const [text, setText] = useState("");
  const [keyEvent, setKeyEvent] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "error" | "ok"; text: string } | null>(null);
  const [fileKey, setFileKey] = useState(0);

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
    <form className={styles.composer} onSubmit={(event) => void submit(event)} data-testid="live-composer">
      <h2 className={styles.composerTitle}>{t.liveNewsroom.composerTitle}</h2>
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
