import { Link } from "react-router";
import { formatKickoff } from "#app/i18n/format.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { type MatchOfTheDay, matchesOfClub, matchesOfTheDay } from "#app/lib/live-coverage.ts";
import { useRootData } from "#app/lib/site-context.ts";
import { articlePath } from "#app/lib/slug.ts";
import { LiveBadge, MatchChip } from "./live-badge.tsx";
import styles from "./match-strip.module.css";

/**
 * "Jogos de hoje": the day's matches from the desk's live coverage (home and section pages): those live now with
 * their score and period, then those announced for later today with their kickoff time and competition, then those
 * that ended today with the final score, each a link to its story. One row that
 * scrolls sideways on phones. Nothing at all on a day without matches. Today is the site's calendar day at the
 * page's render (root data `now`), so a page kept across midnight drops yesterday's. A club's page (`club`) shows
 * "Jogos": its live matches, every next one it knows of (with the day when not today) and today's ended ones.
 */
export function MatchStrip({ matches, club = false }: { matches: readonly MatchOfTheDay[] | undefined; club?: boolean }) {
  const { now, site } = useRootData();
  const at = new Date(now);
  const shown = (club ? matchesOfClub : matchesOfTheDay)(matches ?? [], at, site.timeZone);
  if (shown.length === 0) return null;
  return (
    <section className={styles.strip} aria-labelledby="jogos-de-hoje" data-testid="match-strip">
      <h2 id="jogos-de-hoje" className={styles.title}>
        {club ? t.live.clubMatches : t.live.matchesToday}
      </h2>
      <ul className={styles.list}>
        {shown.map(({ id, title, score, startedAt, competition }) => (
          <li key={id} className={styles.item} data-state={score.state} data-testid="match-strip-item">
            <Link to={articlePath({ id, title })} className={styles.link}>
              <span className={styles.state}>
                {score.state === "live" ? (
                  <LiveBadge />
                ) : score.state === "ended" ? (
                  <MatchChip kind="ended" />
                ) : (
                  <time dateTime={startedAt} className={styles.kickoff}>
                    {formatKickoff(startedAt, at, site.timeZone)}
                  </time>
                )}
                {score.state === "live" && score.period ? <span className={styles.period}>{score.period}</span> : null}
                {score.state === "next" && competition ? <span className={styles.period}>{competition}</span> : null}
              </span>
              <span className={styles.teams}>
                <span className={styles.team}>{score.home}</span>
                {score.state === "next" ? (
                  <span className={styles.versus}>{t.live.versus}</span>
                ) : (
                  <span className={styles.score}>
                    {score.homeScore}–{score.awayScore}
                  </span>
                )}
                <span className={styles.team}>{score.away}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
