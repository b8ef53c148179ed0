import { href } from "react-router";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { twoFactor } from "better-auth/plugins/two-factor";
import { t } from "#app/i18n/newsroom.ts";
import { passwordProblems } from "#app/lib/password-policy.ts";
import { markOwnershipProven } from "#app/.server/admins/ownership.server.ts";
import { acceptInvite } from "#app/.server/admins/team.server.ts";
import {
  type AuthDeps,
  AUTH_BASE_PATH,
  markEmailVerified,
  RESET_PASSWORD_PATH,
  RESET_TOKEN_TTL_SECONDS,
  VERIFY_EMAIL_PATH,
  VERIFY_EMAIL_TTL_SECONDS,
} from "./auth.server.ts";

/** The Better Auth instance on our database: e-mail + password, and Google (OpenID Connect) when configured. */
export function buildBetterAuth({ config, db, dialect, secret, mailer, log }: AuthDeps) {
  const { passwordPolicy: policy, google } = config.auth;
  /** Sends a mail in the background and logs only that it went (or failed), never its content. */
  const send = (to: string, subject: string, text: string, purpose: string) => {
    void mailer.send({ to, subject, text }).catch((error: unknown) => log.error({ err: error, purpose }, "mail could not be sent"));
  };
  return betterAuth({
    appName: config.site.name,
    baseURL: config.site.url,
    basePath: AUTH_BASE_PATH,
    secret,
    database: { db, type: dialect },
    telemetry: { enabled: false },
    // Better Auth's own messages go through our structured logger (and its LOG_LEVEL).
    logger: {
      log(level, message, ...args) {
        log[level]({ source: "better-auth", args: args.length ? args : undefined }, message);
      },
    },
    trustedOrigins: [config.site.url],
    // Sign-in attempts are limited by our own limiter (per IP and per account) in the login action.
    rateLimit: { enabled: false },
    advanced: { cookiePrefix: "eef" },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: policy.minLength,
      maxPasswordLength: policy.maxLength,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_TTL_SECONDS,
      // Self-registration proves the address first: an account is only trusted (granted admin by the CLI,
      // signed in) once its owner followed the link sent to it. Sign-up then answers the same way whether or not
      // the address already has an account (Better Auth returns a synthetic user), so nobody learns who has one.
      requireEmailVerification: true,
      async sendResetPassword({ user, token }) {
        const url = `${config.site.url}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
        // Not awaited: the answer must not take longer when the account exists (no user enumeration by timing).
        // The link is a credential: it goes in the mail only, never in a log line.
        send(user.email, t.auth.mail.resetSubject(config.site.name), t.auth.mail.resetText(config.site.name, url), "password reset");
      },
      // Following a reset link proves the address as well as a verification link does: an account someone else
      // registered with the newsroom's address becomes its owner's, verified, with every session ended; and an
      // account `admin create` is waiting on (ownership.server.ts) may now be granted, and a pending invitation is accepted.
      async onPasswordReset({ user }) {
        await markEmailVerified(db, user.id);
        await markOwnershipProven(db, user.id);
        // An invitation from the team page (/equipe) becomes the account's role now that its owner proved the address.
        await acceptInvite(db, user.id);
      },
      async onExistingUserSignUp({ user }) {
        send(
          user.email,
          t.auth.mail.existingSubject(config.site.name),
          t.auth.mail.existingText(config.site.name, `${config.site.url}${href("/admin/login")}?view=forgot`),
          "existing account notice",
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_EMAIL_TTL_SECONDS,
      async sendVerificationEmail({ user, token }) {
        const url = `${config.site.url}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
        send(user.email, t.auth.mail.verifySubject(config.site.name), t.auth.mail.verifyText(config.site.name, url), "e-mail verification");
      },
    },
    hooks: {
      // Our extra password rules apply to every way a password is set, whatever calls the API.
      before: createAuthMiddleware(async (ctx) => {
        const password = ctx.path === "/sign-up/email" ? ctx.body?.password : ctx.path === "/reset-password" ? ctx.body?.newPassword : undefined;
        if (typeof password !== "string") return;
        const problems = passwordProblems(password, policy);
        if (problems.length) throw new APIError("BAD_REQUEST", { message: problems.join("\n"), code: "PASSWORD_POLICY" });
      }),
    },
    plugins: [
      // TOTP (authenticator app) with recovery codes, for admins who turn it on (required with ADMIN_2FA=required).
      twoFactor({ issuer: config.site.name, backupCodeOptions: { amount: 10, length: 10 } }),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "google",
                  clientId: google.clientId,
                  clientSecret: google.clientSecret,
                  discoveryUrl: google.discoveryUrl,
                  scopes: ["openid", "email", "profile"],
                },
              ],
            }),
          ]
        : []),
    ],
  });
}
