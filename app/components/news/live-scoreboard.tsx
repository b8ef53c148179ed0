import { t } from "#app/i18n/pt-BR.ts";
import type { Scoreboard } from "#app/lib/live-coverage.ts";
import styles from "./live-coverage.module.css";

/** The match's scoreboard at the top of a live story: teams, score, period; read out when it changes. */
export function LiveScoreboard({ scoreboard }: { scoreboard: Scoreboard }) {
  const { home, away, homeScore, awayScore, period } = scoreboard;
  return (
    <section className={styles.scoreboard} aria-label={t.live.scoreboard} data-testid="live-scoreboard">
      <p className={styles.scoreLine} aria-live="polite" aria-atomic="true">
        <span className={styles.team} data-testid="scoreboard-home">
          {home}
        </span>
        <span className={styles.score}>
          <span data-testid="score-home">{homeScore}</span>
          <span className={styles.scoreSeparator} aria-hidden="true">
            ×
          </span>
          <span className="visually-hidden"> x </span>
          <span data-testid="score-away">{awayScore}</span>
        </span>
        <span className={`${styles.team} ${styles.away}`} data-testid="scoreboard-away">
          {away}
        </span>
      </p>
      {period ? (
        <p className={styles.period} data-testid="scoreboard-period">
          {period}
        </p>
      ) : null}
    </section>
  );
}
