import type { AuthServiceDeps } from "./auth-results.server.ts";
import { createPasswordResetFlow } from "./password-reset.server.ts";
import { createRegistrationFlow } from "./registration.server.ts";
import { createSignInFlow } from "./sign-in.server.ts";
import { createTwoFactorFlow } from "./two-factor.server.ts";

export type { AuthFailure, AuthResult, AuthServiceDeps, Viewer } from "./auth-results.server.ts";

/**
 * Every identity operation of the newsroom, one module per flow: signing in and out (sign-in.server.ts),
 * registration (registration.server.ts), password reset (password-reset.server.ts) and two-factor
 * (two-factor.server.ts). Only admins ever keep a session: anyone else is signed out at once and told their user
 * id, so an existing admin can grant access.
 */
export function createAuthService(deps: AuthServiceDeps) {
  return {
    ...createSignInFlow(deps),
    ...createTwoFactorFlow(deps),
    ...createRegistrationFlow(deps),
    ...createPasswordResetFlow(deps),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
