import { href } from "react-router";
import { useEffect, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./media-focus-editor.module.css";

type Status = { kind: "idle" | "saving" | "saved" | "failed"; message?: string };

/**
 * The focus point of a story's saved image: a click on the picture (or the two sliders, from the keyboard) picks the
 * point crops keep; two small previews show a wide and a square card with it. Saved on its own
 * (PUT /api/news/:id/media-focus), not with the form: the image is already the story's. Shown once the page runs
 * its scripts (nothing to do without them).
 */
export function MediaFocusEditor({ newsId, media, disabled }: { newsId: string; media: MediaView; disabled: boolean }) {
  const [hydrated, setHydrated] = useState(false);
  const [point, setPoint] = useState(media.focus ?? { x: 50, y: 50 });
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;

  const position = `${point.x}% ${point.y}%`;
  const move = (next: { x: number; y: number }) => {
    setPoint({ x: Math.round(Math.min(100, Math.max(0, next.x))), y: Math.round(Math.min(100, Math.max(0, next.y))) });
    setStatus({ kind: "idle" });
  };
  async function save(focus: { x: number; y: number } | null) {
    setStatus({ kind: "saving" });
    try {
      const response = await fetch(href("/api/news/:id/media-focus", { id: newsId }), {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ focusX: focus?.x ?? null, focusY: focus?.y ?? null }),
      });
      const answer = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
      if (!response.ok) return setStatus({ kind: "failed", message: answer.error?.message ?? t.mediaFocus.failed });
      if (!focus) setPoint({ x: 50, y: 50 });
      setStatus({ kind: "saved" });
    } catch {
      setStatus({ kind: "failed" });
    }
  }
  const busy = disabled || status.kind === "saving";
  const message =
    status.kind === "saving"
      ? t.mediaFocus.saving
      : status.kind === "saved"
        ? t.mediaFocus.saved
        : status.kind === "failed"
          ? (status.message ?? t.mediaFocus.failed)
          : "";

  return (
    <fieldset className={styles.focus} disabled={busy} data-testid="media-focus">
      <legend className={styles.legend}>{t.mediaFocus.title}</legend>
      <p className={styles.hint}>{t.mediaFocus.hint}</p>
      <div className={styles.layout}>
        {/* The pointer's way to pick; the sliders below are the keyboard's. */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the sliders give the same choice to the keyboard */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the sliders give the same choice to the keyboard */}
        <div
          className={styles.picture}
          onClick={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            move({ x: ((event.clientX - box.left) / box.width) * 100, y: ((event.clientY - box.top) / box.height) * 100 });
          }}
        >
          {/* Its size, when known, keeps the box from jumping as the picture arrives (and a click from landing off it). */}
          <img src={media.src} alt="" className={styles.image} width={media.width ?? undefined} height={media.height ?? undefined} />
          <span className={styles.marker} style={{ left: `${point.x}%`, top: `${point.y}%` }} aria-hidden="true" />
        </div>
        <div className={styles.previews} title={t.mediaFocus.previews}>
          <img src={media.src} alt="" className={styles.wide} style={{ objectPosition: position }} />
          <img src={media.src} alt="" className={styles.square} style={{ objectPosition: position }} />
        </div>
      </div>
      <div className={styles.sliders}>
        <label>
          {t.mediaFocus.horizontal}
          <input type="range" min={0} max={100} value={point.x} onChange={(event) => move({ ...point, x: Number(event.target.value) })} />
        </label>
        <label>
          {t.mediaFocus.vertical}
          <input type="range" min={0} max={100} value={point.y} onChange={(event) => move({ ...point, y: Number(event.target.value) })} />
        </label>
      </div>
      <div className={styles.actions}>
        <button type="button" className={buttons.primary} onClick={() => save(point)}>
          {t.mediaFocus.save}
        </button>
        <button type="button" className={buttons.secondary} onClick={() => save(null)}>
          {t.mediaFocus.center}
        </button>
        <span role="status" className={status.kind === "failed" ? styles.error : styles.status}>
          {message}
        </span>
      </div>
    </fieldset>
  );
}
