import { AlertTriangle } from "lucide-react";
import { t } from "#app/i18n/newsroom.ts";
import styles from "./auth.module.css";

/**
 * An authentication failure. When the account is not authorized, its user id is shown line by line with the hint
 * of how an existing admin grants access.
 */
export function AuthMessage({ failure }: { failure: { message: string; uid?: string; notice?: string } }) {
  return (
    <div className={styles.error} role="alert" data-testid="auth-error">
      <AlertTriangle aria-hidden="true" size={20} className={styles.errorIcon} />
      <div>
        {failure.message.split("\n").map((line) => (
          <p key={line}>{line}</p>
        ))}
        {failure.notice ? <p data-testid="auth-notice">{failure.notice}</p> : null}
        {failure.uid ? (
          <>
            <p>
              <code data-testid="auth-uid">{t.auth.uidLine(failure.uid)}</code>
            </p>
            <p className={styles.uidHint}>{t.auth.uidHint(failure.uid)}</p>
          </>
        ) : null}
      </div>
    </div>
  );
}
