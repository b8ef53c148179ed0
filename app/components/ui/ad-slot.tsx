import { t } from "../../i18n/pt-BR.ts";
import styles from "./ad-slot.module.css";

/** A reserved advertising space (the original showed two placeholders on the home page). */
export function AdSlot({ variant }: { variant: "leaderboard" | "banner" }) {
  return (
    <aside className={`${styles.slot} ${styles[variant]}`} aria-label={t.home.adLabel} data-testid="ad-slot">
      <span className={styles.label}>{t.home.adLabel}</span>
      <span className={styles.text}>{t.home.adText}</span>
    </aside>
  );
}
