import type { Route } from "./+types/auth";
import { type RequestContext, servicesOf } from "#app/.server/context.server.ts";
import { PUBLIC_AUTH_PATHS } from "#app/.server/auth/auth.server.ts";
import { t } from "#app/i18n/pt-BR.ts";
import { PRIVATE_ROUTE } from "#app/lib/route-facts.ts";

/**
 * Better Auth's HTTP handler, opened only for what the browser must reach directly (the OpenID Connect callback).
 * Sign-in, registration and resets go through our own forms and actions.
 */
async function answer(request: Request, context: RequestContext): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (!PUBLIC_AUTH_PATHS.some((path) => pathname === path)) return new Response(t.errors.notFound, { status: 404 });
  return (await servicesOf(context).betterAuth.get()).handler(request);
}

export function loader({ request, context }: Route.LoaderArgs) {
  return answer(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return answer(request, context);
}

/** What the server knows of this route before rendering it (app/lib/route-facts.ts). */
export const handle = PRIVATE_ROUTE;
