import { href } from "react-router";
import { t } from "#app/i18n/newsroom.ts";
import { hasSessionCookie } from "#app/lib/session-cookie.ts";
import { isAPIError } from "./api-error.server.ts";
import { type AuthFailure, type AuthResult, type AuthServiceDeps, admitOnlyAdmins, errorCode, refusal, type Viewer } from "./auth-results.server.ts";

/** Who is signed in, signing in with a password or with Google, and signing out. */
export function createSignInFlow(deps: AuthServiceDeps) {
  const { auth, admins, limiter, config, log } = deps;
  // How to turn Google sign-in on is for whoever runs the server, not for the public sign-in page: said here, once.
  if (!config.auth.google) log.info("Google sign-in is off: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to turn it on");
  const { rateLimit } = config.auth;

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

  const viewers = new WeakMap<Request, Promise<Viewer | null>>();

  async function lookUpViewer(request: Request): Promise<Viewer | null> {
    // No session cookie, no session: readers (nearly every request) cost no lookup at all.
    if (!hasSessionCookie(request.headers.get("Cookie"))) return null;
    try {
      const session = await (await auth.get()).api.getSession({ headers: request.headers });
      if (!session) return null;
      const role = await admins.roleOf(session.user.id);
      return {
        userId: session.user.id,
        email: session.user.email,
        role,
        isAdmin: role === "admin",
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
      const admitted = await admitOnlyAdmins(deps, user.id, token);
      if (admitted) return admitted;
      // A successful sign-in clears this address's count for the account (the IP's keeps counting).
      await loginSucceeded(input.ip, input.email);
      return { ok: true, headers: signedIn.headers };
    },

    googleEnabled(): boolean {
      return config.auth.google !== null;
    },

    /** Starts the OpenID Connect redirect flow; the browser comes back through /api/auth/callback/google. */
    async startGoogleSignIn(input: { redirectTo: string; headers: Headers }): Promise<{ url: string; headers: Headers } | AuthFailure> {
      if (!config.auth.google) {
        log.warn("a Google sign-in was asked for, but GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set");
        return { ok: false, code: "google_disabled", message: t.auth.googleUnavailable, status: 400 };
      }
      try {
        const started = await (await auth.get()).api.signInSocial({
          body: {
            provider: "google",
            callbackURL: `${href("/admin/login")}?oauth=google&redirectTo=${encodeURIComponent(input.redirectTo)}`,
            errorCallbackURL: `${href("/admin/login")}?oauth=error`,
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
