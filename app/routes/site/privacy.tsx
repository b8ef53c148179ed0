import { href } from "react-router";
import { Fragment } from "react";
import type { Route } from "./+types/privacy";
import { pageHeaders } from "#app/lib/cache-headers.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { pageMeta, siteOf, titleWithSite } from "#app/lib/seo.ts";
import { useRootData } from "#app/lib/site-context.ts";
import styles from "./privacy.module.css";
import { ConsentForm } from "#app/components/layout/consent-form.tsx";
import { useConsent } from "#app/lib/consent-client.ts";
import { routeFacts } from "#app/lib/route-facts.ts";

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  const name = site?.name ?? "";
  return pageMeta(site, { title: titleWithSite(t.privacy.title, site), description: t.privacy.metaDescription(name), path: href("/userLicence") });
}

export default function Privacy() {
  const { site } = useRootData();
  const email = site.contactEmail;
  return (
    <article className={`page-narrow ${styles.policy}`}>
      <h1 className="page-title">{t.privacy.title}</h1>
      <p>
        {t.privacy.introLead} <strong>{site.name}</strong> {t.privacy.introRest}
      </p>
      {t.privacy.sections(site.ads !== null).map((section) => (
        <Fragment key={section.title}>
          <h2>{section.title}</h2>
          <p>{section.text}</p>
        </Fragment>
      ))}

      <h2>{t.privacy.readsTitle}</h2>
      <p>{t.privacy.readsText}</p>

      <h2>{t.privacy.offlineCopiesTitle}</h2>
      <p>{t.privacy.offlineCopiesText}</p>

      {site.alerts ? (
        <>
          <h2>{t.privacy.alertsTitle}</h2>
          <p>{t.privacy.alertsText}</p>
        </>
      ) : null}

      <AdPreferences />

      {site.privacyOfficer ? (
        <>
          <h2>{t.privacy.officerTitle}</h2>
          <p data-testid="privacy-officer">
            {t.privacy.officerLead(site.privacyOfficer.name)}
            {site.privacyOfficer.email ? (
              <>
                {": "}
                <a href={`mailto:${site.privacyOfficer.email}`}>{site.privacyOfficer.email}</a>
              </>
            ) : null}
            .
          </p>
        </>
      ) : null}

      {/* Without CONTACT_EMAIL the section is left out rather than show a placeholder to readers. */}
      {email ? (
        <>
          <h2>{t.privacy.contactTitle}</h2>
          <p data-testid="privacy-contact">
            {t.privacy.contactLead} <a href={`mailto:${email}`}>{email}</a>.
          </p>
        </>
      ) : null}
    </article>
  );
}

/** The reader's choice about the ad partner: what it is now (read in the browser) and the form to change it. */
function AdPreferences() {
  const { site } = useRootData();
  const consent = useConsent();
  return (
    <section aria-labelledby="preferencias" data-testid="ad-preferences">
      <h2 id="preferencias" tabIndex={-1}>
        {t.privacy.preferencesTitle}
      </h2>
      {site.ads ? (
        <>
          <p>{t.privacy.preferencesText}</p>
          {consent !== undefined ? (
            <p data-testid="consent-current">
              {consent === "accepted" ? t.consent.currentAccepted : consent === "refused" ? t.consent.currentRefused : t.consent.currentNone}
            </p>
          ) : null}
          <ConsentForm />
        </>
      ) : (
        <p>{t.privacy.noAdPartner}</p>
      )}
    </section>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", uploads: false });
