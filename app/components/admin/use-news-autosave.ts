import { href } from "react-router";
import { useCallback, useEffect, useRef, useState } from "react";
import { AUTOSAVE_DELAY_MS, type NewsAutosaveView } from "#app/lib/news-autosave.ts";

/** Where the form's work in progress is kept: this browser (a story never saved), or the server (the user's copy). */
export type AutosaveTarget = { kind: "local"; key: string } | { kind: "server"; newsId: string };
export type AutosaveState = "idle" | "saving" | "saved" | "failed";
export type AutosaveDraft = Omit<NewsAutosaveView, "savedAt">;

/** Under this many characters an autosave sent as the page hides may outlive the page (`keepalive` takes 64 KiB). */
const KEEPALIVE_MAX_CHARS = 60_000;

/**
 * Autosave of the open news form: AUTOSAVE_DELAY_MS after the last change (each change starts the wait again), and at
 * once when the page is hidden (another tab, the phone's lock, closing). Only while `dirty` (changes not saved) and
 * not `paused` (a real save under way or done). A new story goes to localStorage; an existing one to PUT
 * /api/news/:id/autosave, never to the story itself. `state` and `savedAt` are what the status line says. The live
 * composer keeps its unposted text the same way (a local target, a draft of its own: live-newsroom.tsx).
 */
export function useNewsAutosave<Draft extends object = AutosaveDraft>({
  target,
  draft,
  dirty,
  paused,
  delayMs = AUTOSAVE_DELAY_MS,
}: {
  /** "server": only for the news form's draft (AutosaveDraft); any other draft is kept in this browser. */
  target: AutosaveTarget;
  draft: Draft;
  dirty: boolean;
  paused: boolean;
  /** How long after the last change it is kept. */
  delayMs?: number;
}) {
  const [status, setStatus] = useState<{ state: AutosaveState; savedAt: string | null }>({ state: "idle", savedAt: null });
  const latest = useRef(draft);
  latest.current = draft;
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const pending = useRef(false);
  const wrote = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  const targetKey = target.kind === "local" ? `local:${target.key}` : `server:${target.newsId}`;
  const targetRef = useRef(target);
  targetRef.current = target;

  const flush = useCallback(async (hiding = false) => {
    clearTimeout(timer.current);
    if (!pending.current || pausedRef.current) return;
    pending.current = false;
    const where = targetRef.current;
    if (where.kind === "local") {
      const savedAt = new Date().toISOString();
      try {
        window.localStorage.setItem(where.key, JSON.stringify({ ...latest.current, savedAt }));
        wrote.current = true;
        setStatus({ state: "saved", savedAt });
      } catch {
        setStatus((previous) => ({ ...previous, state: "failed" }));
      }
      return;
    }
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setStatus((previous) => ({ ...previous, state: "saving" }));
    const body = JSON.stringify(latest.current);
    try {
      const response = await fetch(href("/api/news/:id/autosave", { id: where.newsId }), {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body,
        signal: controller.signal,
        keepalive: hiding && body.length < KEEPALIVE_MAX_CHARS,
      });
      if (!response.ok) throw new Error(`autosave answered ${response.status}`);
      const answer = (await response.json()) as { savedAt: string };
      if (inFlight.current === controller) setStatus({ state: "saved", savedAt: answer.savedAt });
    } catch {
      if (controller.signal.aborted) return;
      // The next change, or the page hiding, tries again.
      pending.current = true;
      setStatus((previous) => ({ ...previous, state: "failed" }));
    } finally {
      if (inFlight.current === controller) inFlight.current = null;
    }
  }, []);

  // Each change of the form's content waits again; nothing is kept while there is nothing unsaved.
  const serialized = JSON.stringify(draft);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `serialized` stands for the draft (a new object each render), `targetKey` for the target
  useEffect(() => {
    if (paused) return;
    if (!dirty) {
      pending.current = false;
      // Back to what was saved (or to an empty new form): this browser's copy is no longer work to recover.
      const where = targetRef.current;
      if (where.kind === "local" && wrote.current) {
        window.localStorage.removeItem(where.key);
        wrote.current = false;
        setStatus({ state: "idle", savedAt: null });
      }
      return;
    }
    pending.current = true;
    timer.current = setTimeout(() => void flush(), delayMs);
    return () => clearTimeout(timer.current);
  }, [serialized, dirty, paused, flush, targetKey, delayMs]);

  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") void flush(true);
    };
    const onPageHide = () => void flush(true);
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [flush]);

  // The form goes away (a link followed, "Sair sem salvar"): what is still waiting is kept now, not dropped.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      void flush(true);
    },
    [flush],
  );

  return {
    ...status,
    /** A real save is starting: nothing pending is sent, and an autosave on its way is dropped. */
    stop() {
      clearTimeout(timer.current);
      pending.current = false;
      inFlight.current?.abort();
      inFlight.current = null;
    },
    /** The copy is no longer needed (a new story's first save, "Descartar"): this browser's copy is removed. */
    clearLocal() {
      const where = targetRef.current;
      if (where.kind === "local") window.localStorage.removeItem(where.key);
      wrote.current = false;
      setStatus({ state: "idle", savedAt: null });
    },
  };
}

/** A new story's autosave kept in this browser, or null (none, or not readable). */
export function readLocalAutosave(key: string): NewsAutosaveView | null {
  try {
    const stored = window.localStorage.getItem(key);
    if (!stored) return null;
    const parsed = JSON.parse(stored) as NewsAutosaveView;
    return parsed && typeof parsed === "object" && typeof parsed.savedAt === "string" && parsed.body?.type === "doc" ? parsed : null;
  } catch {
    return null;
  }
}
