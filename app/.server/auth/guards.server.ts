import { data, redirect } from "react-router";
import { t } from "../../i18n/newsroom.ts";
import { requiredRoleOf, type RouteHandle } from "../../lib/route-facts.ts";
import { hasRole, type Role, seesUnpublished } from "../../lib/roles.ts";
import { type RequestContext, routeTableContext, servicesOf } from "../context.server.ts";
import type { AuthService, Viewer } from "./auth.service.server.ts";
import { NO_STORE } from "../../lib/cache-headers.ts";

/**
 * The guards of loaders, actions and middleware. Each takes the request and its context (`guard(request, context)`)
 * and reads the auth service from the context.
 */

/** A viewer who is part of the newsroom. */
export type Member = Viewer & { role: Role };

/**
 * The signed-in member of this request whose role is at least `needed` (a role, or a route's `handle`, whose facts
 * say the role: app/lib/route-facts.ts). Anyone without a role (no session, or an account that is not part of the
 * newsroom) is redirected to /admin/login, which remembers where they were going; a member whose role is too low
 * gets a 403 page with a pt-BR message (code `role_forbidden`). Every newsroom loader and action starts with this.
 */
export async function requireRole(
  request: Request,
  context: RequestContext,
  needed: Role | RouteHandle,
  options: { allowWithoutTwoFactor?: boolean } = {},
): Promise<Member> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (viewer?.role) {
    // ADMIN_2FA=required: a member who signs in with a password works only once two-factor is on.
    if (!options.allowWithoutTwoFactor && (await auth.lacksRequiredTwoFactor(viewer))) {
      throw redirect(SECURITY_PATH, { headers: { "Cache-Control": NO_STORE } });
    }
    const role = typeof needed === "string" ? needed : requiredRoleOf(needed);
    if (!hasRole(viewer.role, role)) throw forbidden(viewer.role, role);
    return viewer as Member;
  }
  const url = new URL(request.url);
  const origin = url.pathname + url.search;
  throw redirect(`/admin/login?redirectTo=${encodeURIComponent(origin)}`, { headers: { "Cache-Control": NO_STORE } });
}

/** The signed-in admin of this request (`requireRole(…, "admin")`): sponsors and settings. */
export function requireAdmin(request: Request, context: RequestContext, options: { allowWithoutTwoFactor?: boolean } = {}): Promise<Member> {
  return requireRole(request, context, "admin", options);
}

/** The answer to a member whose role does not reach: a 403 page naming their role and the one needed. */
function forbidden(role: Role, needed: Role) {
  return data(
    { code: "role_forbidden", message: t.roles.forbidden(t.roles.names[role], needed) },
    { status: 403, headers: { "Cache-Control": NO_STORE } },
  );
}

/**
 * The role the requested page asks for, from the route table on the context (its route's facts); admin when the
 * table is absent or the path matches nothing. What the newsroom layout's middleware checks before any child runs.
 */
export function roleOfRequest(request: Request, context: RequestContext): Role {
  const table = context.get(routeTableContext);
  const pathname = new URL(request.url).pathname.replace(/\.data$/, "");
  return table?.match(pathname)?.route.facts.role ?? "admin";
}

/** The page where a member turns two-factor sign-in on or off. */
export const SECURITY_PATH = "/admin/security";

/** What a page shows differently to the newsroom, from one lookup of the request's viewer. */
export interface NewsroomAccess {
  /** A signed-in member (two-factor or not): sees read counts. */
  admin: boolean;
  /**
   * A member who may use the newsroom (two-factor on when required) and whose role sees drafts, stories in review and
   * scheduled news (SEES_UNPUBLISHED in app/lib/roles.ts: every role; the banners that say who sees them follow it).
   */
  newsroom: boolean;
  /** The member's role (null: a reader, or an account with no role). */
  role: Role | null;
}

/**
 * Whether this request is a newsroom member's, and whether that member may use the newsroom. Never throws or
 * redirects; readers (no session cookie) get false for both at no cost.
 */
export async function newsroomAccess(request: Request, context: RequestContext): Promise<NewsroomAccess> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (!viewer?.role) return { admin: false, newsroom: false, role: null };
  return { admin: true, newsroom: seesUnpublished(viewer.role) && (await mayUseNewsroom(viewer, auth)), role: viewer.role };
}

/** Whether this request is a member's who may use the newsroom (see `newsroomAccess`). */
export async function isNewsroomViewer(request: Request, context: RequestContext): Promise<boolean> {
  return (await newsroomAccess(request, context)).newsroom;
}

/** `isNewsroomViewer` outside React Router (the open pages' event stream, server/event-streams.ts). */
export async function isNewsroomMember(auth: AuthService, request: Request): Promise<boolean> {
  const viewer = await auth.getViewer(request);
  return Boolean(viewer?.role && seesUnpublished(viewer.role) && (await mayUseNewsroom(viewer, auth)));
}

function mayUseNewsroom(viewer: Viewer, auth: Pick<AuthService, "lacksRequiredTwoFactor">): Promise<boolean> {
  return auth.lacksRequiredTwoFactor(viewer).then((lacks) => !lacks);
}
