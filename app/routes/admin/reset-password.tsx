import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { noindexMeta } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import { isInviteToken } from "#app/.server/auth/auth.server.ts";
import { AuthMessage } from "#app/components/auth/auth-message.tsx";
import { NewPasswordFields } from "#app/components/auth/text-field.tsx";
import buttons from "#app/components/ui/button.module.css";
import { t } from "#app/i18n/newsroom.ts";
import { fieldErrorsOf, resetSchema, type FieldErrors } from "#app/lib/auth-schemas.ts";
import styles from "#app/components/auth/auth.module.css";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  return noindexMeta(loaderData?.invite ? t.auth.inviteTitle : t.auth.resetTitle);
}

/**
 * The link of a password reset, or of an invitation to the newsroom: its token says which (INVITE_TOKEN_PREFIX), and
 * an invitation's words ("Crie sua senha") need the token to be live, checked here. Words only: what the form may do
 * is the token's, checked again when it is sent.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const invite = isInviteToken(token);
  // An invitation already used, expired or made up says so at once (a reset's link says it when sent, as before).
  const inviteInvalid = invite && !(await servicesOf(context).auth.isLiveInvite(token));
  return data({ token, invite, inviteInvalid }, { headers: { "Cache-Control": NO_STORE, "Referrer-Policy": "no-referrer" } });
}

/** The loader's headers reach the browser: no caching and no Referer carrying the token (the root's would win). */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config } = servicesOf(context);
  const parsed = resetSchema(config.auth.passwordPolicy).safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data({ fieldErrors: fieldErrorsOf(parsed.error) as FieldErrors, message: null }, { status: 400 });
  }
  const invite = isInviteToken(parsed.data.token);
  const result = await auth.resetPassword({ token: parsed.data.token, newPassword: parsed.data.password });
  if (!result.ok) {
    const message = invite && result.code === "invalid" ? t.auth.inviteInvalid : result.message;
    return data({ fieldErrors: {} as FieldErrors, message }, { status: result.status });
  }
  // The token was spent by this reset: the sign-in page's "Senha criada" comes from the token's kind, known here.
  throw redirect(`${href("/admin/login")}?reset=ok${invite ? "&convite=1" : ""}`);
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors = actionData?.fieldErrors ?? {};
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="reset-title">
        <h1 id="reset-title" className={styles.title}>
          {loaderData.invite ? t.auth.inviteTitle : t.auth.resetTitle}
        </h1>
        {!loaderData.token ? <AuthMessage failure={{ message: t.auth.resetInvalid }} /> : null}
        {loaderData.inviteInvalid && !actionData?.message ? <AuthMessage failure={{ message: t.auth.inviteInvalid }} /> : null}
        {actionData?.message ? <AuthMessage failure={{ message: actionData.message }} /> : null}
        <Form method="post" className={styles.form} noValidate>
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields label={t.auth.newPassword} errors={errors} />
          <button type="submit" className={buttons.primary} disabled={busy || !loaderData.token || loaderData.inviteInvalid}>
            {loaderData.invite ? t.auth.inviteSubmit : t.auth.resetSubmit}
          </button>
          <Link to={href("/admin/login")} className={styles.back}>
            {t.auth.backToLogin}
          </Link>
        </Form>
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
