import { Fragment } from "react";
import type { Route } from "./+types/privacy";
import { pageHeaders } from "../../lib/cache-headers.ts";
import { t } from "../../i18n/pt-BR.ts";
import { pageMeta, siteOf, titleWithSite } from "../../lib/seo.ts";
import { useRootData } from "../../lib/site-context.ts";
import styles from "./privacy.module.css";
import { routeFacts } from "../../lib/route-facts.ts";

export const headers = pageHeaders;

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  const name = site?.name ?? "";
  return pageMeta(site, { title: titleWithSite(t.privacy.title, site), description: t.privacy.metaDescription(name), path: "/userLicence" });
}

export default function Privacy() {
  const { site } = useRootData();
  const email = site.contactEmail;
  const contact = email ? (
    <a href={`mailto:${email}`}>{email}</a>
  ) : (
    <span className={styles.placeholder} data-testid="contact-placeholder">
      {t.privacy.contactPlaceholder}
    </span>
  );
  return (
    <article className={`page-narrow ${styles.policy}`}>
      <h1 className="page-title">{t.privacy.title}</h1>
      <p>
        {t.privacy.introLead} <strong>{site.name}</strong> {t.privacy.introRest}
      </p>
      {t.privacy.sections.map((section) => (
        <Fragment key={section.title}>
          <h2>{section.title}</h2>
          <p>{section.text}</p>
        </Fragment>
      ))}

      <h2>{t.privacy.contactTitle}</h2>
      <p>
        {t.privacy.contactLead} {contact}.
      </p>
    </article>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = routeFacts({ cache: "page", uploads: false });
