import { t } from "../../i18n/pt-BR.ts";
import type { Mailer } from "../mail/mailer.server.ts";
import { isAPIError } from "./api-error.server.ts";
import { type AuthResult, type AuthServiceDeps, countAttempt, errorCode } from "./auth-results.server.ts";

/** Asking for a reset link, the operator's set-password link, and choosing the new password. */
export function createPasswordResetFlow(deps: AuthServiceDeps) {
  const { auth, mailer, config, log } = deps;
  const { rateLimit } = config.auth;
  const limits = { perAccount: rateLimit.max, perIp: rateLimit.max * 3, message: t.auth.rateLimited };

  return {
    /** Always answers the same way whether the account exists or not (no user enumeration). */
    async requestPasswordReset(input: { email: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await countAttempt(deps, "reset", limits, input.ip, input.email);
      if (blocked) return blocked;
      try {
        await (await auth.get()).api.requestPasswordReset({ body: { email: input.email }, headers: input.headers });
        return { ok: true, headers: new Headers() };
      } catch (error) {
        log.error({ err: error }, "password reset request failed");
        return { ok: false, code: "failed", message: t.auth.resetSendFailed, status: 500 };
      }
    },

    /**
     * Mails `email` a link to choose a password (the reset flow): for accounts the admin command creates with
     * --send-link. Waits until the message is written or sent. Returns how it went out.
     */
    async sendSetPasswordLink(email: string): Promise<Mailer["mode"]> {
      await (await auth.get()).api.requestPasswordReset({ body: { email } });
      await mailer.idle();
      return mailer.mode;
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
