import { useEffect, useState } from "react";
import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { offlinePageFor } from "#app/lib/offline-copies.ts";
import { t } from "#app/i18n/pt-BR.ts";
import buttons from "./button.module.css";
import styles from "./error-state.module.css";

export function ErrorState(props: {
  title: string;
  text?: string;
  actionLabel: string;
  actionTo?: string;
  status?: number;
  /** Without the picture (offline: it could not be loaded either). */
  plain?: boolean;
  /** A second way on, beside the action: a full page load (the service worker answers it offline). */
  secondary?: { label: string; href: string } | null;
}) {
  return (
    <section className={styles.box} role="alert">
      {props.plain ? null : <img src="/images/bola-padrao.svg" alt="" width={160} height={90} className={styles.image} />}
      <h1 className={styles.title}>{props.title}</h1>
      {props.text ? <p className={styles.text}>{props.text}</p> : null}
      <Link to={props.actionTo ?? "/"} className={`${buttons.primary} ${styles.action}`}>
        {props.actionLabel}
      </Link>
      {props.secondary ? (
        <a href={props.secondary.href} className={`${buttons.secondary} ${styles.action} ${styles.secondAction}`}>
          {props.secondary.label}
        </a>
      ) : null}
    </section>
  );
}

/**
 * A navigation whose data or code could not be fetched because the reader is offline: not an error of the site. Every
 * route error boundary asks this first (the root's, or the page's own when the root's data was not part of the request).
 */
export function isConnectionError(error: unknown): boolean {
  if (isRouteErrorResponse(error)) return false;
  if (typeof navigator !== "undefined" && navigator.onLine === false) return true;
  return error instanceof TypeError && /fetch|network|load failed|dynamically imported module/i.test(error.message);
}

/**
 * "Sem conexão", what to do, and "Tentar de novo" to the same address: no picture (it could not be loaded either).
 * Where the readers' service worker runs, also the stories it keeps on this phone (its "Sem conexão" page).
 */
export function OfflineState() {
  const location = useLocation();
  const [worker, setWorker] = useState(false);
  useEffect(() => setWorker(Boolean(navigator.serviceWorker?.controller)), []);
  return (
    <ErrorState
      title={t.errors.offlineTitle}
      text={t.errors.offlineText}
      actionLabel={t.errors.retry}
      actionTo={`${location.pathname}${location.search}${location.hash}`}
      plain
      secondary={worker ? { label: t.offline.savedTitle, href: offlinePageFor(`${location.pathname}${location.search}`) } : null}
    />
  );
}
