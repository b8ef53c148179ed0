import { t } from "#app/i18n/newsroom.ts";
import { RESET_MAIL_INTERVAL_SECONDS } from "#app/lib/limits.ts";
import type { Mailer } from "#app/.server/mail/mailer.server.ts";
import { isAPIError } from "./api-error.server.ts";
import { createInviteToken, isInviteToken, RESET_PASSWORD_PATH, RESET_TOKEN_TTL_SECONDS } from "./auth.server.ts";
import { type AuthFailure, type AuthResult, type AuthServiceDeps, errorCode, refusal } from "./auth-results.server.ts";

/** Asking for a reset link, the operator's set-password link, and choosing the new password. */
export function createPasswordResetFlow(deps: AuthServiceDeps) {
  const { auth, mailer, limiter, config, log } = deps;
  const { rateLimit } = config.auth;

  /**
   * Requests are refused (429) per requesting address, and per address and target together: only the place that
   * sends too many waits. Nothing refuses per target alone, so a flood for the admin's address from elsewhere never
   * stops the admin's own request; what the target limits is the mail (see mailDue).
   */
  async function requestLimited(ip: string, email: string): Promise<AuthFailure | null> {
    const results = [
      await limiter.hit(`reset:ip:${ip}`, rateLimit.max * 3, rateLimit.windowSeconds),
      await limiter.hit(`reset:ip-target:${ip}:${email}`, rateLimit.max, rateLimit.windowSeconds),
    ];
    const waits = results.filter((result) => !result.allowed).map((result) => result.retryAfterSeconds);
    return waits.length ? refusal(Math.max(...waits), t.auth.rateLimited) : null;
  }

  /** Whether a mail may go to `email` now: one per RESET_MAIL_INTERVAL_SECONDS, whoever asks and whether or not it has an account. */
  async function mailDue(email: string): Promise<boolean> {
    return (await limiter.hit(`reset:mail:${email}`, 1, RESET_MAIL_INTERVAL_SECONDS)).allowed;
  }

  return {
    /**
     * Always answers the same way whether the account exists or not (no user enumeration), and whether or not a
     * mail went: within RESET_MAIL_INTERVAL_SECONDS of the last one for that address, none goes.
     */
    async requestPasswordReset(input: { email: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const email = input.email.trim().toLowerCase();
      const blocked = await requestLimited(input.ip, email);
      if (blocked) return blocked;
      if (!(await mailDue(email))) return { ok: true, headers: new Headers() };
      try {
        await (await auth.get()).api.requestPasswordReset({ body: { email }, headers: input.headers });
        return { ok: true, headers: new Headers() };
      } catch (error) {
        log.error({ err: error }, "password reset request failed");
        return { ok: false, code: "failed", message: t.auth.resetSendFailed, status: 500 };
      }
    },

    /**
     * Mails `email` a link to choose a new password (the reset flow, its words): for an account `admin create` found
     * already there, whose owner proves the address through it. Waits until the message is written or sent. Returns
     * how it went out.
     */
    async sendSetPasswordLink(email: string): Promise<Mailer["mode"]> {
      await (await auth.get()).api.requestPasswordReset({ body: { email } });
      await mailer.idle();
      return mailer.mode;
    },

    /**
     * Mails the owner of an account the admin command just created (`create --send-link`, a password nobody knows) a
     * link to create theirs: an invitation's token (INVITE_TOKEN_PREFIX), so the mail and the page say "crie sua
     * senha", not that someone asked to reset it. Valid RESET_TOKEN_TTL_SECONDS and once. Returns how it went out.
     */
    async sendNewAccountLink(account: { userId: string; email: string; roleName: string }): Promise<Mailer["mode"]> {
      const hours = RESET_TOKEN_TTL_SECONDS / 3600;
      const token = await createInviteToken(auth, account.userId, new Date(Date.now() + RESET_TOKEN_TTL_SECONDS * 1000));
      const url = `${config.site.url}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
      // The link is a credential: it goes in the mail only, never in a log line.
      await mailer.send({
        to: account.email,
        subject: t.auth.mail.newAccountSubject(config.site.name),
        text: t.auth.mail.newAccountText(config.site.name, account.roleName, url, hours),
      });
      await mailer.idle();
      return mailer.mode;
    },

    /**
     * Whether `token` is an invitation's (INVITE_TOKEN_PREFIX) that can still be used: unspent and unexpired. What the
     * reset page says (an invitation's words, or that the invitation is no longer valid); never what it lets do.
     */
    async isLiveInvite(token: string): Promise<boolean> {
      if (!isInviteToken(token)) return false;
      const context = await (await auth.get()).$context;
      const stored = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
      return Boolean(stored && new Date(stored.expiresAt).getTime() > Date.now());
    },

    async resetPassword(input: { token: string; newPassword: string }): Promise<AuthResult> {
      try {
        await (await auth.get()).api.resetPassword({ body: { token: input.token, newPassword: input.newPassword } });
        return { ok: true, headers: new Headers() };
      } catch (error) {
        if (isAPIError(error)) {
          if (errorCode(error) === "PASSWORD_POLICY") return { ok: false, code: "policy", message: error.message, status: 400 };
          return { ok: false, code: "invalid", message: t.auth.resetInvalid, status: 400 };
        }
        log.error({ err: error }, "password reset failed");
        return { ok: false, code: "failed", message: t.auth.resetSendFailed, status: 500 };
      }
    },
  };
}
