import { Link } from "react-router";
import { t } from "#app/i18n/pt-BR.ts";
import { type PersonView, personLinks } from "#app/lib/person.ts";
import { termPath } from "#app/lib/slug.ts";
import { MediaImage } from "./media-image.tsx";
import styles from "./author-box.module.css";

/** The member's photo, round (the default picture when they have none is left out). */
function Photo({ person, size }: { person: PersonView; size: number }) {
  if (!person.photo) return null;
  return (
    <MediaImage media={person.photo} alt={t.person.photoAlt(person.name)} sizes={`${size}px`} width={size} height={size} className={styles.photo} />
  );
}

/** The member's links (X, Instagram, site), opened in a new tab without passing the page along. */
function Links({ person }: { person: PersonView }) {
  const links = personLinks(person);
  if (links.length === 0) return null;
  return (
    <ul className={styles.links} aria-label={t.person.linksLabel(person.name)}>
      {links.map((link) => (
        <li key={link.kind}>
          <a href={link.url} rel="me noopener noreferrer nofollow" target="_blank">
            {t.person.links[link.kind]}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Under a member's story: photo, name (to their page /autor/{slug}) and bio. */
export function AuthorByline({ person }: { person: PersonView | null }) {
  if (!person) return null;
  return (
    <aside className={styles.box} aria-label={t.person.aboutAuthor} data-testid="author-box">
      <Photo person={person} size={72} />
      <div className={styles.text}>
        <p className={styles.kicker}>{t.person.aboutAuthor}</p>
        <p className={styles.name}>
          <Link to={termPath("author", person.slug)} title={t.person.allStories(person.name)}>
            {person.name}
          </Link>
        </p>
        {person.bio ? <p className={styles.bio}>{person.bio}</p> : null}
      </div>
    </aside>
  );
}

/** Atop /autor/{slug} for a member: photo, name (the page's heading), bio and links. */
export function PersonHeader({ person, kicker }: { person: PersonView; kicker: string }) {
  return (
    <header className={styles.person} data-testid="person-header">
      <Photo person={person} size={120} />
      <div className={styles.text}>
        <p className={styles.kicker}>{kicker}</p>
        <h1 className="page-title">{person.name}</h1>
        {person.bio ? <p className={styles.bio}>{person.bio}</p> : null}
        <Links person={person} />
      </div>
    </header>
  );
}
