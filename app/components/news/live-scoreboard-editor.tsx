import { Minus, Plus } from "lucide-react";
import { useId, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { Scoreboard } from "#app/lib/live-coverage.ts";
import { LIVE_LIMITS } from "#app/lib/limits.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./live-coverage.module.css";

import { newsUrl, send } from "./live-newsroom-api.ts";

const EMPTY_SCOREBOARD: Scoreboard = { home: "", away: "", homeScore: 0, awayScore: 0, period: "" };

/** The scoreboard: both teams, +/- per side (saved at once once both teams are named), the period. */
export function ScoreboardEditor({
  newsId,
  scoreboard,
  onSaved,
}: {
  newsId: string;
  scoreboard: Scoreboard | null;
  onSaved: () => Promise<void> | void;
}) {
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
      // The fields stay as they are now: what was typed while this save was on its way (the period, after a goal's
      // tap) is not put back to what was sent. A removed scoreboard empties them.
      if (next === null) setDraft(EMPTY_SCOREBOARD);
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
