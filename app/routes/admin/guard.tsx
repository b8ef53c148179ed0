import { Outlet } from "react-router";
import type { Route } from "./+types/guard";
import { requireAdmin } from "../../.server/auth/guards.server.ts";

/**
 * Layout of every protected newsroom page. Its loader runs on the server for each request (document or data),
 * so nothing below it is reachable without an admin session.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  return { email: viewer.email };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function AdminGuard() {
  return <Outlet />;
}
