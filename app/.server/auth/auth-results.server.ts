import { t } from "#app/i18n/newsroom.ts";
import type { AdminService } from "#app/.server/admins/admins.service.server.ts";
import type { AppConfig } from "#app/.server/config/env.server.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import type { Mailer } from "#app/.server/mail/mailer.server.ts";
import type { LazyBetterAuth } from "./auth.server.ts";
import type { RateLimiter } from "./rate-limiter.server.ts";
import type { Role } from "#app/lib/roles.ts";

export interface Viewer {
  userId: string;
  email: string;
  /** The account's role in the newsroom (app/lib/roles.ts), or null: not part of the newsroom. */
  role: Role | null;
  /** Whether the role is `admin` (sponsors, settings): the newsroom itself is `role !== null`. */
  isAdmin: boolean;
  /** Whether the account signs in with a second factor (TOTP). */
  twoFactorEnabled: boolean;
}

/** Why an authentication step failed: a pt-BR message and, for signed-in non-admins, their id. */
export interface AuthFailure {
  ok: false;
  code:
    | "invalid"
    | "not_admin"
    | "registered_not_admin"
    | "rate_limited"
    | "policy"
    | "failed"
    | "google_disabled"
    | "email_not_verified"
    | "verify_invalid"
    | "two_factor"
    | "two_factor_invalid"
    | "two_factor_expired"
    | "two_factor_locked";
  message: string;
  /** A second paragraph (e.g. "check your e-mail" after registering). */
  notice?: string;
  uid?: string;
  status: number;
  /** Cookies to send along (the pending second-factor challenge). */
  headers?: Headers;
  /** For a 429: seconds until trying again makes sense (sent as Retry-After). */
  retryAfterSeconds?: number;
}

export type AuthResult = { ok: true; headers: Headers } | AuthFailure;

export interface AuthServiceDeps {
  auth: LazyBetterAuth;
  mailer: Mailer;
  admins: AdminService;
  limiter: RateLimiter;
  config: Pick<AppConfig, "auth" | "site">;
  log: Logger;
}

/** A refusal for `retryAfterSeconds`, with the wait in whole minutes in the message. */
export function refusal(retryAfterSeconds: number, message: (minutes: number) => string): AuthFailure {
  return {
    ok: false,
    code: "rate_limited",
    message: message(Math.max(1, Math.ceil(retryAfterSeconds / 60))),
    status: 429,
    retryAfterSeconds,
  };
}

/** The stable code of a Better Auth API error (e.g. EMAIL_NOT_VERIFIED), if any. */
export function errorCode(error: { body?: unknown }): string | undefined {
  return (error.body as { code?: string } | undefined)?.code;
}

/** Ends one session by its token. */
export async function endSession(auth: LazyBetterAuth, token: string): Promise<void> {
  const context = await (await auth.get()).$context;
  await context.internalAdapter.deleteSession(token);
}

/**
 * Only the newsroom (an account with a role: reporter, editor or admin) keeps a session: anyone else has the new one
 * ended at once and is told their id.
 */
export async function admitOnlyAdmins(
  { auth, admins }: Pick<AuthServiceDeps, "auth" | "admins">,
  userId: string,
  token: string,
): Promise<AuthFailure | null> {
  if (await admins.roleOf(userId)) return null;
  await endSession(auth, token);
  return { ok: false, code: "not_admin", message: t.auth.notAdmin, uid: userId, status: 403 };
}

/** How many attempts of one kind each scope may make per window, and the message of a refusal. */
export interface AttemptLimits {
  perAccount: number;
  perIp: number;
  message: (minutes: number) => string;
}

/** Counts an attempt of `scope` per account and per IP; the first limit reached refuses it. */
export async function countAttempt(
  { limiter, config }: Pick<AuthServiceDeps, "limiter" | "config">,
  scope: string,
  limits: AttemptLimits,
  ip: string,
  email: string,
): Promise<AuthFailure | null> {
  const { windowSeconds } = config.auth.rateLimit;
  const perAccount = await limiter.hit(`${scope}:account:${email.toLowerCase()}`, limits.perAccount, windowSeconds);
  const perIp = await limiter.hit(`${scope}:ip:${ip}`, limits.perIp, windowSeconds);
  const blocked = [perAccount, perIp].find((result) => !result.allowed);
  return blocked ? refusal(blocked.retryAfterSeconds, limits.message) : null;
}
