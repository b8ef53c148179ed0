import { t } from "../../i18n/pt-BR.ts";
import { hasSessionCookie } from "../../lib/session-cookie.ts";
import type { AdminService } from "../admins/admins.service.server.ts";
import type { AppConfig } from "../config/env.server.ts";
import type { Logger } from "../logger.server.ts";
import type { Mailer } from "../mail/mailer.server.ts";
import type { LazyBetterAuth } from "./auth.server.ts";
import { isAPIError } from "./api-error.server.ts";
import type { RateLimiter } from "./rate-limiter.server.ts";

export interface Viewer {
  userId: string;
  email: string;
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
  config: Pick<AppConfig, "auth">;
  log: Logger;
}

/**
 * Every identity operation of the newsroom. Only admins ever keep a session: anyone else is signed out at once
 * and told their user id, so an existing admin can grant access.
 */
export function createAuthService({ auth, mailer, admins, limiter, config, log }: AuthServiceDeps) {
  const { rateLimit } = config.auth;

  async function endSession(token: string) {
    const context = await (await auth.get()).$context;
    await context.internalAdapter.deleteSession(token);
  }

  /** Attempts allowed per window for each scope: per account (e-mail) and per IP address. */
  const LIMITS = {
    reset: { perAccount: rateLimit.max, perIp: rateLimit.max * 3, message: t.auth.rateLimited },
    // Each registration stores a row and sends a mail: a handful per address, a few more per IP.
    register: { perAccount: 3, perIp: rateLimit.max, message: t.auth.registerRateLimited },
    // Second-factor codes per IP (Better Auth also locks the account after 10 failures).
    twoFactor: { perAccount: rateLimit.max * 3, perIp: rateLimit.max * 3, message: t.auth.rateLimited },
  } as const;

  /** A refusal for `retryAfterSeconds`, with the wait in whole minutes in the message. */
  const refusal = (retryAfterSeconds: number, message: (minutes: number) => string): AuthFailure => ({
    ok: false,
    code: "rate_limited",
    message: message(Math.max(1, Math.ceil(retryAfterSeconds / 60))),
    status: 429,
    retryAfterSeconds,
  });

  /** Counts an attempt of `scope` per account and per IP; the first limit reached refuses it. */
  async function limited(scope: keyof typeof LIMITS, ip: string, email: string): Promise<AuthFailure | null> {
    const limits = LIMITS[scope];
    const perAccount = await limiter.hit(`${scope}:account:${email.toLowerCase()}`, limits.perAccount, rateLimit.windowSeconds);
    const perIp = await limiter.hit(`${scope}:ip:${ip}`, limits.perIp, rateLimit.windowSeconds);
    const blocked = [perAccount, perIp].find((result) => !result.allowed);
    return blocked ? refusal(blocked.retryAfterSeconds, limits.message) : null;
  }

  /**
   * Sign-in attempts for one account from one address, in growing windows: half the limit in a minute, the limit in
   * the configured window, three times it in four windows. Guessing from one place slows down more and more, but
   * the account is never locked for everyone: the real admin, elsewhere, still signs in (per-account-only locks let
   * anyone lock the admin out). A success clears them.
   */
  const loginTiers = () => [
    { name: "short", max: Math.max(2, Math.ceil(rateLimit.max / 2)), windowSeconds: 60 },
    { name: "window", max: rateLimit.max, windowSeconds: rateLimit.windowSeconds },
    { name: "long", max: rateLimit.max * 3, windowSeconds: rateLimit.windowSeconds * 4 },
  ];
  const loginKey = (tier: string, ip: string, email: string) => `login:${tier}:${ip}:${email.toLowerCase()}`;

  async function loginLimited(ip: string, email: string): Promise<AuthFailure | null> {
    const results = [await limiter.hit(`login:ip:${ip}`, rateLimit.max * 3, rateLimit.windowSeconds)];
    for (const tier of loginTiers()) results.push(await limiter.hit(loginKey(tier.name, ip, email), tier.max, tier.windowSeconds));
    const waits = results.filter((result) => !result.allowed).map((result) => result.retryAfterSeconds);
    return waits.length ? refusal(Math.max(...waits), t.auth.rateLimited) : null;
  }

  async function loginSucceeded(ip: string, email: string) {
    for (const tier of loginTiers()) await limiter.reset(loginKey(tier.name, ip, email));
  }

  /** Only admins keep a session: anyone else has the new one ended at once and is told their id. */
  async function admitOnlyAdmins(userId: string, token: string): Promise<AuthFailure | null> {
    if (await admins.isAdmin(userId)) return null;
    await endSession(token);
    return { ok: false, code: "not_admin", message: t.auth.notAdmin, uid: userId, status: 403 };
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

  const viewers = new WeakMap<Request, Promise<Viewer | null>>();

  async function lookUpViewer(request: Request): Promise<Viewer | null> {
    // No session cookie, no session: readers (nearly every request) cost no lookup at all.
    if (!hasSessionCookie(request.headers.get("Cookie"))) return null;
    try {
      const session = await (await auth.get()).api.getSession({ headers: request.headers });
      if (!session) return null;
      return {
        userId: session.user.id,
        email: session.user.email,
        isAdmin: await admins.isAdmin(session.user.id),
        twoFactorEnabled: Boolean((session.user as { twoFactorEnabled?: unknown }).twoFactorEnabled),
      };
    } catch (error) {
      log.error({ err: error }, "session lookup failed");
      return null;
    }
  }

  return {
    /**
     * The signed-in user of this request and whether they are an admin (checked in the database). Looked up once
     * per request: the root loader, the admin layout's middleware and loader and the page's own guard share it.
     */
    getViewer(request: Request): Promise<Viewer | null> {
      let viewer = viewers.get(request);
      if (!viewer) {
        viewer = lookUpViewer(request);
        viewers.set(request, viewer);
      }
      return viewer;
    },

    async signInWithPassword(input: { email: string; password: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await loginLimited(input.ip, input.email);
      if (blocked) return blocked;
      let signedIn;
      try {
        signedIn = await (await auth.get()).api.signInEmail({
          body: { email: input.email, password: input.password },
          headers: input.headers,
          returnHeaders: true,
        });
      } catch (error) {
        if (!isAPIError(error)) log.error({ err: error }, "sign-in failed");
        else if (errorCode(error) === "EMAIL_NOT_VERIFIED") {
          // Only someone who knows the password gets here: telling them to verify leaks nothing.
          return { ok: false, code: "email_not_verified", message: t.auth.emailNotVerified, status: 403 };
        }
        return { ok: false, code: "invalid", message: t.auth.emailLoginFailed, status: 401 };
      }
      // Right password, second factor on: Better Auth set a short-lived challenge cookie and made no session yet.
      if ("twoFactorRedirect" in signedIn.response && signedIn.response.twoFactorRedirect) {
        await loginSucceeded(input.ip, input.email);
        return { ok: false, code: "two_factor", message: t.auth.twoFactor.prompt, status: 200, headers: signedIn.headers };
      }
      const { user, token } = signedIn.response as { user: { id: string }; token: string };
      const admitted = await admitOnlyAdmins(user.id, token);
      if (admitted) return admitted;
      // A successful sign-in clears this address's count for the account (the IP's keeps counting).
      await loginSucceeded(input.ip, input.email);
      return { ok: true, headers: signedIn.headers };
    },

    /**
     * The second step of a sign-in with two-factor on: a code of the authenticator app or a recovery code, checked
     * against the challenge cookie of the first step. Better Auth locks the account for 15 min after 10 failures.
     */
    async verifySecondFactor(input: { code: string; method: "totp" | "backup"; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await limited("twoFactor", input.ip, "challenge");
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
      const admitted = await admitOnlyAdmins(user.id, token);
      if (admitted) return admitted;
      return { ok: true, headers: verified.headers };
    },

    /** The two-factor state of an account (for the security page). */
    async twoFactorStatus(userId: string): Promise<{ enabled: boolean; hasPassword: boolean }> {
      const context = await (await auth.get()).$context;
      const [user, accounts] = await Promise.all([context.internalAdapter.findUserById(userId), context.internalAdapter.findAccounts(userId)]);
      return {
        enabled: Boolean((user as { twoFactorEnabled?: unknown } | null)?.twoFactorEnabled),
        hasPassword: accounts.some((account) => account.providerId === "credential"),
      };
    },

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
      return (await this.twoFactorStatus(viewer.userId)).hasPassword;
    },

    /** Whether every admin must use two-factor (ADMIN_2FA=required). */
    twoFactorRequired(): boolean {
      return config.auth.twoFactor === "required";
    },

    /**
     * Self-registration. The account is created unverified and a confirmation link is mailed; nobody is signed in.
     * The answer is the same whether or not the address already had an account (then Better Auth returns a
     * synthetic user and its owner gets a notice by mail), so registration tells no one which addresses exist.
     */
    async register(input: { email: string; password: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await limited("register", input.ip, input.email);
      if (blocked) return blocked;
      let created;
      try {
        created = await (await auth.get()).api.signUpEmail({
          body: { email: input.email, password: input.password, name: input.email.split("@")[0] ?? input.email },
          headers: input.headers,
        });
      } catch (error) {
        if (isAPIError(error)) {
          if (errorCode(error) === "PASSWORD_POLICY") return { ok: false, code: "policy", message: error.message, status: 400 };
          return { ok: false, code: "failed", message: t.auth.registerFailed, status: 400 };
        }
        log.error({ err: error }, "registration failed");
        return { ok: false, code: "failed", message: t.auth.registerError, status: 500 };
      }
      // With e-mail verification required no session is ever created here; end one defensively if it were.
      if (created.token) await endSession(created.token);
      return {
        ok: false,
        code: "registered_not_admin",
        message: t.auth.registeredNotAdmin,
        notice: t.auth.registeredCheckEmail,
        uid: created.user.id,
        status: 403,
      };
    },

    /** Confirms an address from the link of the verification mail; returns the account's id. */
    async verifyEmail(token: string): Promise<{ ok: true; uid: string } | AuthFailure> {
      const invalid: AuthFailure = { ok: false, code: "verify_invalid", message: t.auth.verifyInvalid, status: 400 };
      if (!token) return invalid;
      try {
        await (await auth.get()).api.verifyEmail({ query: { token } });
        // Better Auth has just checked the token's signature and expiry; its payload names the account.
        const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { userId?: string; email?: string };
        const user = await admins.findUser(payload.userId ?? payload.email ?? "");
        if (!user) return invalid;
        return { ok: true, uid: user.id };
      } catch (error) {
        if (!isAPIError(error)) log.error({ err: error }, "e-mail verification failed");
        return invalid;
      }
    },

    /** Always answers the same way whether the account exists or not (no user enumeration). */
    async requestPasswordReset(input: { email: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await limited("reset", input.ip, input.email);
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

    googleEnabled(): boolean {
      return config.auth.google !== null;
    },

    /** Starts the OpenID Connect redirect flow; the browser comes back through /api/auth/callback/google. */
    async startGoogleSignIn(input: { redirectTo: string; headers: Headers }): Promise<{ url: string; headers: Headers } | AuthFailure> {
      if (!config.auth.google) return { ok: false, code: "google_disabled", message: t.auth.googleUnavailable, status: 400 };
      try {
        const started = await (await auth.get()).api.signInSocial({
          body: {
            provider: "google",
            callbackURL: `/admin/login?oauth=google&redirectTo=${encodeURIComponent(input.redirectTo)}`,
            errorCallbackURL: "/admin/login?oauth=error",
          },
          headers: input.headers,
          returnHeaders: true,
        });
        if (!started.response.url) throw new Error("no authorization URL");
        return { url: started.response.url, headers: started.headers };
      } catch (error) {
        log.error({ err: error }, "google sign-in could not start");
        return { ok: false, code: "failed", message: t.auth.googleLoginFailed, status: 502 };
      }
    },

    /** Ends the session of this request; returns the headers that clear the cookie. */
    async signOut(headers: Headers): Promise<Headers> {
      const result = await (await auth.get()).api.signOut({ headers, returnHeaders: true });
      return result.headers;
    },
  };
}

/** The stable code of a Better Auth API error (e.g. EMAIL_NOT_VERIFIED), if any. */
function errorCode(error: { body?: unknown }): string | undefined {
  return (error.body as { code?: string } | undefined)?.code;
}

export type AuthService = ReturnType<typeof createAuthService>;
