import { href, Link, useLocation } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { termPath } from "#app/lib/slug.ts";
import styles from "./section-nav.module.css";

/**
 * The section menu: "Todas" (the list) and the categories with published news, most news first (the root loader's
 * list, kept in memory on the server until the news change). One scrollable row on phones, wrapped inline on wider
 * screens; the page's own section is marked (aria-current), and a section with a story under live coverage says
 * "AO VIVO". Under it, the clubs with published stories (/time/{slug}), most covered first.
 */
export function SectionNav() {
  const { sections, teams } = useRootData();
  const { pathname } = useLocation();
  if (sections.length === 0 && teams.length === 0) return null;
  const current = (path: string) => (pathname === path ? "page" : undefined);
  return (
    <nav className={`${styles.nav} section-nav`} aria-label={t.layout.sectionsLabel} data-testid="section-nav">
      {sections.length > 0 ? <SectionRow sections={sections} current={current} /> : null}
      {teams.length > 0 ? (
        // The clubs with stories: one row that scrolls sideways at every width (it never wraps, so its height
        // does not wait for a font).
        <ul className={styles.teams} aria-label={t.taxonomy.teamsLabel} data-testid="team-nav">
          {teams.map((team) => {
            const path = termPath("team", team.slug);
            return (
              <li key={team.slug}>
                <Link to={path} className={styles.team} aria-current={current(path)}>
                  {team.name}
                </Link>
              </li>
            );
          })}
        </ul>
      ) : null}
    </nav>
  );
}

function SectionRow({ sections, current }: { sections: ReturnType<typeof useRootData>["sections"]; current: (path: string) => "page" | undefined }) {
  return (
    <ul className={styles.list}>
      <li>
        <Link to={href("/news-list")} className={styles.link} aria-current={current(href("/news-list"))}>
          {t.layout.allSections}
        </Link>
      </li>
      {sections.map((section) => {
        const path = termPath("category", section.slug);
        return (
          <li key={section.slug}>
            <Link to={path} className={styles.link} aria-current={current(path)}>
              {section.name}
              {section.live ? (
                <span className={styles.live} data-testid="section-live">
                  {t.live.badge}
                </span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
