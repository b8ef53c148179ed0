import { redirect } from "react-router";
import { type RequestContext, servicesOf } from "../context.server.ts";
import type { AuthService, Viewer } from "./auth.service.server.ts";

/**
 * The guards of loaders, actions and middleware. Each takes the request and its context (`guard(request, context)`)
 * and reads the auth service from the context.
 */

/**
 * The signed-in admin of this request. Anyone else is redirected to /admin/login, which remembers where they
 * were going. Every admin loader and action starts with this call.
 */
export async function requireAdmin(request: Request, context: RequestContext, options: { allowWithoutTwoFactor?: boolean } = {}): Promise<Viewer> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (viewer?.isAdmin) {
    // ADMIN_2FA=required: an admin who signs in with a password works only once two-factor is on.
    if (!options.allowWithoutTwoFactor && (await auth.lacksRequiredTwoFactor(viewer))) {
      throw redirect(SECURITY_PATH, { headers: { "Cache-Control": "no-store" } });
    }
    return viewer;
  }
  const url = new URL(request.url);
  const origin = url.pathname + url.search;
  throw redirect(`/admin/login?redirectTo=${encodeURIComponent(origin)}`, { headers: { "Cache-Control": "no-store" } });
}

/** The page where an admin turns two-factor sign-in on or off. */
export const SECURITY_PATH = "/admin/security";

/** What a page shows differently to the newsroom, from one lookup of the request's viewer. */
export interface NewsroomAccess {
  /** A signed-in admin (two-factor or not): sees read counts. */
  admin: boolean;
  /** An admin who may use the newsroom (two-factor on when required): sees drafts and scheduled news. */
  newsroom: boolean;
}

/**
 * Whether this request is an admin's, and whether that admin may use the newsroom. Never throws or redirects;
 * readers (no session cookie) get false for both at no cost.
 */
export async function newsroomAccess(request: Request, context: RequestContext): Promise<NewsroomAccess> {
  const { auth } = servicesOf(context);
  const viewer = await auth.getViewer(request);
  if (!viewer?.isAdmin) return { admin: false, newsroom: false };
  return { admin: true, newsroom: await mayUseNewsroom(viewer, auth) };
}

/** Whether this request is an admin's who may use the newsroom (see `newsroomAccess`). */
export async function isNewsroomViewer(request: Request, context: RequestContext): Promise<boolean> {
  return (await newsroomAccess(request, context)).newsroom;
}

function mayUseNewsroom(viewer: Viewer, auth: Pick<AuthService, "lacksRequiredTwoFactor">): Promise<boolean> {
  return auth.lacksRequiredTwoFactor(viewer).then((lacks) => !lacks);
}
