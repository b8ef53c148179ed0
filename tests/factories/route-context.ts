/**
 * What a route module's loader or action gets from React Router, for integration tests that call them directly: the
 * router context holding the app's services, and the session cookie of a signed-in admin.
 */
import { RouterContextProvider } from "react-router";
import type { AppServices } from "#app/.server/app.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import type { Role } from "#app/lib/roles.ts";
import { createAdmin, createMember } from "./auth.ts";
import type { TestServices } from "./use-services.ts";

/** The router context of a request to a site running on `services`. */
export function routeContextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

/** `account` signed in from `ip`: the `eef.session_token=…` pair to send as the Cookie header. */
async function sessionCookie(services: TestServices, account: { email: string; password: string }, ip: string): Promise<string> {
  const result = await services.auth.signInWithPassword({ email: account.email, password: account.password, ip, headers: new Headers() });
  if (!result.ok) throw new Error(`sign-in failed: ${account.email}`);
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return token;
}

/** A new admin, signed in from `ip`: the `eef.session_token=…` pair to send as the Cookie header. */
export async function adminSessionCookie(services: TestServices, ip: string): Promise<string> {
  return sessionCookie(services, await createAdmin(services), ip);
}

/** A new newsroom member with `role`, signed in: the session cookie pair and the account's id. */
export async function memberSessionCookie(services: TestServices, role: Role, ip = "10.1.0.3"): Promise<{ cookie: string; userId: string }> {
  const account = await createMember(services, role);
  return { cookie: await sessionCookie(services, account, ip), userId: account.id };
}
