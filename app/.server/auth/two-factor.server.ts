import { createHmac, timingSafeEqual } from "node:crypto";
import { t } from "#app/i18n/newsroom.ts";
import { isAPIError } from "./api-error.server.ts";
import { type AuthFailure, type AuthResult, type AuthServiceDeps, admitOnlyAdmins, refusal, errorCode, type Viewer } from "./auth-results.server.ts";

/** The second step of a sign-in, and turning two-factor on and off on the security page. */
export function createTwoFactorFlow(deps: AuthServiceDeps) {
  const { auth, config, limiter, log } = deps;
  const { rateLimit } = config.auth;
  const expired: AuthFailure = { ok: false, code: "two_factor_expired", message: t.auth.twoFactor.expired, status: 401 };

  /**
   * The pending sign-in this request's challenge cookie names (set by the password step, signed with the auth
   * secret, stored with its expiry): its id and the account's, or null when the cookie is missing, forged, expired
   * or already used. Nothing is counted before this check, so a request without a real challenge (which only the
   * account's password gives) cannot spend anybody's attempts.
   */
  async function pendingChallenge(headers: Headers): Promise<{ id: string; userId: string } | null> {
    const context = await (await auth.get()).$context;
    const name = context.createAuthCookie(TWO_FACTOR_COOKIE).name;
    const signed = cookieValue(headers.get("cookie"), name);
    const dot = signed?.lastIndexOf(".") ?? -1;
    if (!signed || dot < 1) return null;
    const id = signed.slice(0, dot);
    const expected = Buffer.from(createHmac("sha256", context.secret).update(id).digest("base64"));
    const given = Buffer.from(signed.slice(dot + 1));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const stored = await context.internalAdapter.findVerificationValue(id);
    if (!stored || new Date(stored.expiresAt).getTime() <= Date.now()) return null;
    return { id, userId: stored.value };
  }

  /**
   * Counts one code against the challenge and against its account. A challenge gets TWO_FACTOR_CODES_PER_CHALLENGE
   * codes: past them it is ended (the password step must be done again) and the account is not touched. The
   * account's own count (every challenge of it in a window) only ever sees people who knew its password.
   */
  async function countCode(challenge: { id: string; userId: string }): Promise<AuthFailure | null> {
    const perChallenge = await limiter.hit(`2fa:challenge:${challenge.id}`, TWO_FACTOR_CODES_PER_CHALLENGE, rateLimit.windowSeconds);
    if (!perChallenge.allowed) {
      const context = await (await auth.get()).$context;
      await context.internalAdapter.deleteVerificationByIdentifier(challenge.id).catch(() => {});
      return expired;
    }
    const perAccount = await limiter.hit(`2fa:account:${challenge.userId}`, rateLimit.max * 2, rateLimit.windowSeconds);
    return perAccount.allowed ? null : refusal(perAccount.retryAfterSeconds, t.auth.rateLimited);
  }

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
     * against the challenge cookie of the first step. Without a real challenge it is refused and nothing counts;
     * with one, the attempt counts against that challenge and that account (see countCode). Better Auth also
     * locks the account for 15 min after 10 wrong codes in a row, which takes two challenges, hence the password.
     */
    async verifySecondFactor(input: { code: string; method: "totp" | "backup"; ip: string; headers: Headers }): Promise<AuthResult> {
      const challenge = await pendingChallenge(input.headers);
      if (!challenge) return expired;
      const blocked = await countCode(challenge);
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
          return expired;
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

/** Better Auth's challenge cookie (its name before the "eef." prefix, and "__Secure-" on https). */
const TWO_FACTOR_COOKIE = "two_factor";

/** Codes one challenge (one password step) may try before it is ended; Better Auth's own count is the same. */
export const TWO_FACTOR_CODES_PER_CHALLENGE = 5;

/** The (percent-decoded) value of cookie `name` in a Cookie header. */
function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}
