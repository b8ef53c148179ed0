import { formatTime } from "#app/i18n/format.ts";
import { t } from "#app/i18n/newsroom.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./news-form.module.css";
import type { AutosaveState } from "./use-news-autosave.ts";

/**
 * The autosave's status line: "Salvando…", "Salvo às 14:32", "Não foi possível salvar automaticamente". A polite
 * live region, present from the start (empty) so screen readers announce each change without interrupting.
 */
export function AutosaveStatus({
  state,
  savedAt,
  timeZone,
  local,
}: {
  state: AutosaveState;
  savedAt: string | null;
  timeZone: string;
  local: boolean;
}) {
  const text =
    state === "saving"
      ? t.autosave.saving
      : state === "failed"
        ? t.autosave.failed
        : state === "saved" && savedAt
          ? t.autosave.savedAt(formatTime(savedAt, timeZone))
          : "";
  return (
    <div className={styles.autosave}>
      <p
        role="status"
        aria-live="polite"
        data-testid="autosave-status"
        data-state={state}
        className={state === "failed" ? styles.autosaveFailed : undefined}
      >
        {text}
      </p>
      {state === "saved" ? <p className={styles.hint}>{local ? t.autosave.savedLocally : t.autosave.savedOnServer}</p> : null}
    </div>
  );
}

/**
 * Work kept by an autosave, found when the form opened: a story's copy on the server ("Recuperar" / "Descartar"), or a
 * new story's in this browser (already put back in the form: "Descartar" empties it).
 */
export function AutosaveOffer({ message, onRecover, onDiscard }: { message: string; onRecover?: (() => void) | undefined; onDiscard(): void }) {
  return (
    <section className={styles.autosaveOffer} aria-label={t.autosave.recover} data-testid="autosave-offer">
      <p>{message}</p>
      <p className={styles.landedLinks}>
        {onRecover ? (
          <button type="button" className={buttons.primary} onClick={onRecover}>
            {t.autosave.recover}
          </button>
        ) : null}
        <button type="button" className={buttons.secondary} onClick={onDiscard}>
          {t.autosave.discard}
        </button>
      </p>
    </section>
  );
}
