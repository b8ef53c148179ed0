import { data, Form, href, useNavigation } from "react-router";
import type { Route } from "./+types/team";
import { NO_STORE, privatePageHeaders } from "#app/lib/cache-headers.ts";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { requireRole } from "#app/.server/auth/permissions.server.ts";
import { Banner } from "#app/components/admin/banner.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import { INVITE_RATE_MAX, INVITE_RATE_WINDOW_SECONDS } from "#app/lib/limits.ts";
import { routeFacts } from "#app/lib/route-facts.ts";
import { isRole } from "#app/lib/roles.ts";
import panel from "#app/components/admin/panel.module.css";
import { TeamInvites } from "#app/components/admin/team-invites.tsx";
import { TeamLog } from "#app/components/admin/team-log.tsx";
import { TeamMembers } from "#app/components/admin/team-members.tsx";
import styles from "#app/components/admin/team.module.css";

/** The team page: admins only (the route facts say no lower role; the newsroom layout and this module check it). */
export const handle = routeFacts({ cache: false, uploads: false, role: "admin" });

const tt = t.team;

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
            <a href={href("/equipe")} className={buttons.secondary}>
              {tt.cancel}
            </a>
          </Form>
        </div>
      ) : null}

      <TeamMembers members={members} me={me} timeZone={timeZone} busy={busy} />
      <TeamInvites invites={invites} timeZone={timeZone} busy={busy} />
      <TeamLog changes={changes} timeZone={timeZone} />
    </section>
  );
}
