import type { Route } from "./+types/auth";
import { getServices } from "../../.server/app.server.ts";
import { PUBLIC_AUTH_PATHS } from "../../.server/auth/auth.server.ts";
import { t } from "../../i18n/pt-BR.ts";

/**
 * Better Auth's HTTP handler, opened only for what the browser must reach directly (the OpenID Connect callback).
 * Sign-in, registration and resets go through our own forms and actions.
 */
async function handle(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (!PUBLIC_AUTH_PATHS.some((path) => pathname === path)) return new Response(t.errors.notFound, { status: 404 });
  return (await getServices().betterAuth.get()).handler(request);
}

export function loader({ request }: Route.LoaderArgs) {
  return handle(request);
}

export function action({ request }: Route.ActionArgs) {
  return handle(request);
}
