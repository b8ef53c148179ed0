import { AlertButton } from "#app/components/news/alert-button.tsx";
import { PUSH_TOPICS } from "#app/lib/push-topics.ts";
import { href, Link } from "react-router";
import { READ_LATER_PAGE } from "#app/lib/offline-copies.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { CONSENT_PREFERENCES_PATH } from "#app/lib/ads.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { MediaImage } from "#app/components/news/media-image.tsx";
import { FacebookIcon, InstagramIcon, TwitterIcon } from "#app/components/ui/social-icons.tsx";
import styles from "./site-footer.module.css";

export function SiteFooter() {
  const { site, sponsors, year } = useRootData();
  const socials = [
    { href: site.social.instagram, label: t.footer.instagram, Icon: InstagramIcon },
    { href: site.social.twitter, label: t.footer.twitter, Icon: TwitterIcon },
    { href: site.social.facebook, label: t.footer.facebook, Icon: FacebookIcon },
  ];
  return (
    <footer className={styles.footer}>
      <section className={styles.sponsors} aria-labelledby="patrocinadores-titulo">
        <h2 id="patrocinadores-titulo" className={styles.sponsorsTitle}>
          {t.footer.sponsorsTitle}
        </h2>
        {sponsors.length > 0 ? (
          <ul className={styles.sponsorList}>
            {sponsors.map((sponsor) => {
              const logo = <MediaImage media={sponsor.image} alt={sponsor.name} sizes="80px" width={80} height={80} />;
              return (
                <li key={sponsor.id} className={styles.sponsor}>
                  {sponsor.link ? (
                    <a href={sponsor.link} target="_blank" rel="sponsored noopener" className={styles.sponsorLink}>
                      {logo}
                      <span className="visually-hidden">{t.footer.sponsorLinkHint}</span>
                    </a>
                  ) : (
                    logo
                  )}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className={styles.noSponsors}>{t.footer.noSponsors}</p>
        )}
      </section>

      <div className={styles.main}>
        <div className={styles.about}>
          <Link
            to="/"
            className={styles.logoLink}
            aria-label={t.footer.backToTopLogo(site.name)}
            onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}
          >
            <img src="/images/logo.svg" alt="" width={48} height={48} />
          </Link>
          <div>
            <h2 className={styles.title}>{site.footerTitle}</h2>
            <p className={styles.description}>{site.description}</p>
            <a className={styles.siteLink} href={site.url}>
              {site.url.replace(/^https?:\/\//, "")}
            </a>
          </div>
        </div>
        <nav aria-label={t.footer.followUs} className={styles.social}>
          <span className={styles.followUs}>{t.footer.followUs}</span>
          <ul>
            {socials.map(({ href, label, Icon }) => (
              <li key={label}>
                <a href={href} target="_blank" rel="noopener noreferrer" className={styles.socialLink}>
                  <Icon size={20} />
                  <span className="visually-hidden">
                    {label} {t.footer.opensInNewTab}
                  </span>
                </a>
              </li>
            ))}
            {/* The site's most important news as alerts on this device: a bell beside the icons (drawn after hydration). */}
            <li>
              <AlertButton
                compact
                className={styles.socialLink}
                topic={PUSH_TOPICS.general}
                label={t.alerts.followGeneral}
                labelOn={t.alerts.followingGeneral}
                hint={t.alerts.generalHint}
              />
            </li>
          </ul>
        </nav>
      </div>

      <div className={styles.bottom}>
        <p>{t.footer.copyright(year, site.name)}</p>
        <Link to={READ_LATER_PAGE}>{t.readLater.pageTitle}</Link>
        <Link to={href("/userLicence")}>{t.footer.privacy}</Link>
        {site.ads ? <Link to={CONSENT_PREFERENCES_PATH}>{t.consent.footerLink}</Link> : null}
      </div>
    </footer>
  );
}
