import { t } from "../../i18n/pt-BR.ts";
import styles from "./live-badge.module.css";

/** "AO VIVO" (a story under live coverage), or "Encerrada" once the coverage ended (article page only). */
export function LiveBadge({ ended = false, className }: { ended?: boolean; className?: string | undefined }) {
  return (
    <span className={`${styles.badge} ${ended ? styles.ended : ""} ${className ?? ""}`} data-testid="live-badge">
      {ended ? null : <span className={styles.dot} aria-hidden="true" />}
      {ended ? t.live.ended : t.live.badge}
    </span>
  );
}
