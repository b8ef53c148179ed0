import { href } from "react-router";
import { useEffect, useState } from "react";
import { formatTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import { localAutosaveKey, type NewsAutosaveView } from "#app/lib/news-autosave.ts";
import { comparable, type NewsFormValues, valuesOfAutosave } from "./news-form-values.ts";
import { useLeaveGuard } from "./use-leave-guard.ts";
import { type AutosaveDraft, readLocalAutosave, useNewsAutosave } from "./use-news-autosave.ts";

interface Options {
  editing: boolean;
  newsId: string | undefined;
  /** The signed-in user (a new story's copy in this browser is theirs). */
  autosaveUser: string | null | undefined;
  /** Editing: this user's copy on the server, newer than the story's last save (offered, not applied). */
  serverCopy: NewsAutosaveView | null | undefined;
  /** Creating: the form opened with values of its own (a refused no-JavaScript submit): nothing is restored over them. */
  keepOpened: boolean;
  /** The form as it is now. */
  draft: AutosaveDraft;
  /** Changes the draft does not hold (a file picked or removed). */
  otherChanges: boolean;
  /** A real save succeeded: nothing is unsaved any more. */
  saved: boolean;
  /** A real save is under way: no autosave meanwhile. */
  busy: boolean;
  timeZone: string;
  /** Puts values in the form (a recovered copy, or the opened ones after "Descartar"). */
  apply(values: NewsFormValues, publishAt: string, version?: number): void;
  opened: { values: NewsFormValues; publishAt: string };
}

/**
 * Whether the news form holds unsaved work, and what keeps it: the leave guard (use-leave-guard.ts), the autosave
 * (use-news-autosave.ts) and the work it kept: a new story's copy in this browser is put
 * back when /add-news opens again (with a notice and "Descartar"); an existing story's copy on the server is offered
 * ("Recuperar" fills the form, "Descartar" deletes it).
 */
export function useAutosaveRecovery(options: Options) {
  const { editing, newsId, autosaveUser, serverCopy, keepOpened, draft, otherChanges, saved, busy, timeZone, apply, opened } = options;
  // Unsaved: the form differs from what it opened with (or a file was picked or removed), and no save succeeded since.
  const [baseline] = useState(() => comparable({ ...draft, ...opened.values, publishAt: opened.publishAt }));
  const dirty = !saved && (comparable(draft) !== baseline || otherChanges);
  const guard = useLeaveGuard(dirty);
  const localKey = localAutosaveKey(autosaveUser);
  const autosave = useNewsAutosave({
    target: editing && newsId ? { kind: "server", newsId } : { kind: "local", key: localKey },
    draft,
    dirty,
    paused: busy || saved,
  });
  const [offer, setOffer] = useState<NewsAutosaveView | null>(editing ? (serverCopy ?? null) : null);
  const [restored, setRestored] = useState<string | null>(null);

  // A new story: this browser's copy goes back in the form once it runs here (localStorage is the browser's).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form opens
  useEffect(() => {
    if (editing || keepOpened) return;
    const saved = readLocalAutosave(localKey);
    if (!saved) return;
    apply(valuesOfAutosave(saved), saved.publishAt);
    setRestored(saved.savedAt);
  }, []);

  const notice = offer
    ? {
        message: t.autosave.offerServer(formatTime(offer.savedAt, timeZone)),
        onRecover() {
          apply(valuesOfAutosave(offer), offer.publishAt, offer.version);
          setOffer(null);
        },
        onDiscard() {
          setOffer(null);
          if (newsId) void fetch(href("/api/news/:id/autosave", { id: newsId }), { method: "DELETE" }).catch(() => undefined);
        },
      }
    : restored
      ? {
          message: t.autosave.restoredLocal(formatTime(restored, timeZone)),
          onRecover: undefined,
          onDiscard() {
            autosave.clearLocal();
            apply(opened.values, opened.publishAt);
            setRestored(null);
          },
        }
      : null;

  return { autosave, notice, guard, dirty };
}
