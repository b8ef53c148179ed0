import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { noindexMeta } from "../../lib/seo.ts";
import { servicesOf } from "../../.server/context.server.ts";
import { AuthMessage } from "../../components/auth/auth-message.tsx";
import { NewPasswordFields } from "../../components/auth/text-field.tsx";
import buttons from "../../components/ui/button.module.css";
import { t } from "../../i18n/newsroom.ts";
import { fieldErrorsOf, resetSchema, type FieldErrors } from "../../lib/auth-schemas.ts";
import styles from "../../components/auth/auth.module.css";
import { PRIVATE_ROUTE } from "../../lib/route-facts.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  return noindexMeta(loaderData?.invite ? t.auth.inviteTitle : t.auth.resetTitle);
}

/** `convite=1`: the link came in an invitation to the newsroom. It changes the words, never what the token does. */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const invite = url.searchParams.get("convite") === "1";
  return data({ token, invite }, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
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
  const result = await auth.resetPassword({ token: parsed.data.token, newPassword: parsed.data.password });
  if (!result.ok) return data({ fieldErrors: {} as FieldErrors, message: result.message }, { status: result.status });
  throw redirect(new URL(request.url).searchParams.get("convite") === "1" ? "/admin/login?reset=ok&convite=1" : "/admin/login?reset=ok");
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
        {actionData?.message ? <AuthMessage failure={{ message: actionData.message }} /> : null}
        <Form method="post" className={styles.form} noValidate>
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields label={t.auth.newPassword} errors={errors} />
          <button type="submit" className={buttons.primary} disabled={busy || !loaderData.token}>
            {loaderData.invite ? t.auth.inviteSubmit : t.auth.resetSubmit}
          </button>
          <Link to="/admin/login" className={styles.back}>
            {t.auth.backToLogin}
          </Link>
        </Form>
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
