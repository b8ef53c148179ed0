import { Outlet } from "react-router";
import type { Route } from "./+types/guard";
import { privatePageHeaders } from "../../lib/cache-headers.ts";
import { requireAdmin, SECURITY_PATH } from "../../.server/auth/guards.server.ts";

/**
 * Layout of every protected newsroom page. Its middleware runs on the server before any loader or action below
 * it, for document and data requests alike (even a data request that asks for one child route only), so nothing
 * under this layout is reachable without an admin session. The children call `requireAdmin` too (belt and braces).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }) => {
    await requireAdmin(request, context, { allowWithoutTwoFactor: isSecurityPage(request) });
  },
];

/** The security page stays reachable when ADMIN_2FA=required sends an admin there to turn two-factor on. */
function isSecurityPage(request: Request): boolean {
  return new URL(request.url).pathname.replace(/\.data$/, "") === SECURITY_PATH;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context, { allowWithoutTwoFactor: isSecurityPage(request) });
  return { email: viewer.email };
}

export const headers = privatePageHeaders;

export default function AdminGuard() {
  return <Outlet />;
}
