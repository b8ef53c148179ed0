import { useLocation } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { CONSENT_ACTION_PATH } from "#app/lib/ads.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./consent.module.css";

/**
 * "Aceitar" and "Recusar", the same size and style (neither is the easy one). A plain form the browser sends itself:
 * it works without JavaScript, and the answer is a new page whose Content-Security-Policy follows the choice.
 */
export function ConsentForm({ children }: { children?: React.ReactNode }) {
  const location = useLocation();
  return (
    <form method="post" action={CONSENT_ACTION_PATH} className={styles.actions}>
      <input type="hidden" name="voltar" value={`${location.pathname}${location.search}`} />
      <button type="submit" name="escolha" value="aceitar" className={buttons.secondary}>
        {t.consent.accept}
      </button>
      <button type="submit" name="escolha" value="recusar" className={buttons.secondary}>
        {t.consent.refuse}
      </button>
      {children}
    </form>
  );
}
