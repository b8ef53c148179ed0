import { CheckCircle2, LogIn } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { noindexMeta, siteOf, titleWithSite } from "../../lib/seo.ts";
import { servicesOf } from "../../.server/context.server.ts";
import type { AuthFailure } from "../../.server/auth/auth.service.server.ts";
import { AuthMessage } from "../../components/auth/auth-message.tsx";
import { NewPasswordFields, TextField } from "../../components/auth/text-field.tsx";
import buttons from "../../components/ui/button.module.css";
import { t } from "../../i18n/newsroom.ts";
import { fieldErrorsOf, forgotSchema, loginSchema, registerSchema, type FieldErrors } from "../../lib/auth-schemas.ts";
import { clientIpContext } from "../../lib/request-context.ts";
import { safeRedirectPath } from "../../lib/safe-redirect.ts";
import styles from "../../components/auth/auth.module.css";
import { PRIVATE_ROUTE } from "../../lib/route-facts.ts";
import { NO_STORE } from "../../lib/cache-headers.ts";

type View = "login" | "register" | "forgot" | "2fa";

export interface ActionData {
  intent: View | "google";
  failure?: Pick<AuthFailure, "message" | "uid" | "code" | "notice">;
  success?: string;
  fieldErrors?: FieldErrors;
}

export function meta({ matches }: Route.MetaArgs) {
  return noindexMeta(titleWithSite(t.auth.title, siteOf(matches)));
}

