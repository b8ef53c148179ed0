import { href, Link } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./newsroom-pending.module.css";

/** A protected newsroom page whose tools are not available yet. */
export function NewsroomPending({ title }: { title: string }) {
  return (
    <section className={`page-narrow ${styles.panel}`}>
      <h1 className="page-title">{title}</h1>
      <p>{t.admin.pendingText}</p>
      <Link to={href("/news-list")} className={buttons.secondary}>
        {t.auth.goToNews}
      </Link>
    </section>
  );
}
