import { isAPIError } from "better-auth/api";
import { t } from "../../i18n/pt-BR.ts";
import type { AdminService } from "../admins/admins.service.server.ts";
import type { AppConfig } from "../config/env.server.ts";
import type { Logger } from "../logger.server.ts";
import type { BetterAuthInstance } from "./auth.server.ts";
import type { RateLimiter } from "./rate-limiter.server.ts";

export interface Viewer {
  userId: string;
  email: string;
  isAdmin: boolean;
}

/** Why an authentication step failed: a pt-BR message and, for signed-in non-admins, their id. */
export interface AuthFailure {
  ok: false;
  code: "invalid" | "not_admin" | "registered_not_admin" | "rate_limited" | "policy" | "failed" | "google_disabled";
  message: string;
  uid?: string;
  status: number;
}

export type AuthResult = { ok: true; headers: Headers } | AuthFailure;

export interface AuthServiceDeps {
  auth: BetterAuthInstance;
  admins: AdminService;
  limiter: RateLimiter;
  config: Pick<AppConfig, "auth">;
  log: Logger;
}

/**
 * Every identity operation of the newsroom. Only admins ever keep a session: anyone else is signed out at once
 * and told their user id, so an existing admin can grant access.
 */
export function createAuthService({ auth, admins, limiter, config, log }: AuthServiceDeps) {
  const { rateLimit } = config.auth;

  async function endSession(token: string) {
    const context = await auth.$context;
    await context.internalAdapter.deleteSession(token);
  }

  /** Counts an attempt of `scope` (sign-in, reset) per account and per IP; the IP may try 3 × as often. */
  async function limited(scope: "login" | "reset", ip: string, email: string): Promise<AuthFailure | null> {
    const perAccount = await limiter.hit(`${scope}:account:${email.toLowerCase()}`, rateLimit.max, rateLimit.windowSeconds);
    const perIp = await limiter.hit(`${scope}:ip:${ip}`, rateLimit.max * 3, rateLimit.windowSeconds);
    const blocked = [perAccount, perIp].find((result) => !result.allowed);
    if (!blocked) return null;
    const minutes = Math.max(1, Math.ceil(blocked.retryAfterSeconds / 60));
    return { ok: false, code: "rate_limited", message: t.auth.rateLimited(minutes), status: 429 };
  }

  const viewers = new WeakMap<Request, Promise<Viewer | null>>();

  async function lookUpViewer(request: Request): Promise<Viewer | null> {
    try {
      const session = await auth.api.getSession({ headers: request.headers });
      if (!session) return null;
      return { userId: session.user.id, email: session.user.email, isAdmin: await admins.isAdmin(session.user.id) };
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
      const blocked = await limited("login", input.ip, input.email);
      if (blocked) return blocked;
      let signedIn;
      try {
        signedIn = await auth.api.signInEmail({
          body: { email: input.email, password: input.password },
          headers: input.headers,
          returnHeaders: true,
        });
      } catch (error) {
        if (!isAPIError(error)) log.error({ err: error }, "sign-in failed");
        return { ok: false, code: "invalid", message: t.auth.emailLoginFailed, status: 401 };
      }
      const { user, token } = signedIn.response;
      if (!(await admins.isAdmin(user.id))) {
        await endSession(token);
        return { ok: false, code: "not_admin", message: t.auth.notAdmin, uid: user.id, status: 403 };
      }
      // A successful sign-in clears the account's count (the IP's keeps counting).
      await limiter.reset(`login:account:${input.email.toLowerCase()}`);
      return { ok: true, headers: signedIn.headers };
    },

    async register(input: { email: string; password: string; headers: Headers }): Promise<AuthResult> {
      let created;
      try {
        created = await auth.api.signUpEmail({
          body: { email: input.email, password: input.password, name: input.email.split("@")[0] ?? input.email },
          headers: input.headers,
          returnHeaders: true,
        });
      } catch (error) {
        if (isAPIError(error)) {
          const code = (error.body as { code?: string } | undefined)?.code;
          if (code === "PASSWORD_POLICY") return { ok: false, code: "policy", message: error.message, status: 400 };
          const detail = code === "USER_ALREADY_EXISTS" || code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" ? t.auth.emailInUse : "";
          return { ok: false, code: "failed", message: [t.auth.registerFailed, detail].filter(Boolean).join(" "), status: 400 };
        }
        log.error({ err: error }, "registration failed");
        return { ok: false, code: "failed", message: t.auth.registerError, status: 500 };
      }
      const { user, token } = created.response;
      if (!(await admins.isAdmin(user.id))) {
        if (token) await endSession(token);
        return { ok: false, code: "registered_not_admin", message: t.auth.registeredNotAdmin, uid: user.id, status: 403 };
      }
      return { ok: true, headers: created.headers };
    },

    /** Always answers the same way whether the account exists or not (no user enumeration). */
    async requestPasswordReset(input: { email: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await limited("reset", input.ip, input.email);
      if (blocked) return blocked;
      try {
        await auth.api.requestPasswordReset({ body: { email: input.email }, headers: input.headers });
        return { ok: true, headers: new Headers() };
      } catch (error) {
        log.error({ err: error }, "password reset request failed");
        return { ok: false, code: "failed", message: t.auth.resetSendFailed, status: 500 };
      }
    },

    async resetPassword(input: { token: string; newPassword: string }): Promise<AuthResult> {
      try {
        await auth.api.resetPassword({ body: { token: input.token, newPassword: input.newPassword } });
        return { ok: true, headers: new Headers() };
      } catch (error) {
        if (isAPIError(error)) {
          const code = (error.body as { code?: string } | undefined)?.code;
          if (code === "PASSWORD_POLICY") return { ok: false, code: "policy", message: error.message, status: 400 };
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
        const started = await auth.api.signInSocial({
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
      const result = await auth.api.signOut({ headers, returnHeaders: true });
      return result.headers;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
