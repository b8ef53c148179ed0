import { CheckCircle2, LogIn } from "lucide-react";
import { useState } from "react";
import { Form, href, Link } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import type { FieldErrors } from "#app/lib/auth-schemas.ts";
import buttons from "#app/components/ui/button.module.css";
import styles from "./auth.module.css";
import { NewPasswordFields, TextField } from "./text-field.tsx";

/** The sign-in page's views (app/routes/admin/login.tsx), each a plain form: they work without JavaScript. */
export type LoginView = "login" | "register" | "forgot" | "2fa";

/** What every view's form needs: where to go after, whether a post is on its way, the fields' errors, links between views. */
export interface LoginViewProps {
  redirectTo: string;
  busy: boolean;
  errors: FieldErrors;
  linkTo: (view: LoginView) => string;
}

/** Already signed in: says so, and the way to the news. */
export function SignedIn() {
  return (
    <div className={styles.page}>
      <section className={styles.card}>
        <h1 className={styles.title}>{t.auth.title}</h1>
        <p className={styles.success} role="status">
          <CheckCircle2 aria-hidden="true" size={20} /> {t.auth.alreadyLoggedIn}
        </p>
        <Link to={href("/news-list")} className={buttons.primary}>
          {t.auth.goToNews}
        </Link>
      </section>
    </div>
  );
}

/** E-mail and password (and Google's button, when this server has Google sign-in), with the links to the other views. */
export function SignInView({ redirectTo, busy, errors, linkTo, googleEnabled }: LoginViewProps & { googleEnabled: boolean }) {
  return (
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
  );
}

/** The second step: the authenticator's code, or a recovery code. */
export function TwoFactorView({ redirectTo, busy, errors, linkTo }: LoginViewProps) {
  const [recovery, setRecovery] = useState(false);
  return (
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
  );
}

/** A new account (a reader's; the newsroom's roles are given by an admin). */
export function RegisterView({ redirectTo, busy, errors, linkTo }: LoginViewProps) {
  return (
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
  );
}

/** "Esqueci a senha": the address to send the link to, and the answer (the same whether the address exists or not). */
export function ForgotView({ busy, errors, linkTo, success }: Omit<LoginViewProps, "redirectTo"> & { success: string | undefined }) {
  return (
    <Form method="post" className={styles.form} noValidate>
      <h2 className={styles.subtitle}>{t.auth.forgotTitle}</h2>
      <p className={styles.hint}>{t.auth.forgotHelp}</p>
      {success ? (
        <p className={styles.success} role="status">
          {success}
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
