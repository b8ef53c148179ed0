import { t } from "#app/i18n/newsroom.ts";
import { isAPIError } from "./api-error.server.ts";
import { type AuthFailure, type AuthResult, type AuthServiceDeps, countAttempt, endSession, errorCode } from "./auth-results.server.ts";

/** Self-registration and the confirmation of an address. */
export function createRegistrationFlow(deps: AuthServiceDeps) {
  const { auth, admins, config, log } = deps;
  // Each registration stores a row and sends a mail: a handful per address, a few more per IP.
  const limits = { perAccount: 3, perIp: config.auth.rateLimit.max, message: t.auth.registerRateLimited };

  return {
    /**
     * Self-registration. The account is created unverified and a confirmation link is mailed; nobody is signed in.
     * The answer is the same whether or not the address already had an account (then Better Auth returns a
     * synthetic user and its owner gets a notice by mail), so registration tells no one which addresses exist.
     */
    async register(input: { email: string; password: string; ip: string; headers: Headers }): Promise<AuthResult> {
      const blocked = await countAttempt(deps, "register", limits, input.ip, input.email);
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
      if (created.token) await endSession(auth, created.token);
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
  };
}