/** A refused sign-in (429) tells when to come back; the sign-in page itself is never cached. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const result = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) result.set("Retry-After", retryAfter);
  if (!result.has("Cache-Control")) result.set("Cache-Control", NO_STORE);
  return result;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, config } = servicesOf(context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const base = {
    googleEnabled: auth.googleEnabled(),
    policy: config.auth.passwordPolicy,
    redirectTo,
    resetDone: url.searchParams.get("reset") === "ok" ? (url.searchParams.get("convite") === "1" ? ("invite" as const) : ("reset" as const)) : null,
  };
  const viewer = await auth.getViewer(request);
  const oauth = url.searchParams.get("oauth");
  if (oauth === "google") {
    // Back from Google: only an admin keeps the session that the callback created.
    if (viewer?.role) throw redirect(redirectTo);
    if (viewer) {
      const headers = await auth.signOut(request.headers);
      headers.set("Cache-Control", NO_STORE);
      return data({ ...base, signedIn: false, failure: { code: "not_admin" as const, message: t.auth.notAdmin, uid: viewer.userId } }, { headers });
    }
    return { ...base, signedIn: false, failure: { code: "failed" as const, message: t.auth.googleLoginFailed } };
  }
  if (oauth === "error") {
    return { ...base, signedIn: false, failure: { code: "failed" as const, message: t.auth.googleLoginFailed } };
  }
  return { ...base, signedIn: Boolean(viewer?.role), failure: undefined };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config } = servicesOf(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const ip = context.get(clientIpContext);
  const fields = Object.fromEntries(form);

  const fail = (view: ActionData["intent"], failure: AuthFailure, status: number) =>
    data<ActionData>(
      { intent: view, failure: { code: failure.code, message: failure.message, uid: failure.uid, notice: failure.notice } },
      { status, headers: failure.retryAfterSeconds ? { "Retry-After": String(failure.retryAfterSeconds) } : undefined },
    );

  switch (intent) {
    case "login": {
      const parsed = loginSchema.safeParse(fields);
      if (!parsed.success) return data<ActionData>({ intent, fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
      const result = await auth.signInWithPassword({ ...parsed.data, ip, headers: request.headers });
      if (!result.ok && result.code === "two_factor") {
        // Password right, second factor on: the challenge cookie goes along, and the code is asked next.
        const next = new URLSearchParams({ view: "2fa" });
        if (redirectTo !== "/news-list") next.set("redirectTo", redirectTo);
        throw redirect(`/admin/login?${next}`, { headers: result.headers });
      }
      if (!result.ok) return fail(intent, result, result.status);
      throw redirect(redirectTo, { headers: result.headers });
    }
    case "2fa": {
      const code = String(form.get("code") ?? "").replace(/\s+/g, "");
      // Six digits come from the app; anything else is a recovery code (so the form works without JavaScript too).
      const method = /^\d{6}$/.test(code) ? "totp" : "backup";
      if (!code) return data<ActionData>({ intent, fieldErrors: { code: [t.auth.twoFactor.codeRequired] } }, { status: 400 });
      const result = await auth.verifySecondFactor({ code, method, ip, headers: request.headers });
      if (!result.ok) return fail(intent, result, result.status);
      throw redirect(redirectTo, { headers: result.headers });
    }
    case "register": {
      const parsed = registerSchema(config.auth.passwordPolicy).safeParse(fields);
      if (!parsed.success) return data<ActionData>({ intent, fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
      const result = await auth.register({ ...parsed.data, ip, headers: request.headers });
      if (!result.ok) return fail(intent, result, result.status);
      throw redirect(redirectTo, { headers: result.headers });
    }
    case "forgot": {
      const parsed = forgotSchema.safeParse(fields);
      if (!parsed.success) return data<ActionData>({ intent, fieldErrors: fieldErrorsOf(parsed.error) }, { status: 400 });
      const result = await auth.requestPasswordReset({ email: parsed.data.email, ip, headers: request.headers });
      if (!result.ok) return fail(intent, result, result.status);
      return data<ActionData>({ intent, success: t.auth.resetSent });
    }
    case "google": {
      const result = await auth.startGoogleSignIn({ redirectTo, headers: request.headers });
      if ("ok" in result) return fail("login", result, result.status);
      throw redirect(result.url, { headers: result.headers });
    }
    default:
      return data<ActionData>({ intent: "login", failure: { code: "failed", message: t.auth.loginFailed } }, { status: 400 });
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const requested = searchParams.get("view");
  const view: View = requested === "register" || requested === "forgot" || requested === "2fa" ? requested : "login";
  const [recovery, setRecovery] = useState(false);
  const { googleEnabled, redirectTo, signedIn, resetDone } = loaderData;
  const result = actionData?.intent === view || (actionData?.intent === "google" && view === "login") ? actionData : undefined;
  const failure = result?.failure ?? (view === "login" ? loaderData.failure : undefined);
  const errors = result?.fieldErrors ?? {};
  const linkTo = (next: View) => {
    const params = new URLSearchParams();
    if (next !== "login") params.set("view", next);
    if (redirectTo !== "/news-list") params.set("redirectTo", redirectTo);
    const query = params.toString();
    return query ? `?${query}` : "/admin/login";
  };

  if (signedIn) {
    return (
      <div className={styles.page}>
        <section className={styles.card}>
          <h1 className={styles.title}>{t.auth.title}</h1>
          <p className={styles.success} role="status">
            <CheckCircle2 aria-hidden="true" size={20} /> {t.auth.alreadyLoggedIn}
          </p>
          <Link to="/news-list" className={buttons.primary}>
            {t.auth.goToNews}
          </Link>
        </section>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="login-title">
        <h1 id="login-title" className={styles.title}>
          {t.auth.title}
        </h1>
        <p className={styles.note}>{t.auth.note}</p>
        <p className={styles.note}>{t.auth.newsroomNote}</p>

        {resetDone && view === "login" ? (
          <p className={styles.success} role="status">
            {resetDone === "invite" ? t.auth.inviteDone : t.auth.resetDone}
          </p>
        ) : null}
        {failure ? <AuthMessage failure={failure} /> : null}

        {view === "login" ? (
          <>
            {/* Only when this server has Google sign-in (how to turn it on is in the server's log, not here). */}
            {googleEnabled ? (
              <>
                <Form method="post" className={styles.googleForm}>
                  <input type="hidden" name="intent" value="google" />
                  <input type="hidden" name="redirectTo" value={redirectTo} />
                  <button type="submit" className={styles.google} disabled={busy}>
                    <GoogleMark /> {t.auth.google}
                  </button>
                </Form>
                <p className={styles.divider}>
                  <span>{t.auth.or}</span>
                </p>
              </>
            ) : null}
            <Form method="post" className={styles.form} noValidate>
              <input type="hidden" name="intent" value="login" />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <TextField name="email" type="email" label={t.auth.email} autoComplete="username" required errors={errors.email} />
              <TextField name="password" type="password" label={t.auth.password} autoComplete="current-password" required errors={errors.password} />
              <button type="submit" className={buttons.primary} disabled={busy}>
                <LogIn aria-hidden="true" size={18} /> {busy ? t.auth.signingIn : t.auth.signIn}
              </button>
            </Form>
            <nav className={styles.links} aria-label={t.auth.title}>
              <Link to={linkTo("forgot")}>{t.auth.forgot}</Link>
              <Link to={linkTo("register")}>{t.auth.register}</Link>
            </nav>
          </>
        ) : null}

        {view === "2fa" ? (
          <Form method="post" className={styles.form} noValidate>
            <h2 className={styles.subtitle}>{t.auth.twoFactor.title}</h2>
            <p className={styles.hint}>{recovery ? t.auth.twoFactor.recoveryPrompt : t.auth.twoFactor.prompt}</p>
            <input type="hidden" name="intent" value="2fa" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <TextField
              name="code"
              type="text"
              label={recovery ? t.auth.twoFactor.recoveryCode : t.auth.twoFactor.code}
              autoComplete="one-time-code"
              inputMode={recovery ? "text" : "numeric"}
              required
              errors={errors.code}
            />
            <button type="submit" className={buttons.primary} disabled={busy}>
              {t.auth.twoFactor.verify}
            </button>
            <button type="button" className={styles.linkButton} onClick={() => setRecovery(!recovery)}>
              {recovery ? t.auth.twoFactor.useApp : t.auth.twoFactor.useRecovery}
            </button>
            <Link to={linkTo("login")} className={styles.back}>
              {t.auth.backToLogin}
            </Link>
          </Form>
        ) : null}

        {view === "register" ? (
          <Form method="post" className={styles.form} noValidate>
            <h2 className={styles.subtitle}>{t.auth.registerTitle}</h2>
            <input type="hidden" name="intent" value="register" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <TextField name="email" type="email" label={t.auth.email} autoComplete="username" required errors={errors.email} />
            <NewPasswordFields label={t.auth.password} errors={errors} />
            <button type="submit" className={buttons.primary} disabled={busy}>
              {t.auth.registerSubmit}
            </button>
            <Link to={linkTo("login")} className={styles.back}>
              {t.auth.backToLogin}
            </Link>
          </Form>
        ) : null}

        {view === "forgot" ? (
          <Form method="post" className={styles.form} noValidate>
            <h2 className={styles.subtitle}>{t.auth.forgotTitle}</h2>
            <p className={styles.hint}>{t.auth.forgotHelp}</p>
            {result?.success ? (
              <p className={styles.success} role="status">
                {result.success}
              </p>
            ) : null}
            <input type="hidden" name="intent" value="forgot" />
            <TextField name="email" type="email" label={t.auth.email} autoComplete="username" required errors={errors.email} />
            <button type="submit" className={buttons.primary} disabled={busy}>
              {t.auth.forgotSubmit}
            </button>
            <Link to={linkTo("login")} className={styles.back}>
              {t.auth.backToLogin}
            </Link>
          </Form>
        ) : null}
      </section>
    </div>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path fill="#FF3D00" d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C36.9 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
