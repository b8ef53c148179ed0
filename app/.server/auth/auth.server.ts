import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Kysely } from "kysely";
import { t } from "../../i18n/pt-BR.ts";
import { passwordProblems } from "../../lib/password-policy.ts";
import type { AppConfig } from "../config/env.server.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.server.ts";
import type { Mailer } from "../mail/mailer.server.ts";

export const AUTH_BASE_PATH = "/api/auth";
/** Paths of Better Auth's own HTTP handler that the browser may reach (everything else goes through our forms). */
export const PUBLIC_AUTH_PATHS = [`${AUTH_BASE_PATH}/callback/google`];

export interface AuthDeps {
  config: Pick<AppConfig, "site" | "auth">;
  db: Kysely<Database>;
  dialect: "sqlite" | "postgres";
  secret: string;
  mailer: Mailer;
  log: Logger;
}

/** The Better Auth instance on our database: e-mail + password, and Google (OpenID Connect) when configured. */
export function createBetterAuth({ config, db, dialect, secret, mailer, log }: AuthDeps) {
  const { passwordPolicy: policy, google } = config.auth;
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
      resetPasswordTokenExpiresIn: 3600,
      async sendResetPassword({ user, token }) {
        const url = `${config.site.url}/admin/reset-password?token=${encodeURIComponent(token)}`;
        // Not awaited: the answer must not take longer when the account exists (no user enumeration by timing).
        void mailer
          .send({ to: user.email, subject: t.auth.mail.resetSubject(config.site.name), text: t.auth.mail.resetText(config.site.name, url) })
          .then(() => {
            if (mailer.mode === "outbox") log.info({ url }, "password reset link (SMTP_URL not set)");
          })
          .catch((error: unknown) => log.error({ err: error }, "password reset mail failed"));
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
    plugins: google
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
      : [],
  });
}

export type BetterAuthInstance = ReturnType<typeof createBetterAuth>;
