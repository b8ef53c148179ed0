import { UserMinus, UserPlus } from "lucide-react";
import { useRef, useState } from "react";
import { data, Form, Link, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/team";
import { NO_STORE, privatePageHeaders } from "../../lib/cache-headers.ts";
import { noindexMeta } from "../../lib/seo.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { requireRole } from "../../.server/auth/guards.server.ts";
import type { MemberChange } from "../../.server/admins/team.server.ts";
import { Banner } from "../../components/admin/banner.tsx";
import { ConfirmDialog } from "../../components/admin/confirm-dialog.tsx";
import buttons from "../../components/ui/button.module.css";
import { t } from "../../i18n/newsroom.ts";
import { INVITE_RATE_MAX, INVITE_RATE_WINDOW_SECONDS, INVITE_TTL_SECONDS } from "../../lib/limits.ts";
import { routeFacts } from "../../lib/route-facts.ts";
import { isRole, ROLES, type Role } from "../../lib/roles.ts";
import panel from "../../components/admin/panel.module.css";
import styles from "./team.module.css";

/** The team page: admins only (the route facts say no lower role; the newsroom layout and this module check it). */
export const handle = routeFacts({ cache: false, uploads: false, role: "admin" });

const tt = t.team;
const roleName = (role: Role) => t.roles.names[role];

export function meta() {
  return noindexMeta(tt.pageTitle);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, handle);
  const { team, config } = servicesOf(context);
  const [members, invites, changes] = await Promise.all([team.members(), team.invites(), team.changes(50)]);
  return { me: viewer.userId, members, invites, changes, timeZone: config.timeZone };
}

interface ActionData {
  done?: string;
  error?: string;
  /** Without JavaScript, revoking asks first: the member to confirm. */
  confirmRevoke?: { userId: string; who: string };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireRole(request, context, handle);
  const { team, rateLimiter } = servicesOf(context);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "");
  const actor = { userId: viewer.userId, email: viewer.email };
  const noStore = { "Cache-Control": NO_STORE };
  const answer = (result: { ok: true; message: string } | { ok: false; message: string; status: number }) =>
    result.ok
      ? data<ActionData>({ done: result.message }, { headers: noStore })
      : data<ActionData>({ error: result.message }, { status: result.status, headers: noStore });
  const role = field("role").trim().toLowerCase();
  switch (field("intent")) {
    case "invite": {
      if (!isRole(role)) return data<ActionData>({ error: tt.invalidRole }, { status: 400, headers: noStore });
      // Each invitation mails someone: at most INVITE_RATE_MAX per admin an hour (the shared limiter: Redis when set).
      const limit = await rateLimiter.hit(`team-invite:${viewer.userId}`, INVITE_RATE_MAX, INVITE_RATE_WINDOW_SECONDS);
      if (!limit.allowed) {
        const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60));
        return data<ActionData>(
          { error: tt.inviteRateLimited(minutes) },
          { status: 429, headers: { ...noStore, "Retry-After": String(limit.retryAfterSeconds) } },
        );
      }
      return answer(await team.invite(actor, field("email"), role));
    }
    case "role":
      if (!isRole(role)) return data<ActionData>({ error: tt.invalidRole }, { status: 400, headers: noStore });
      return answer(await team.changeRole(actor, field("userId"), role));
    case "revoke": {
      if (field("confirmed") !== "1") {
        const member = (await team.members()).find((m) => m.userId === field("userId"));
        if (!member) return data<ActionData>({ error: tt.memberNotFound }, { status: 404, headers: noStore });
        return data<ActionData>({ confirmRevoke: { userId: member.userId, who: member.email } }, { headers: noStore });
      }
      return answer(await team.revoke(actor, field("userId")));
    }
    case "cancel-invite":
      return answer(await team.cancelInvite(actor, field("userId")));
    case "publishes":
      // "Publica sem revisão": the checkbox sends "on" when ticked (a plain form: works without JavaScript).
      return answer(await team.setPublishesWithoutReview(actor, field("userId"), field("publishes") === "on"));
    default:
      return data<ActionData>({ error: tt.unknownAction }, { status: 400, headers: noStore });
  }
}

export const headers = privatePageHeaders;

function formatWhen(iso: string | null, timeZone: string): string {
  if (!iso) return tt.never;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return tt.never;
  return new Intl.DateTimeFormat("pt-BR", { timeZone, dateStyle: "short", timeStyle: "short" }).format(date);
}

