import { t } from "#app/i18n/pt-BR.ts";
import styles from "./live-badge.module.css";

/**
 * "AO VIVO" (a story under live coverage), or once the coverage ended (article page only) "Encerrada", or "Fim de
 * jogo" for a match (`match`: the coverage has a scoreboard).
 */
export function LiveBadge({ ended = false, match = false, className }: { ended?: boolean; match?: boolean; className?: string | undefined }) {
  return (
    <span className={`${styles.badge} ${ended ? styles.ended : ""} ${className ?? ""}`} data-testid="live-badge">
      {ended ? null : <span className={styles.dot} aria-hidden="true" />}
      {ended ? (match ? t.live.endedMatchBadge : t.live.ended) : t.live.badge}
    </span>
  );
}

/** "Encerrado" before a match's final score, "Jogo" before an announced match's kickoff (cards and the strip). */
export function MatchChip({ kind }: { kind: "ended" | "next" }) {
  return (
    <span className={styles.matchChip} data-kind={kind}>
      {kind === "ended" ? t.live.cardEnded : t.live.cardKickoff}
    </span>
  );
}
