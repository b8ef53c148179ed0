import { t } from "../../i18n/pt-BR.ts";
import styles from "./ad-slot.module.css";

/**
 * A reserved advertising space (the original showed two placeholders on the home page). `label` names the landmark:
 * two on one page need different names.
 */
export function AdSlot({ variant, label }: { variant: "leaderboard" | "banner"; label: string }) {
  return (
    <aside className={`${styles.slot} ${styles[variant]}`} aria-label={label} data-testid="ad-slot">
      <span className={styles.label}>{t.home.adLabel}</span>
      <span className={styles.text}>{t.home.adText}</span>
    </aside>
  );
}
