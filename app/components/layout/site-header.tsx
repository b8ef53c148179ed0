import { ArrowLeft } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { t } from "../../i18n/pt-BR.ts";
import { useRootData } from "../../lib/site-context.ts";
import styles from "./site-header.module.css";

export function SiteHeader({ children }: { children?: React.ReactNode }) {
  const { site } = useRootData();
  const navigate = useNavigate();
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        {/* A link to the home page without JavaScript; with it, the browser's history back. */}
        <a
          href="/"
          className={styles.back}
          aria-label={t.layout.back}
          title={t.layout.back}
          onClick={(event) => {
            if (window.history.length > 1) {
              event.preventDefault();
              navigate(-1);
            }
          }}
        >
          <ArrowLeft aria-hidden="true" size={24} />
        </a>
        <Link to="/" className={styles.brand} aria-label={`${site.name}: ${t.layout.home}`}>
          <img src="/images/logo.svg" alt="" width={40} height={40} className={styles.logo} />
          <span className={styles.name}>{site.name}</span>
        </Link>
        <div className={styles.actions}>{children}</div>
      </div>
    </header>
  );
}
