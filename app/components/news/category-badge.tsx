import { Star } from "lucide-react";
import { t } from "../../i18n/pt-BR.ts";
import styles from "./category-badge.module.css";

export function CategoryBadge({ category }: { category: string }) {
  return <span className={styles.badge}>{category.trim() || t.news.defaultCategory}</span>;
}

export function HighlightBadge() {
  return (
    <span className={styles.highlight}>
      <Star aria-hidden="true" size={12} fill="currentColor" />
      {t.newsList.highlightBadge}
    </span>
  );
}
