import { CheckCircle2 } from "lucide-react";
import { useId } from "react";
import { href, useLocation } from "react-router";
import type { DriveStatusView } from "#app/.server/storage/google-drive/status.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import buttons from "#app/components/ui/button.module.css";
import { Banner } from "./banner.tsx";
import styles from "./drive-connection.module.css";

export type { DriveStatusView };

/** Ids of the two forms `DriveForms` renders; the card's buttons submit them through their `form` attribute. */
export const DRIVE_CONNECT_FORM = "drive-connect-form";
export const DRIVE_DISCONNECT_FORM = "drive-disconnect-form";

/**
 * The forms behind "Conectar ao Google Drive" and "Desconectar" (plain POSTs: connecting leaves the site for Google's
 * consent page). They are rendered apart from the card so that the card may sit inside another form (the news form);
 * each comes back to the current page.
 */
export function DriveForms() {
  const location = useLocation();
  const returnTo = location.pathname + location.search;
  return (
    <>
      <form id={DRIVE_CONNECT_FORM} method="post" action={href("/admin/drive/connect")} hidden>
        <input type="hidden" name="returnTo" value={returnTo} />
      </form>
      <form id={DRIVE_DISCONNECT_FORM} method="post" action={href("/admin/drive/disconnect")} hidden>
        <input type="hidden" name="returnTo" value={returnTo} />
      </form>
    </>
  );
}

/**
 * The Google Drive connection on an admin page (only with MEDIA_STORE=gdrive). Not connected: the 'connect' card
 * with the page's warning, the failure message (with the iOS hint on iPhone/iPad) when the last sign-in failed, and
 * the 'Conectar ao Google Drive' button. Connected: 'Google Drive conectado' and a 'Desconectar' button.
 * Needs `DriveForms` somewhere on the page, outside any other form.
 */
export function DriveConnectionCard({ status, warning }: { status: DriveStatusView; warning: string }) {
  const headingId = useId();
  if (status.connected) {
    return (
      <div className={styles.connected} data-testid="drive-connected">
        <CheckCircle2 aria-hidden="true" size={20} />
        <p role="status">
          <strong>{t.storage.connected}</strong>
        </p>
        <button type="submit" form={DRIVE_DISCONNECT_FORM} className={buttons.secondary}>
          {t.storage.disconnect}
        </button>
      </div>
    );
  }
  return (
    <section className={styles.card} aria-labelledby={headingId} data-testid="drive-connect-card">
      <h2 id={headingId}>{t.storage.connectTitle}</h2>
      <p>{t.storage.connectText}</p>
      {status.failed ? (
        <div>
          <Banner kind="error" message={t.storage.loginFailed} />
          {status.ios ? <p className={styles.hint}>{t.storage.iosHint}</p> : null}
        </div>
      ) : null}
      <Banner kind="warning" message={warning} />
      <div className={styles.actions}>
        <button type="submit" form={DRIVE_CONNECT_FORM} className={buttons.primary}>
          {t.storage.connect}
        </button>
      </div>
    </section>
  );
}
