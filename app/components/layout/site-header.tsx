import { ArrowLeft, Search } from "lucide-react";
import { Form, href, Link, useLocation, useNavigate } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { MAX_QUERY_LENGTH } from "#app/lib/search.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { useIsNewsroom } from "#app/lib/theme.ts";
import styles from "./site-header.module.css";
import { ThemeSwitch } from "./theme-switch.tsx";

/**
 * Whether the history entry before this one is a page of this site: a navigation inside the app (React Router's
 * history state counts its entries from the first page loaded: above 0, there is one of ours behind), or a page
 * loaded from one of ours (same-origin referrer, with an entry to go back to). A reader who came from a search
 * engine or another site, or opened the page in a new tab, goes to the home page instead of leaving the site.
 */
function previousPageIsOurs(): boolean {
  const index = (window.history.state as { idx?: unknown } | null)?.idx;
  if (typeof index === "number" && index > 0) return true;
  if (window.history.length <= 1 || !document.referrer) return false;
  try {
    return new URL(document.referrer).origin === window.location.origin;
  } catch {
    return false;
  }
}

export function SiteHeader({ children }: { children?: React.ReactNode }) {
  const { site } = useRootData();
  const navigate = useNavigate();
  const location = useLocation();
  // The newsroom stays light: no switch there.
  const newsroom = useIsNewsroom();
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        {/* A link to the home page without JavaScript; with it, back only when the previous page is ours. */}
        <a
          href="/"
          className={styles.round}
          aria-label={t.layout.back}
          title={t.layout.back}
          onClick={(event) => {
            event.preventDefault();
            if (previousPageIsOurs()) navigate(-1);
            else navigate("/");
          }}
        >
          <ArrowLeft aria-hidden="true" size={24} />
        </a>
        <Link to="/" className={styles.brand} aria-label={`${site.name}: ${t.layout.home}`}>
          <img src="/images/logo.svg" alt="" width={40} height={40} className={styles.logo} />
          <span className={styles.name}>{site.name}</span>
        </Link>
        {/* A plain GET form: works without JavaScript; with it, a client-side navigation. A new page starts it empty. */}
        <Form method="get" action={href("/busca")} role="search" className={styles.search} key={location.key}>
          <label htmlFor="busca-topo" className="visually-hidden">
            {t.search.fieldLabel}
          </label>
          <input
            id="busca-topo"
            type="search"
            name="q"
            maxLength={MAX_QUERY_LENGTH}
            placeholder={t.search.placeholder}
            autoComplete="off"
            enterKeyHint="search"
            className={styles.searchInput}
          />
          <button type="submit" className={styles.searchButton} aria-label={t.search.submit} title={t.search.submit}>
            <Search aria-hidden="true" size={20} />
          </button>
        </Form>
        <div className={styles.actions}>
          {newsroom ? null : <ThemeSwitch />}
          {children}
        </div>
      </div>
    </header>
  );
}