function describeChange(change: MemberChange): string {
  const name = (role: Role | null) => (role ? roleName(role) : "—");
  switch (change.action) {
    case "invite":
      return tt.actions.invite(name(change.toRole));
    case "accept":
      return tt.actions.accept(name(change.toRole));
    case "grant":
      return tt.actions.grant(name(change.toRole));
    case "role":
      return tt.actions.role(name(change.fromRole), name(change.toRole));
    case "revoke":
      return tt.actions.revoke(name(change.fromRole));
    case "publishes_on":
      return tt.actions.publishes_on();
    case "publishes_off":
      return tt.actions.publishes_off();
    default:
      return tt.actions.cancel();
  }
}

/**
 * A reporter's "publica sem revisão" right: a checkbox and its button (a plain form, works without JavaScript). The
 * server applies it from the reporter's next save.
 */
function PublishesForm({ userId, who, on, busy }: { userId: string; who: string; on: boolean; busy: boolean }) {
  const id = `publishes-${userId}`;
  return (
    <Form method="post" className={styles.inline}>
      <input type="hidden" name="intent" value="publishes" />
      <input type="hidden" name="userId" value={userId} />
      <input id={id} type="checkbox" name="publishes" defaultChecked={on} aria-label={tt.publishesLabel(who)} className={styles.checkbox} />
      <button type="submit" className={buttons.secondary} disabled={busy}>
        {tt.publishesSubmit}
      </button>
    </Form>
  );
}

function RoleSelect({ id, value, label }: { id: string; value?: Role; label: string }) {
  return (
    <select id={id} name="role" defaultValue={value ?? "reporter"} aria-label={label} className={styles.control}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {roleName(role)}
        </option>
      ))}
    </select>
  );
}

