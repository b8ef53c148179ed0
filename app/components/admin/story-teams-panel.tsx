import { type FormEvent, useEffect, useState } from "react";
import { href, Link } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { TEAMS_FORM_ANCHOR, TEAMS_PER_STORY, type Team, teamNameKey } from "#app/lib/teams.ts";
import buttons from "#app/components/ui/button.module.css";
import { Banner } from "./banner.tsx";
import styles from "./story-teams-panel.module.css";

interface StoryTeamsPanelProps {
  newsId: string;
  /** The desk's list (/times), by name. */
  teams: readonly Team[];
  /** The clubs the story is tagged with now (slugs). */
  selected: readonly string[];
  /** What the plain form's last post did (`?times=`), in words. */
  notice: { kind: "success" | "error"; message: string } | null;
  /** An editor or admin: the list's own page is theirs to change. */
  managesList: boolean;
}

type Status = { kind: "idle" } | { kind: "saving" } | { kind: "success"; message: string } | { kind: "error"; message: string };

/**
 * "Times da notícia" on the edit page, under the news form and outside it: a checkbox per club of the desk's list.
 * Saved on its own ("Salvar times"), never with the story's text, so an open form's unsaved text is untouched. With
 * JavaScript the save is a PUT to /api/news/:id/teams and a filter narrows a long list; without it, the same form
 * posts to that address, which comes back here with the outcome.
 */
export function StoryTeamsPanel({ newsId, teams, selected, notice, managesList }: StoryTeamsPanelProps) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set(selected));
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [filter, setFilter] = useState("");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The saved tags changed elsewhere (a live reload after someone else's save): shown, unless a save is under way.
  const savedKey = [...selected].sort().join(",");
  const [seenKey, setSeenKey] = useState(savedKey);
  if (savedKey !== seenKey && status.kind !== "saving") {
    setSeenKey(savedKey);
    setChecked(new Set(selected));
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (checked.size > TEAMS_PER_STORY) return setStatus({ kind: "error", message: t.teams.tooMany(TEAMS_PER_STORY) });
    setStatus({ kind: "saving" });
    try {
      const response = await fetch(href("/api/news/:id/teams", { id: newsId }), {
        method: "PUT",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ teams: [...checked] }),
      });
      const answer = (await response.json().catch(() => ({}))) as { teams?: Team[]; error?: { message?: string } };
      if (!response.ok || !answer.teams) return setStatus({ kind: "error", message: answer.error?.message ?? t.teams.invalid });
      const saved = answer.teams.map((team) => team.slug);
      setSeenKey([...saved].sort().join(","));
      setChecked(new Set(saved));
      setStatus({ kind: "success", message: t.teams.saved });
    } catch {
      setStatus({ kind: "error", message: t.news.updateFailed });
    }
  }

  const toggle = (slug: string, on: boolean) => {
    const next = new Set(checked);
    if (on) next.add(slug);
    else next.delete(slug);
    setChecked(next);
    setStatus({ kind: "idle" });
  };
  const wanted = teamNameKey(filter);
  const shown = (team: Team) => !wanted || checked.has(team.slug) || teamNameKey(team.name).includes(wanted);
  const message = status.kind === "success" || status.kind === "error" ? status : hydrated ? null : notice;

  return (
    <section id={TEAMS_FORM_ANCHOR} className={styles.panel} aria-labelledby={`${TEAMS_FORM_ANCHOR}-titulo`} data-testid="story-teams">
      <h2 id={`${TEAMS_FORM_ANCHOR}-titulo`}>{t.teams.panelTitle}</h2>
      {teams.length === 0 ? (
        <p>{managesList ? <Link to={href("/times")}>{t.teams.panelEmptyEditor}</Link> : t.teams.panelEmpty}</p>
      ) : (
        <form method="post" action={href("/api/news/:id/teams", { id: newsId })} onSubmit={save}>
          <p className={styles.hint}>{t.teams.panelHint(TEAMS_PER_STORY)}</p>
          {hydrated && teams.length > 8 ? (
            <input
              type="search"
              className={styles.filter}
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              aria-label={t.teams.filterLabel}
              placeholder={t.teams.filterLabel}
            />
          ) : null}
          <ul className={styles.list}>
            {teams.map((team) => (
              <li key={team.slug} hidden={!shown(team)}>
                <label className={styles.option}>
                  <input
                    type="checkbox"
                    name="time"
                    value={team.slug}
                    checked={checked.has(team.slug)}
                    onChange={(event) => toggle(team.slug, event.target.checked)}
                  />
                  {team.name}
                </label>
              </li>
            ))}
          </ul>
          <div className={styles.actions}>
            <button type="submit" className={buttons.secondary} disabled={status.kind === "saving"}>
              {t.teams.save}
            </button>
            {managesList ? <Link to={href("/times")}>{t.teams.pageTitle}</Link> : null}
          </div>
          {message ? <Banner kind={message.kind} message={message.message} /> : null}
        </form>
      )}
    </section>
  );
}
