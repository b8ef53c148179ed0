import { redirect } from "react-router";
import { getServices } from "../app.server.ts";
import type { Viewer } from "./auth.service.server.ts";

/**
 * The signed-in admin of this request. Anyone else is redirected to /admin/login, which remembers where they
 * were going. Every admin loader and action starts with this call.
 */
export async function requireAdmin(request: Request): Promise<Viewer> {
  const viewer = await getServices().auth.getViewer(request);
  if (viewer?.isAdmin) return viewer;
  const url = new URL(request.url);
  const origin = url.pathname + url.search;
  throw redirect(`/admin/login?redirectTo=${encodeURIComponent(origin)}`, { headers: { "Cache-Control": "no-store" } });
}

/** The viewer of this request, or null (never throws). */
export function getViewer(request: Request): Promise<Viewer | null> {
  return getServices().auth.getViewer(request);
}
