import { redirect } from "react-router";
import { getServices } from "../app.server.ts";
import type { Viewer } from "./auth.service.server.ts";

/**
 * The signed-in admin of this request. Anyone else is redirected to /admin/login, which remembers where they
 * were going. Every admin loader and action starts with this call.
 */
export async function requireAdmin(request: Request, options: { allowWithoutTwoFactor?: boolean } = {}): Promise<Viewer> {
  const { auth } = getServices();
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

/** The viewer of this request, or null (never throws). */
export function getViewer(request: Request): Promise<Viewer | null> {
  return getServices().auth.getViewer(request);
}

/**
 * Whether this request is an admin's who may use the newsroom (two-factor on when required): who sees drafts and
 * scheduled news. Never throws or redirects; readers get false.
 */
export async function isNewsroomViewer(request: Request): Promise<boolean> {
  const { auth } = getServices();
  const viewer = await auth.getViewer(request);
  return Boolean(viewer?.isAdmin) && !(await auth.lacksRequiredTwoFactor(viewer!));
}
