import { UserPlus } from "lucide-react";
import { Form } from "react-router";
import type { PendingInvite } from "#app/.server/admins/team.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { INVITE_TTL_SECONDS } from "#app/lib/limits.ts";
import { ROLES } from "#app/lib/roles.ts";
import buttons from "#app/components/ui/button.module.css";
import panel from "./panel.module.css";
import { formatWhen, roleName } from "./team-format.ts";
import styles from "./team.module.css";

const tt = t.team;

/** "Convidar": the form, and the invitations not accepted yet (resend, cancel). */
export function TeamInvites({ invites, timeZone, busy }: { invites: PendingInvite[]; timeZone: string; busy: boolean }) {
  return (
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
  );
}
