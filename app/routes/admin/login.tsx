import { data, href, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { noindexMeta, siteOf, titleWithSite } from "#app/lib/seo.ts";
import { servicesOf } from "#app/.server/context.server.ts";
import type { AuthFailure } from "#app/.server/auth/auth.service.server.ts";
import { AuthMessage } from "#app/components/auth/auth-message.tsx";
import { ForgotView, type LoginView, RegisterView, SignedIn, SignInView, TwoFactorView } from "#app/components/auth/login-views.tsx";
import { t } from "#app/i18n/newsroom.ts";
import { fieldErrorsOf, forgotSchema, loginSchema, registerSchema, type FieldErrors } from "#app/lib/auth-schemas.ts";
import { clientIpContext } from "#app/lib/request-context.ts";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";
import styles from "#app/components/auth/auth.module.css";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";
import { NO_STORE } from "#app/lib/cache-headers.ts";

export interface ActionData {
  intent: LoginView | "google";
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
        if (redirectTo !== href("/news-list")) next.set("redirectTo", redirectTo);
        throw redirect(`${href("/admin/login")}?${next}`, { headers: result.headers });
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
  const view: LoginView = requested === "register" || requested === "forgot" || requested === "2fa" ? requested : "login";
  const { googleEnabled, redirectTo, signedIn, resetDone } = loaderData;
  const result = actionData?.intent === view || (actionData?.intent === "google" && view === "login") ? actionData : undefined;
  const failure = result?.failure ?? (view === "login" ? loaderData.failure : undefined);
  const errors = result?.fieldErrors ?? {};
  const linkTo = (next: LoginView) => {
    const params = new URLSearchParams();
    if (next !== "login") params.set("view", next);
    if (redirectTo !== href("/news-list")) params.set("redirectTo", redirectTo);
    const query = params.toString();
    return query ? `?${query}` : href("/admin/login");
  };
  const form = { redirectTo, busy, errors, linkTo };

  if (signedIn) return <SignedIn />;

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

        {view === "login" ? <SignInView {...form} googleEnabled={googleEnabled} /> : null}
        {view === "2fa" ? <TwoFactorView {...form} /> : null}
        {view === "register" ? <RegisterView {...form} /> : null}
        {view === "forgot" ? <ForgotView {...form} success={result?.success} /> : null}
      </section>
    </div>
  );
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
