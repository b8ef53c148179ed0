import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/teams";
import { NO_STORE, privatePageHeaders } from "#app/lib/cache-headers.ts";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { requireRole, memberActor } from "#app/.server/auth/permissions.server.ts";
import { addTeam, listTeams, removeTeam, renameTeam } from "#app/.server/news/taxonomy/teams.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import panel from "#app/components/admin/panel.module.css";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { termPath } from "#app/lib/slug.ts";
import { TEAM_NAME_MAX } from "#app/lib/teams.ts";
import styles from "#app/components/admin/team.module.css";

/** The clubs stories may be tagged with: the desk's list (editors and admins; checked on the server). */
export const handle = routeFacts({ cache: false, uploads: false, role: "editor" });

const tt = t.teams;

export function meta() {
  return noindexMeta(tt.pageTitle);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireRole(request, context, handle);
  // What the last change did comes back in the address the action redirected to (a live reload after the change's
  // own event drops an action's answer, not the page's address).
  const done = new URL(request.url).searchParams.get("feito");
  return { teams: await listTeams(servicesOf(context).database.db), done: done ? done.slice(0, 200) : null };
}

interface ActionData {
  error?: string;
  /** Where the error belongs: the add form, or a club's row (its slug). */
  at?: string;
  /** A removal waiting for its confirmation (the club's slug). */
  confirmRemove?: string;
}

/**
 * `intent` = `add` (`name`), `rename` (`slug`, `name`) or `remove` (`slug`; asked again first: `confirmed` says it
 * was). Each change comes back to the page with what it did; a refusal stays on it with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const actor = memberActor(viewer);
  const { database, events, log } = servicesOf(context);
  const deps = { db: database.db, events, log };
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const slug = String(form.get("slug") ?? "");
  const noStore = { "Cache-Control": NO_STORE };
  const done = (message: string) => redirect(`${href("/times")}?${new URLSearchParams({ feito: message })}`, { headers: noStore });
  try {
    if (intent === "add") return done(tt.added((await addTeam(deps, form.get("name"), actor)).name));
    if (intent === "rename") return done(tt.renamed((await renameTeam(deps, slug, form.get("name"), actor)).name));
    if (intent === "remove") {
      if (form.get("confirmed") !== "1") return data<ActionData>({ confirmRemove: slug }, { headers: noStore });
      return done(tt.removed((await removeTeam(deps, slug, actor)).name));
    }
    return data<ActionData>({ error: tt.notFound }, { status: 400, headers: noStore });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data<ActionData>({ error: error.message, at: intent === "add" ? "add" : slug }, { status: error.status, headers: noStore });
    }
    throw error;
  }
}

export const headers = privatePageHeaders;

export default function Teams({ loaderData, actionData }: Route.ComponentProps) {
  const { teams, done } = loaderData;
  const busy = useNavigation().state !== "idle";
  const errorAt = actionData?.error ? actionData.at : undefined;
  return (
    <section className="page">
      <h1 className="page-title">{tt.pageTitle}</h1>
      <p className={styles.intro}>{tt.intro}</p>
      {done && !actionData ? <Banner kind="success" message={done} /> : null}
      <section className={panel.panel} aria-labelledby="novo-time">
        <h2 id="novo-time">{tt.addLabel}</h2>
        <Form method="post" className={styles.inviteForm} key={`add:${teams.length}`}>
          <input type="hidden" name="intent" value="add" />
          <label className={styles.field}>
            <span>{tt.nameLabel}</span>
            <input
              name="name"
              className={styles.control}
              required
              maxLength={TEAM_NAME_MAX}
              placeholder={tt.addPlaceholder}
              autoComplete="off"
              aria-invalid={errorAt === "add" || undefined}
            />
          </label>
          <button type="submit" className={buttons.primary} disabled={busy}>
            {tt.add}
          </button>
        </Form>
        {errorAt === "add" && actionData?.error ? <Banner kind="error" message={actionData.error} /> : null}
      </section>
      <section className={panel.panel} aria-label={tt.pageTitle}>
        {teams.length === 0 ? (
          <p>{tt.empty}</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table} data-testid="teams-table">
              <thead>
                <tr>
                  <th scope="col">{tt.colTeam}</th>
                  <th scope="col">{tt.colCount}</th>
                  <th scope="col">{tt.colActions}</th>
                </tr>
              </thead>
              <tbody>
                {teams.map((team) => (
                  <tr key={team.slug} data-testid={`team-${team.slug}`}>
                    <th scope="row">
                      <Link to={termPath("team", team.slug)} aria-label={tt.openPage(team.name)}>
                        {team.name}
                      </Link>
                    </th>
                    <td data-label={tt.colCount}>{team.count}</td>
                    <td data-label={tt.colActions}>
                      {errorAt === team.slug && actionData?.error ? <Banner kind="error" message={actionData.error} /> : null}
                      {actionData?.confirmRemove === team.slug ? (
                        <Form method="post" className={styles.row} role="alert">
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="slug" value={team.slug} />
                          <input type="hidden" name="confirmed" value="1" />
                          <span>{tt.removeConfirm(team.name, team.count)}</span>
                          <button type="submit" className={`${buttons.primary} ${styles.dangerSolid}`} disabled={busy}>
                            {tt.remove}
                          </button>
                          <Link to={href("/times")}>{tt.cancel}</Link>
                        </Form>
                      ) : (
                        <div className={styles.row}>
                          <details>
                            <summary>{tt.rename}</summary>
                            <Form method="post" className={styles.row} key={`${team.slug}:${team.name}`}>
                              <input type="hidden" name="intent" value="rename" />
                              <input type="hidden" name="slug" value={team.slug} />
                              <input
                                name="name"
                                className={styles.control}
                                required
                                maxLength={TEAM_NAME_MAX}
                                defaultValue={team.name}
                                aria-label={tt.renameLabel(team.name)}
                              />
                              <button type="submit" className={buttons.secondary} disabled={busy}>
                                {tt.rename}
                              </button>
                            </Form>
                          </details>
                          <Form method="post">
                            <input type="hidden" name="intent" value="remove" />
                            <input type="hidden" name="slug" value={team.slug} />
                            <button
                              type="submit"
                              className={`${buttons.secondary} ${styles.danger}`}
                              disabled={busy}
                              aria-label={tt.removeLabel(team.name)}
                            >
                              {tt.remove}
                            </button>
                          </Form>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </section>
  );
}
