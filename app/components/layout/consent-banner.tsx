import { href, Link, useLocation } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { CONSENT_PREFERENCES_PATH } from "#app/lib/ads.ts";
import { useConsent } from "#app/lib/consent-client.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { ConsentForm } from "./consent-form.tsx";
import styles from "./consent.module.css";

/**
 * The first-visit question about the ad partner (LGPD), only when ADSENSE_CLIENT is set and the reader has not chosen.
 * Drawn in the browser only (the page is the same for every reader), over the bottom of the page.
 */
export function ConsentBanner() {
  const { site } = useRootData();
  const consent = useConsent();
  const { pathname } = useLocation();
  // The privacy page has the same choice in its text.
  if (!site.ads || consent !== null || pathname === href("/userLicence")) return null;
  return (
    <section className={styles.banner} aria-labelledby="consentimento-titulo" data-testid="consent-banner">
      <h2 id="consentimento-titulo" className={styles.title}>
        {t.consent.bannerTitle}
      </h2>
      <p className={styles.text}>{t.consent.bannerText}</p>
      <ConsentForm>
        <Link to={CONSENT_PREFERENCES_PATH} className={styles.preferences}>
          {t.consent.preferences}
        </Link>
      </ConsentForm>
    </section>
  );
}
