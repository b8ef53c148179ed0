/**
 * What a route module's loader or action gets from React Router, for integration tests that call them directly: the
 * router context holding the app's services, and the session cookie of a signed-in admin.
 */
import { RouterContextProvider } from "react-router";
import type { AppServices } from "../../app/.server/app.server.ts";
import { servicesContext } from "../../app/.server/context.server.ts";
import type { Role } from "../../app/lib/roles.ts";
import { createAdmin, createMember } from "./auth.ts";
import type { TestServices } from "./use-services.ts";

/** The router context of a request to a site running on `services`. */
export function routeContextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

/** A new admin, signed in from `ip`: the `eef.session_token=…` pair to send as the Cookie header. */
export async function adminSessionCookie(services: TestServices, ip: string): Promise<string> {
  const admin = await createAdmin(services);
  const result = await services.auth.signInWithPassword({ email: admin.email, password: admin.password, ip, headers: new Headers() });
  if (!result.ok) throw new Error("admin sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return token;
}

/** A new newsroom member with `role`, signed in: the session cookie pair and the account's id. */
export async function memberSessionCookie(services: TestServices, role: Role, ip = "10.1.0.3"): Promise<{ cookie: string; userId: string }> {
  const account = await createMember(services, role);
  const result = await services.auth.signInWithPassword({ email: account.email, password: account.password, ip, headers: new Headers() });
  if (!result.ok) throw new Error("member sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return { cookie: token, userId: account.id };
}
