import { Star } from "lucide-react";
import { Link } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { termPath } from "#app/lib/slug.ts";
import styles from "./category-badge.module.css";

/** The category's name; a link to its page (/categoria/{slug}) when its slug is known. */
export function CategoryBadge({ category, slug, className }: { category: string; slug?: string | null; className?: string }) {
  const name = category.trim() || t.news.defaultCategory;
  if (!slug) return <span className={styles.badge}>{name}</span>;
  return (
    <Link to={termPath("category", slug)} className={`${styles.badge} ${styles.link} ${className ?? ""}`} title={t.taxonomy.categoryLink(name)}>
      {name}
    </Link>
  );
}

export function HighlightBadge() {
  return (
    <span className={styles.highlight}>
      <Star aria-hidden="true" size={12} fill="currentColor" />
      <span data-badge-text="">{t.newsList.highlightBadge}</span>
    </span>
  );
}
