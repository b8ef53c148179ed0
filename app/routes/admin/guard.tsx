import { Outlet } from "react-router";
import type { Route } from "./+types/guard";
import { privatePageHeaders } from "#app/lib/cache-headers.ts";
import { requireRole, roleOfRequest, SECURITY_PATH } from "#app/.server/auth/permissions.server.ts";

/**
 * Layout of every protected newsroom page. Its middleware runs on the server before any loader or action below
 * it, for document and data requests alike (even a data request that asks for one child route only), so nothing
 * under this layout is reachable without a newsroom session whose role reaches the one the page's route facts ask
 * for (`role` in its `handle`, read from the server's route table; admin when it says none). The one exception is
 * the role check of a page's document (GET without `.data`): it is this layout's loader's, which every document
 * request runs, so that the 403 page is drawn with the site's header (a middleware's refusal comes before the root
 * loader); the session check stays here. The children check their own `handle` too (belt and braces).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    const document = request.method === "GET" && !new URL(request.url).pathname.endsWith(".data");
    await requireRole(request, context, document ? "reporter" : roleOfRequest(request, context), {
      allowWithoutTwoFactor: isSecurityPage(request),
    });
  },
];

/** The security page stays reachable when ADMIN_2FA=required sends an admin there to turn two-factor on. */
function isSecurityPage(request: Request): boolean {
  return new URL(request.url).pathname.replace(/\.data$/, "") === SECURITY_PATH;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireRole(request, context, roleOfRequest(request, context), { allowWithoutTwoFactor: isSecurityPage(request) });
  return { email: viewer.email, role: viewer.role };
}

export const headers = privatePageHeaders;

export default function AdminGuard() {
  return <Outlet />;
}
