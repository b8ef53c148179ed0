import type { MemberChange } from "#app/.server/admins/team.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import type { Role } from "#app/lib/roles.ts";
import panel from "./panel.module.css";
import { formatWhen, roleName } from "./team-format.ts";
import styles from "./team.module.css";

const tt = t.team;

/** The team's log: who changed whom, and how (the last 50 changes). */
export function TeamLog({ changes, timeZone }: { changes: MemberChange[]; timeZone: string }) {
  return (
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
  );
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
