import { t } from "../../i18n/pt-BR.ts";
import { isAPIError } from "./api-error.server.ts";
import {
  type AuthFailure,
  type AuthResult,
  type AuthServiceDeps,
  admitOnlyAdmins,
  countAttempt,
  errorCode,
  type Viewer,
} from "./auth-results.server.ts";

/** The second step of a sign-in, and turning two-factor on and off on the security page. */
export function createTwoFactorFlow(deps: AuthServiceDeps) {
  const { auth, config, log } = deps;
  const { rateLimit } = config.auth;
  // Second-factor codes per IP (Better Auth also locks the account after 10 failures).
  const limits = { perAccount: rateLimit.max * 3, perIp: rateLimit.max * 3, message: t.auth.rateLimited };

  /** A failure of a security-page operation (wrong password, wrong code) as a pt-BR message. */
  function securityFailure(error: unknown): AuthFailure {
    if (!isAPIError(error)) {
      log.error({ err: error }, "two-factor operation failed");
      return { ok: false, code: "failed", message: t.auth.twoFactor.failed, status: 500 };
    }
    const reason = errorCode(error);
    if (reason === "INVALID_PASSWORD") return { ok: false, code: "invalid", message: t.auth.twoFactor.wrongPassword, status: 400 };
    if (reason === "INVALID_CODE") return { ok: false, code: "two_factor_invalid", message: t.auth.twoFactor.invalidCode, status: 400 };
    return { ok: false, code: "failed", message: t.auth.twoFactor.failed, status: 400 };
  }

  /** The two-factor state of an account (for the security page). */
  async function twoFactorStatus(userId: string): Promise<{ enabled: boolean; hasPassword: boolean }> {
    const context = await (await auth.get()).$context;
    const [user, accounts] = await Promise.all([context.internalAdapter.findUserById(userId), context.internalAdapter.findAccounts(userId)]);
    return {
      enabled: Boolean((user as { twoFactorEnabled?: unknown } | null)?.twoFactorEnabled),
      hasPassword: accounts.some((account) => account.providerId === "credential"),
    };
  }

  return {
    /**
     * The second step of a sign-in with two-factor on: a code of the authenticator app or a recovery code, checked
     * against the challenge cookie of the first step. Better Auth locks the account for 15 min after 10 failures.
     */
    async verifySecondFactor(input: { code: string; method: "totp" | "backup"; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await countAttempt(deps, "twoFactor", limits, input.ip, "challenge");
      if (blocked) return blocked;
      const code = input.code.replace(/\s+/g, "");
      let verified;
      try {
        verified =
          input.method === "totp"
            ? await (await auth.get()).api.verifyTOTP({ body: { code }, headers: input.headers, returnHeaders: true })
            : await (await auth.get()).api.verifyBackupCode({ body: { code }, headers: input.headers, returnHeaders: true });
      } catch (error) {
        if (!isAPIError(error)) {
          log.error({ err: error }, "second factor check failed");
          return { ok: false, code: "failed", message: t.auth.loginFailed, status: 500 };
        }
        const reason = errorCode(error);
        if (reason === "INVALID_TWO_FACTOR_COOKIE" || reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
          return { ok: false, code: "two_factor_expired", message: t.auth.twoFactor.expired, status: 401 };
        }
        if (reason === "ACCOUNT_TEMPORARILY_LOCKED") {
          return { ok: false, code: "two_factor_locked", message: t.auth.twoFactor.locked, status: 429 };
        }
        return { ok: false, code: "two_factor_invalid", message: t.auth.twoFactor.invalidCode, status: 401 };
      }
      const { user, token } = verified.response as { user: { id: string }; token: string };
      const admitted = await admitOnlyAdmins(deps, user.id, token);
      if (admitted) return admitted;
      return { ok: true, headers: verified.headers };
    },

    twoFactorStatus,

    /**
     * Starts turning two-factor on: checks the password, makes a new TOTP secret and ten recovery codes (shown
     * once). It takes effect only once a code of the app is confirmed (`confirmTwoFactor`).
     */
    async startTwoFactor(input: { password: string; headers: Headers }): Promise<{ ok: true; totpURI: string; backupCodes: string[] } | AuthFailure> {
      try {
        const started = await (await auth.get()).api.enableTwoFactor({ body: { password: input.password, method: "totp" }, headers: input.headers });
        if (started.method !== "totp") throw new Error("two-factor enabled without TOTP");
        return { ok: true, totpURI: started.totpURI, backupCodes: started.backupCodes };
      } catch (error) {
        return securityFailure(error);
      }
    },

    /** Confirms the setup with a code of the app; returns the renewed session cookie. */
    async confirmTwoFactor(input: { code: string; headers: Headers }): Promise<AuthResult> {
      try {
        const confirmed = await (await auth.get()).api.verifyTOTP({
          body: { code: input.code.replace(/\s+/g, "") },
          headers: input.headers,
          returnHeaders: true,
        });
        return { ok: true, headers: confirmed.headers };
      } catch (error) {
        return securityFailure(error);
      }
    },

    /** Turns two-factor off (password required); returns the renewed session cookie. */
    async disableTwoFactor(input: { password: string; headers: Headers }): Promise<AuthResult> {
      if (config.auth.twoFactor === "required") {
        return { ok: false, code: "failed", message: t.auth.twoFactor.cannotDisable, status: 403 };
      }
      try {
        const disabled = await (await auth.get()).api.disableTwoFactor({
          body: { password: input.password },
          headers: input.headers,
          returnHeaders: true,
        });
        return { ok: true, headers: disabled.headers };
      } catch (error) {
        return securityFailure(error);
      }
    },

    /** New recovery codes (password required); the old ones stop working. */
    async regenerateRecoveryCodes(input: { password: string; headers: Headers }): Promise<{ ok: true; backupCodes: string[] } | AuthFailure> {
      try {
        const generated = await (await auth.get()).api.generateBackupCodes({ body: { password: input.password }, headers: input.headers });
        return { ok: true, backupCodes: generated.backupCodes };
      } catch (error) {
        return securityFailure(error);
      }
    },

    /**
     * Whether ADMIN_2FA=required applies to this viewer and they have not turned it on yet. Accounts that sign in
     * only with Google are left to Google's own two-step verification (Better Auth's second factor guards the
     * password sign-in).
     */
    async lacksRequiredTwoFactor(viewer: Viewer): Promise<boolean> {
      if (config.auth.twoFactor !== "required" || viewer.twoFactorEnabled) return false;
      return (await twoFactorStatus(viewer.userId)).hasPassword;
    },

    /** Whether every admin must use two-factor (ADMIN_2FA=required). */
    twoFactorRequired(): boolean {
      return config.auth.twoFactor === "required";
    },
  };
}
