import { UserMinus } from "lucide-react";
import { useRef, useState } from "react";
import { Form, href, Link, useSubmit } from "react-router";
import type { TeamMember } from "#app/.server/admins/team.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { ROLES, type Role } from "#app/lib/roles.ts";
import buttons from "#app/components/ui/button.module.css";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import panel from "./panel.module.css";
import { formatWhen, roleName } from "./team-format.ts";
import styles from "./team.module.css";

const tt = t.team;

/**
 * The team's members: role, last sign-in, two-factor, a reporter's "publica sem revisão", and for everyone but the
 * admin looking, a new role and "Revogar". Plain forms: the page works without JavaScript.
 */
export function TeamMembers({ members, me, timeZone, busy }: { members: TeamMember[]; me: string; timeZone: string; busy: boolean }) {
  return (
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
                    <Link to={`${href("/perfil")}?membro=${encodeURIComponent(member.userId)}`} aria-label={t.profile.otherTitle(member.name)}>
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
  );
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