/** The revoke button: with JavaScript it asks in the dialog; without, the server answers with a confirmation step. */
function RevokeButton({ userId, who }: { userId: string; who: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const submit = useSubmit();
  return (
    <Form method="post" className={styles.inline}>
      <input type="hidden" name="intent" value="revoke" />
      <input type="hidden" name="userId" value={userId} />
      <button
        ref={button}
        type="submit"
        className={`${buttons.secondary} ${styles.danger}`}
        data-testid={`revoke-${who}`}
        onClick={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
      >
        <UserMinus aria-hidden="true" size={18} />
        {tt.revoke}
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={tt.revokeTitle}
        text={tt.revokeText(who)}
        confirmLabel={tt.revokeConfirm}
        cancelLabel={tt.cancel}
        danger
        testId="revoke-dialog"
        returnFocusTo={button}
        onConfirm={() => submit({ intent: "revoke", userId, confirmed: "1" }, { method: "post" })}
      />
    </Form>
  );
}

export default function Team({ loaderData, actionData }: Route.ComponentProps) {
  const { me, members, invites, changes, timeZone } = loaderData;
  const busy = useNavigation().state !== "idle";
  const confirm = actionData?.confirmRevoke;
  return (
    <section className="page">
      <h1 className="page-title">{tt.pageTitle}</h1>
      <p className={styles.intro}>{tt.intro}</p>
      {actionData?.done ? <Banner kind="success" message={actionData.done} /> : null}
      {actionData?.error ? <Banner kind="error" message={actionData.error} /> : null}

      {confirm ? (
        <div className={panel.panel} role="alertdialog" aria-labelledby="confirm-revoke-title" data-testid="revoke-confirm">
          <h2 id="confirm-revoke-title">{tt.revokeTitle}</h2>
          <p>{tt.revokeText(confirm.who)}</p>
          <Form method="post" className={styles.row}>
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="userId" value={confirm.userId} />
            <input type="hidden" name="confirmed" value="1" />
            <button type="submit" className={`${buttons.primary} ${styles.dangerSolid}`}>
              {tt.revokeConfirm}
            </button>
            <a href="/equipe" className={buttons.secondary}>
              {tt.cancel}
            </a>
          </Form>
        </div>
      ) : null}

      <section className={panel.panel} aria-labelledby="members-title">
        <h2 id="members-title">{tt.membersTitle}</h2>
        <p className={styles.intro}>{tt.publishesHelp}</p>
        <div className={styles.tableWrap}>
          <table className={styles.table} data-testid="team-members">
            <thead>
              <tr>
                <th scope="col">{tt.colMember}</th>
                <th scope="col">{tt.colRole}</th>
                <th scope="col">{tt.colLastSignIn}</th>
                <th scope="col">{tt.colTwoFactor}</th>
                <th scope="col">{tt.colPublishes}</th>
                <th scope="col">{tt.colActions}</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => {
                const self = member.userId === me;
                return (
                  <tr key={member.userId} data-testid={`member-${member.email}`}>
                    <th scope="row">
                      <span className={styles.name}>{member.name}</span>
                      <span className={styles.email}>
                        {member.email} {self ? tt.you : null}
                      </span>
                      <Link to={`/perfil?membro=${encodeURIComponent(member.userId)}`} aria-label={t.profile.otherTitle(member.name)}>
                        {t.profile.editFromTeam}
                      </Link>
                    </th>
                    <td data-testid="member-role" data-label={tt.colRole}>
                      {roleName(member.role)}
                    </td>
                    <td data-label={tt.colLastSignIn}>{formatWhen(member.lastSignIn, timeZone)}</td>
                    <td data-label={tt.colTwoFactor}>{member.twoFactor ? tt.twoFactorOn : tt.twoFactorOff}</td>
                    <td data-testid="member-publishes" data-label={tt.colPublishes}>
                      {member.role === "reporter" ? (
                        <PublishesForm userId={member.userId} who={member.email} on={member.publishesWithoutReview} busy={busy} />
                      ) : (
                        tt.publishesNotReporter
                      )}
                    </td>
                    <td data-label={self ? undefined : tt.colActions}>
                      {self ? null : (
                        <div className={styles.row}>
                          <Form method="post" className={styles.inline}>
                            <input type="hidden" name="intent" value="role" />
                            <input type="hidden" name="userId" value={member.userId} />
                            <RoleSelect id={`role-${member.userId}`} value={member.role} label={tt.changeRoleLabel(member.email)} />
                            <button type="submit" className={buttons.secondary} disabled={busy}>
                              {tt.changeRole}
                            </button>
                          </Form>
                          <RevokeButton userId={member.userId} who={member.email} />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      <section className={panel.panel} aria-labelledby="invite-title">
        <h2 id="invite-title">{tt.inviteTitle}</h2>
        <p>{tt.inviteHelp(INVITE_TTL_SECONDS / 3600)}</p>
        <Form method="post" className={styles.inviteForm}>
          <input type="hidden" name="intent" value="invite" />
          <div className={styles.field}>
            <label htmlFor="invite-email">{tt.email}</label>
            <input id="invite-email" name="email" type="email" required autoComplete="off" maxLength={254} />
          </div>
          <div className={styles.field}>
            <label htmlFor="invite-role">{tt.role}</label>
            <select id="invite-role" name="role" defaultValue="reporter">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {roleName(role)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttons.primary} disabled={busy}>
            <UserPlus aria-hidden="true" size={18} />
            {tt.inviteSubmit}
          </button>
        </Form>
        {invites.length ? (
          <>
            <h3>{tt.invitesTitle}</h3>
            <ul className={styles.invites} data-testid="team-invites">
              {invites.map((invite) => (
                <li key={invite.userId}>
                  <span>
                    {invite.email} · {roleName(invite.role)} ·{" "}
                    {invite.expired ? tt.inviteExpired : tt.inviteExpires(formatWhen(invite.expiresAt, timeZone))}
                  </span>
                  <Form method="post" className={styles.inline}>
                    <input type="hidden" name="intent" value="invite" />
                    <input type="hidden" name="email" value={invite.email} />
                    <input type="hidden" name="role" value={invite.role} />
                    <button type="submit" className={buttons.secondary} disabled={busy}>
                      {tt.resendInvite}
                    </button>
                  </Form>
                  <Form method="post" className={styles.inline}>
                    <input type="hidden" name="intent" value="cancel-invite" />
                    <input type="hidden" name="userId" value={invite.userId} />
                    <button type="submit" className={buttons.secondary} disabled={busy}>
                      {tt.cancelInvite}
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>

      <section className={panel.panel} aria-labelledby="log-title">
        <h2 id="log-title">{tt.logTitle}</h2>
        {changes.length ? (
          <div className={styles.tableWrap}>
            <table className={styles.table} data-testid="team-log">
              <thead>
                <tr>
                  <th scope="col">{tt.colWhen}</th>
                  <th scope="col">{tt.colActor}</th>
                  <th scope="col">{tt.colAction}</th>
                  <th scope="col">{tt.colTarget}</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((change) => (
                  <tr key={change.id}>
                    <td>{formatWhen(change.at, timeZone)}</td>
                    <td>{change.actor ?? tt.commandLine}</td>
                    <td>{describeChange(change)}</td>
                    <td>{change.target ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{tt.logEmpty}</p>
        )}
      </section>
    </section>
  );
}
